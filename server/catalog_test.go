package server

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
	"github.com/taflmail/taflmail/tournament"
)

// The catalogues and their own tests (both languages the same keys and
// verbs, the counted phrases, the engine's and notation's words) are in
// internal/catalog; here are the tests that need the referee: the keys
// its code asks for, and the texts its functions write.

// dynamicKeys are the catalogue keys the referee builds from data (a side,
// a result, a reason, a game status, a variant, a piece): each must exist,
// and together with the keys the code names literally they are all the
// keys there are.
func dynamicKeys() []string {
	keys := []string{"side.attackers", "side.defenders"}
	for _, r := range []engine.Result{engine.AttackersWin, engine.DefendersWin, engine.Draw} {
		keys = append(keys, "result."+r.String())
	}
	// the reasons the referee records: the engine's game ends, and
	// resignation and agreed draws (RULES.md §1.6, §1.7)
	for _, r := range catalog.BoardReasons {
		keys = append(keys, "reason."+r.String(), "board.reason."+r.String())
	}
	keys = append(keys, "reason.resignation", "reason.draw agreed", "reason.timeout")
	for _, s := range []archive.GameStatus{archive.Invited, archive.Active, archive.Finished, archive.Declined} {
		keys = append(keys, "status."+string(s))
	}
	for _, v := range engine.Variants() {
		keys = append(keys, "summary."+v.Name)
		if _, ok := catalog.Lookup(referee.English, "title."+v.Name); ok {
			keys = append(keys, "title."+v.Name)
		}
	}
	for _, p := range []engine.Piece{engine.Attacker, engine.Defender, engine.King} {
		keys = append(keys, "piece."+p.String(), "piece.a."+p.String())
	}
	for _, e := range referee.HelpEntries {
		keys = append(keys, e.Key+".usage")
		if _, ok := catalog.Lookup(referee.English, e.Key+".what"); ok {
			keys = append(keys, e.Key+".what")
		}
	}
	for _, k := range referee.HelpTopics {
		keys = append(keys, k)
	}
	for _, k := range referee.SyntaxPhrases {
		keys = append(keys, k)
	}
	for _, m := range referee.SyntaxMessages {
		keys = append(keys, m.Key)
	}
	return keys
}

// literalKeys returns the keys the referee's code passes to tr and the
// makers of refusals as string literals, with their positions, and every
// string literal of that code. The code is the package's and that of
// internal/catalog but its catalogues, whose keys are no use of them;
// there the lookups are Text, TextN and Counted, as the package's own
// calls or as catalog.Text… from here.
func literalKeys(t *testing.T) (keys map[string]string, literals map[string]bool) {
	t.Helper()
	fset, files := packageFiles(t, nil)
	code := parseDir(t, fset, filepath.Join("internal", "catalog"), func(name string) bool { return !catalogueData(name) })
	if len(code) == 0 {
		t.Fatal("found no code in internal/catalog; is the scan broken?")
	}
	files = append(files, code...)
	keys, literals = map[string]string{}, map[string]bool{}
	lookup := func(name string) (arg int, prefix string) {
		switch name {
		case "Tr", "Trn", "Text", "TextN":
			return 1, ""
		case "Counted": // Counted(lang, "games", n): key "count.games"
			return 1, "count."
		}
		return -1, ""
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
					literals[s] = true
				}
			case *ast.CallExpr:
				arg, prefix := -1, ""
				switch fun := n.Fun.(type) {
				case *ast.Ident:
					arg, prefix = lookup(fun.Name)
					if i, ok := refusalKeyArgs[fun.Name]; ok {
						arg = i // conditionRefusal (refusal_test.go)
					}
				case *ast.SelectorExpr:
					if i, ok := refusalKeyArgs[fun.Sel.Name]; ok {
						arg = i // Refuse, Refusen, RefusalOf (refusal_test.go)
					}
					if x, ok := fun.X.(*ast.Ident); ok && (x.Name == "catalog" || x.Name == "referee") {
						arg, prefix = lookup(fun.Sel.Name)
					}
				}
				if arg >= 0 && arg < len(n.Args) {
					if lit, ok := n.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						keys[prefix+s] = fset.Position(lit.Pos()).String()
						literals[prefix+s] = true
					}
				}
			}
			return true
		})
	}
	return keys, literals
}

// catalogueData reports whether a file of internal/catalog is one of its
// catalogues, named by its language: en.go, de.go, consent_en.go, ….
func catalogueData(name string) bool {
	base := strings.TrimSuffix(name, ".go")
	lang := base[strings.LastIndex(base, "_")+1:]
	return lang == referee.English || lang == referee.German
}

// TestCatalogKeysUsed: every key the code asks for is in the catalogue,
// and every key of the catalogue is asked for, literally or as one of the
// dynamicKeys.
func TestCatalogKeysUsed(t *testing.T) {
	keys, literals := literalKeys(t)
	if len(keys) < 50 {
		t.Fatalf("found only %d literal keys in the code; is the scan broken?", len(keys))
	}
	for k, pos := range keys {
		if _, ok := catalog.Lookup(referee.English, k); !ok {
			t.Errorf("%s: key %q is not in the catalogue", pos, k)
		}
	}
	used := map[string]bool{}
	for _, k := range dynamicKeys() {
		if _, ok := catalog.Lookup(referee.English, k); !ok {
			t.Errorf("key %q, built from data, is not in the catalogue", k)
		}
		used[k] = true
	}
	for _, k := range catalog.Keys(referee.English) {
		if one, ok := strings.CutSuffix(k, ".one"); ok && (used[one] || literals[one]) {
			continue // the singular of a key trn is given
		}
		if zero, ok := strings.CutSuffix(k, ".zero"); ok && (used[zero] || literals[zero]) {
			continue // the form for none of a key trn is given
		}
		if !used[k] && !literals[k] {
			t.Errorf("key %q is in the catalogue but nothing uses it", k)
		}
	}
}

// Issue 22 §4: the texts that take counted nouns read right for one thing
// of each kind, as their callers write them.
func TestTwoCountPhrases(t *testing.T) {
	tm := &archive.Tournament{ID: "cup", Name: "Cup"}
	one := []*tournament.Standings{{Rows: []tournament.Standing{{Player: "a@x", Points: 1, Played: 1, Games: 1, Place: 1}}}}
	if got := tournaments.StandingLine(referee.English, tm, one, "a@x"); !strings.Contains(got, "you have 1 point from 1 of your 1 game,") {
		t.Errorf("English standing for one game: %q", got)
	}
	if got := tournaments.StandingLine(referee.German, tm, one, "a@x"); !strings.Contains(got, "du hast 1 Punkt aus 1 deiner 1 Partie,") {
		t.Errorf("German standing for one game: %q", got)
	}
	one[0].Rows[0].Points, one[0].Rows[0].Games = 0.5, 2
	if got := tournaments.StandingLine(referee.English, tm, one, "a@x"); !strings.Contains(got, "you have ½ points from 1 of your 2 games,") {
		t.Errorf("English standing for half a point: %q", got)
	}
	for lang, want := range map[string]string{referee.English: "starts now: 2 players, 1 game, all", referee.German: "beginnt jetzt: 2 Spieler, 1 Partie, alle"} {
		if got := referee.Tr(lang, "start.intro", "Cup", "cup", referee.Counted(lang, "players", 2), referee.Counted(lang, "games", 1)); !strings.Contains(got, want) {
			t.Errorf("%s start.intro: %q, want %q in it", lang, got, want)
		}
	}
	for lang, want := range map[string]string{referee.English: "1 day given back. You have 1 leave day left in 2027.",
		referee.German: "1 Tag zurückgegeben. Du hast noch 1 Urlaubstag im Jahr 2027."} {
		if got := referee.Tr(lang, "leave.cancelled", referee.Counted(lang, "days", 1), referee.Counted(lang, "leavedays", 1), 2027); !strings.Contains(got, want) {
			t.Errorf("%s leave.cancelled: %q, want %q in it", lang, got, want)
		}
	}
	for lang, want := range map[string]string{referee.English: "having finished 0 of your 1 game,", referee.German: "nachdem du 0 deiner 1 Partie beendet"} {
		if got := referee.Tr(lang, "withdraw.what.annulled", "Cup", 0, referee.Counted(lang, "games", 1)); !strings.Contains(got, want) {
			t.Errorf("%s withdraw.what.annulled: %q, want %q in it", lang, got, want)
		}
	}
	st := &tournament.Standings{Event: "Cup", Games: 1}
	for lang, want := range map[string]string{referee.English: "0 of 1 game finished.", referee.German: "0 von 1 Partie beendet."} {
		if got := st.TextIn(tournaments.CrosstableLabels(lang)); !strings.Contains(got, want) {
			t.Errorf("%s crosstable of one game:\n%s\nwant %q in it", lang, got, want)
		}
	}
}
