package server

import (
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// fmtVerbs returns the verbs of a fmt format in order ("%-10s vs %d" →
// "s", "d"); "%%" is no verb.
func fmtVerbs(format string) []string {
	var out []string
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] != '%' {
			out = append(out, string(format[i]))
		}
	}
	return out
}

func TestFmtVerbs(t *testing.T) {
	for format, want := range map[string]string{
		"%s  %-10s vs %-28s %s": "s s s s",
		"100%% sure, %d×%d":     "d d",
		"%q is not a side":      "q",
		"no verbs":              "",
	} {
		if got := strings.Join(fmtVerbs(format), " "); got != want {
			t.Errorf("fmtVerbs(%q) = %q, want %q", format, got, want)
		}
	}
}

// sameInBothLanguages are the keys whose text is no language: a German
// text equal to its English one is otherwise an untranslated copy.
var sameInBothLanguages = map[string]bool{"help.move.usage": true}

// TestCatalogs: the English and the German catalogue have the same keys,
// and the two texts of a key the same fmt verbs in the same order; no text
// is empty, none left untranslated.
func TestCatalogs(t *testing.T) {
	for key, en := range catalogEN {
		de, ok := catalogDE[key]
		if !ok {
			t.Errorf("key %q is in catalog_en.go but not in catalog_de.go", key)
			continue
		}
		if en == "" || de == "" {
			t.Errorf("key %q has an empty text", key)
		}
		if en == de && !sameInBothLanguages[key] {
			t.Errorf("key %q: the German text is the English one: %q", key, en)
		}
		if ve, vd := fmtVerbs(en), fmtVerbs(de); !slices.Equal(ve, vd) {
			t.Errorf("key %q: the English text has the verbs %v, the German %v\n en: %q\n de: %q", key, ve, vd, en, de)
		}
	}
	for key := range catalogDE {
		if _, ok := catalogEN[key]; !ok {
			t.Errorf("key %q is in catalog_de.go but not in catalog_en.go", key)
		}
	}
}

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
	for _, r := range boardReasons {
		keys = append(keys, "reason."+r.String(), "board.reason."+r.String())
	}
	keys = append(keys, "reason.resignation", "reason.draw agreed", "reason.timeout")
	for _, s := range []archive.GameStatus{archive.Invited, archive.Active, archive.Finished, archive.Declined} {
		keys = append(keys, "status."+string(s))
	}
	for _, v := range engine.Variants() {
		keys = append(keys, "summary."+v.Name)
		if _, ok := catalogEN["title."+v.Name]; ok {
			keys = append(keys, "title."+v.Name)
		}
	}
	for _, p := range []engine.Piece{engine.Attacker, engine.Defender, engine.King} {
		keys = append(keys, "piece."+p.String(), "piece.a."+p.String())
	}
	for _, e := range helpEntries {
		keys = append(keys, e.key+".usage")
		if _, ok := catalogEN[e.key+".what"]; ok {
			keys = append(keys, e.key+".what")
		}
	}
	for _, k := range helpTopics {
		keys = append(keys, k)
	}
	for _, k := range syntaxPhrases {
		keys = append(keys, k)
	}
	for _, m := range syntaxMessages {
		keys = append(keys, m.key)
	}
	return keys
}

// literalKeys returns the keys the package's code (the catalogues aside)
// passes to tr and the makers of refusals as string literals, with their positions, and
// every string literal of that code.
func literalKeys(t *testing.T) (keys map[string]string, literals map[string]bool) {
	t.Helper()
	// the catalogues' own keys are no use of them
	fset, files := packageFiles(t, func(name string) bool { return !strings.HasPrefix(name, "catalog_") })
	keys, literals = map[string]string{}, map[string]bool{}
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
					if fun.Name == "tr" || fun.Name == "trn" {
						arg = 1
					}
					if fun.Name == "counted" { // counted(lang, "games", n): key "count.games"
						arg, prefix = 1, "count."
					}
				case *ast.SelectorExpr:
					if i, ok := refusalKeyArgs[fun.Sel.Name]; ok {
						arg = i // refuse, refusen, refusalOf, conditionRefusal (refusal_test.go)
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

// TestCatalogKeysUsed: every key the code asks for is in the catalogue,
// and every key of the catalogue is asked for, literally or as one of the
// dynamicKeys.
func TestCatalogKeysUsed(t *testing.T) {
	keys, literals := literalKeys(t)
	if len(keys) < 50 {
		t.Fatalf("found only %d literal keys in the code; is the scan broken?", len(keys))
	}
	for k, pos := range keys {
		if _, ok := catalogEN[k]; !ok {
			t.Errorf("%s: key %q is not in the catalogue", pos, k)
		}
	}
	used := map[string]bool{}
	for _, k := range dynamicKeys() {
		if _, ok := catalogEN[k]; !ok {
			t.Errorf("key %q, built from data, is not in the catalogue", k)
		}
		used[k] = true
	}
	for k := range catalogEN {
		if one, ok := strings.CutSuffix(k, ".one"); ok && (used[one] || literals[one]) {
			continue // the singular of a key trn is given
		}
		if !used[k] && !literals[k] {
			t.Errorf("key %q is in the catalogue but nothing uses it", k)
		}
	}
}

// TestCatalogEnglishIsTheSources: where the English catalogue repeats words
// other packages own, it repeats them exactly, so English replies read as
// the engine and notation write: the variant summaries are
// engine.Variant.Summary, and the board words draw the same diagram as
// notation's defaults.
func TestCatalogEnglishIsTheSources(t *testing.T) {
	for _, v := range engine.Variants() {
		if got := tr(english, "summary."+v.Name); got != v.Summary {
			t.Errorf("summary.%s = %q, want the engine's %q", v.Name, got, v.Summary)
		}
		if got := variantSummary(german, v); got == v.Summary {
			t.Errorf("variant %s has no German summary", v.Name)
		}
		if got := variantTitle(english, v); got != v.Title {
			t.Errorf("title.%s = %q, want the engine's %q", v.Name, got, v.Title)
		}
		// a title with words in brackets holds English words, but for
		// Brandubh's, which are a name
		if got := variantTitle(german, v); strings.Contains(v.Title, "(") && v.Name != "brandubh" && got == v.Title {
			t.Errorf("variant %s has no German title", v.Name)
		}
	}
	got, want := diagramWords(english), notation.EnglishDiagramWords()
	for _, r := range boardReasons {
		if got.Reasons[r] != r.String() {
			t.Errorf("board.reason.%s = %q, want %q", r, got.Reasons[r], r.String())
		}
	}
	got.Reasons = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("English board words differ from notation's:\n got %+v\nwant %+v", got, want)
	}
}

// TestIllegalReasons: the English reason for every kind of illegal move is
// the engine's own text, and the German one is a translation with the same
// squares.
func TestIllegalReasons(t *testing.T) {
	m := engine.Move{From: engine.SquareAt(3, 0), To: engine.SquareAt(3, 3)}
	at := engine.SquareAt(3, 1)
	for r := engine.IllegalGameOver; r <= engine.IllegalRestrictedPass; r++ {
		for _, p := range []engine.Piece{engine.Attacker, engine.Defender, engine.King} {
			e := &engine.IllegalMoveError{Move: m, Reason: r, At: at, Piece: p}
			want := strings.TrimPrefix(e.Error(), "engine: d1-d4: ")
			if got := illegalReason(english, e); got != want {
				t.Errorf("reason %d, %v: English %q, want the engine's %q", r, p, got, want)
			}
			de := illegalReason(german, e)
			if de == want || strings.Contains(de, "%!") {
				t.Errorf("reason %d, %v: German %q", r, p, de)
			}
			if strings.Contains(want, "d2") && !strings.Contains(de, "d2") {
				t.Errorf("reason %d, %v: German %q lacks the square of %q", r, p, de, want)
			}
		}
	}
}

// Issue 22 §4: a counted phrase reads in the singular for one thing and
// in the plural for more, in both languages.
func TestCountedPhrases(t *testing.T) {
	cases := []struct {
		key      string
		args     func(n int) []any
		one, two map[string]string
	}{
		{"join.done", func(n int) []any { return []any{"Cup", "d1", "d2", n} },
			map[string]string{english: "1 player so far", german: "Bisher 1 Spieler"},
			map[string]string{english: "2 players so far", german: "Bisher 2 Spieler"}},
		{"tournaments.open", func(n int) []any { return []any{"tablut", "3d", "d1", "d2", n, "cup"} },
			map[string]string{english: "1 player so far", german: "bisher 1 Spieler"},
			map[string]string{english: "2 players so far", german: "bisher 2 Spieler"}},
		{"tournament.cancelled", func(n int) []any { return []any{"Cup", n, 3} },
			map[string]string{english: "1 player entered", german: "1 Spieler hat sich"},
			map[string]string{english: "2 players entered", german: "2 Spieler haben sich"}},
		{"rating.line", func(n int) []any { return []any{1500.0, 300.0, 0.06, n, "d1"} },
			map[string]string{english: "1 rated game,", german: "1 gewertete Partie,"},
			map[string]string{english: "2 rated games,", german: "2 gewertete Partien,"}},
		{"rating.variant", func(n int) []any { return []any{"Tablut", 1500.0, 300.0, 0.06, n} },
			map[string]string{english: "1 rated game.", german: "1 gewertete Partie."},
			map[string]string{english: "2 rated games.", german: "2 gewertete Partien."}},
		{"rating.after", func(n int) []any { return []any{"Tablut", 1500.0, 300.0, n} },
			map[string]string{english: "after 1 rated game.", german: "nach 1 gewerteten Partie."},
			map[string]string{english: "after 2 rated games.", german: "nach 2 gewerteten Partien."}},
		{"games.more", func(n int) []any { return []any{n} },
			map[string]string{english: "1 earlier finished game)", german: "1 frühere beendete Partie)"},
			map[string]string{english: "2 earlier finished games)", german: "2 frühere beendete Partien)"}},
		{"digest.more", func(n int) []any { return []any{n} },
			map[string]string{english: "1 more game awaits your move; it does", german: "1 weitere Partie wartet"},
			map[string]string{english: "2 more games await your move; they do", german: "2 weitere Partien warten"}},
		{"invite.leave", func(n int) []any { return []any{n} },
			map[string]string{english: "take 1 day a year", german: "1 Tag im Jahr"},
			map[string]string{english: "take 2 days a year", german: "2 Tage im Jahr"}},
		{"leave.left", func(n int) []any { return []any{0, n, 2027} },
			map[string]string{english: "0 of your 1 leave day left", german: "0 von 1 Urlaubstag im"},
			map[string]string{english: "0 of your 2 leave days left", german: "0 von 2 Urlaubstagen im"}},
		{"leave.year", func(n int) []any { return []any{n, 2027} },
			map[string]string{english: "1 day left in 2027", german: "noch 1 Tag im Jahr"},
			map[string]string{english: "2 days left in 2027", german: "noch 2 Tage im Jahr"}},
		{"err.engine.games", func(n int) []any { return []any{n, "K7QX2M", n} },
			map[string]string{english: "playing 1 game against", german: "schon 1 Partie gegen"},
			map[string]string{english: "playing 2 games against", german: "schon 2 Partien gegen"}},
		{"err.engine.busy", func(n int) []any { return []any{3, n, 3} },
			map[string]string{english: "the 1 running game at level 3 or below needs", german: "die 1 laufende Partie auf Stufe 3 oder darunter braucht"},
			map[string]string{english: "the 2 running games at level 3 or below need", german: "die 2 laufenden Partien auf Stufe 3 oder darunter brauchen"}},
		{"err.engine.cap", func(n int) []any { return []any{n} },
			map[string]string{english: "plays 1 game already", german: "spielt schon 1 Partie,"},
			map[string]string{english: "plays 2 games already", german: "spielt schon 2 Partien,"}},
		{"quote.length", func(n int) []any { return []any{n} },
			map[string]string{english: "(1 character)", german: "(1 Zeichen)"},
			map[string]string{english: "(2 characters)", german: "(2 Zeichen)"}},
		{"tournament.leave", func(n int) []any { return []any{n} },
			map[string]string{english: "up to 1 day a year counts", german: "bis zu 1 Tag im Jahr zählt"},
			map[string]string{english: "up to 2 days a year count", german: "bis zu 2 Tage im Jahr zählen"}},
		{"tournament.final", func(n int) []any { return []any{"Cup", n} },
			map[string]string{english: "its 1 game has ended", german: "seine 1 Partie ist zu Ende"},
			map[string]string{english: "all 2 games have ended", german: "alle 2 Partien sind zu Ende"}},
		{"tournament.records.attached", func(n int) []any { return []any{n, "cup.tafl"} },
			map[string]string{english: "The record of its 1 game is attached", german: "Die Aufzeichnung seiner 1 Partie hängt an"},
			map[string]string{english: "The records of all 2 games are attached", german: "Die Aufzeichnungen aller 2 Partien hängen an"}},
		{"start.group", func(n int) []any { return []any{1, 2, n} },
			map[string]string{english: "group 1 of 2 (1 player)", german: "Gruppe 1 von 2 (1 Spieler)"},
			map[string]string{english: "group 1 of 2 (2 players)", german: "Gruppe 1 von 2 (2 Spieler)"}},
		{"start.list", func(n int) []any { return []any{n} },
			map[string]string{english: "Your 1 game:", german: "Deine 1 Partie:"},
			map[string]string{english: "Your 2 games:", german: "Deine 2 Partien:"}},
		{"start.watch.list", func(n int) []any { return []any{n} },
			map[string]string{english: "Its 1 game, running", german: "Seine 1 Partie, ab jetzt"},
			map[string]string{english: "Its 2 games, all running", german: "Seine 2 Partien, alle ab jetzt"}},
		{"start.watch.more", func(n int) []any { return []any{n, "cup"} },
			map[string]string{english: "and 1 more game;", german: "und 1 weitere Partie;"},
			map[string]string{english: "and 2 more games;", german: "und 2 weitere Partien;"}},
		{"err.join.full", func(n int) []any { return []any{"Cup", n} },
			map[string]string{english: "at most 1 player.", german: "höchstens 1 Spieler auf"},
			map[string]string{english: "at most 2 players.", german: "höchstens 2 Spieler auf"}},
		{"crosstable.finished", func(n int) []any { return []any{0, n} },
			map[string]string{english: "0 of 1 game finished.", german: "0 von 1 Partie beendet."},
			map[string]string{english: "0 of 2 games finished.", german: "0 von 2 Partien beendet."}},
		{"rating.more", func(n int) []any { return []any{n} },
			map[string]string{english: "(and 1 earlier game)", german: "(und 1 frühere Partie)"},
			map[string]string{english: "(and 2 earlier games)", german: "(und 2 frühere Partien)"}},
	}
	for _, c := range cases {
		for _, lang := range []string{english, german} {
			if got := trn(lang, c.key, 1, c.args(1)...); !strings.Contains(got, c.one[lang]) {
				t.Errorf("%s %s for 1: %q, want %q in it", lang, c.key, got, c.one[lang])
			}
			if got := trn(lang, c.key, 2, c.args(2)...); !strings.Contains(got, c.two[lang]) {
				t.Errorf("%s %s for 2: %q, want %q in it", lang, c.key, got, c.two[lang])
			}
		}
	}
}

// Issue 22 §4: a text with two counts writes each with counted, in the
// singular for one, and a score has "point" in the singular only for
// exactly 1.
func TestCountedNouns(t *testing.T) {
	for _, c := range []struct {
		lang, noun string
		n          int
		want       string
	}{
		{english, "days", 1, "1 day"}, {english, "days", 2, "2 days"}, {english, "days", 0, "0 days"},
		{german, "days", 1, "1 Tag"}, {german, "days", 2, "2 Tage"},
		{english, "leavedays", 1, "1 leave day"}, {english, "leavedays", 3, "3 leave days"},
		{german, "leavedays", 1, "1 Urlaubstag"}, {german, "leavedays", 3, "3 Urlaubstage"},
		{english, "games", 1, "1 game"}, {english, "games", 6, "6 games"},
		{german, "games", 1, "1 Partie"}, {german, "games", 6, "6 Partien"},
		{english, "players", 1, "1 player"}, {english, "players", 4, "4 players"},
		{german, "players", 1, "1 Spieler"}, {german, "players", 4, "4 Spieler"},
	} {
		if got := counted(c.lang, c.noun, c.n); got != c.want {
			t.Errorf("counted(%s, %s, %d) = %q, want %q", c.lang, c.noun, c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		points float64
		en, de string
	}{
		{1, "1 point", "1 Punkt"}, {0, "0 points", "0 Punkte"}, {0.5, "½ points", "½ Punkte"},
		{1.5, "1½ points", "1½ Punkte"}, {2, "2 points", "2 Punkte"},
	} {
		if got := countedPoints(english, c.points); got != c.en {
			t.Errorf("countedPoints(en, %v) = %q, want %q", c.points, got, c.en)
		}
		if got := countedPoints(german, c.points); got != c.de {
			t.Errorf("countedPoints(de, %v) = %q, want %q", c.points, got, c.de)
		}
	}
}

// Issue 22 §4: the texts that take counted nouns read right for one thing
// of each kind, as their callers write them.
func TestTwoCountPhrases(t *testing.T) {
	tm := &archive.Tournament{ID: "cup", Name: "Cup"}
	one := []*tournament.Standings{{Rows: []tournament.Standing{{Player: "a@x", Points: 1, Played: 1, Games: 1, Place: 1}}}}
	if got := standingLine(english, tm, one, "a@x"); !strings.Contains(got, "you have 1 point from 1 of your 1 game,") {
		t.Errorf("English standing for one game: %q", got)
	}
	if got := standingLine(german, tm, one, "a@x"); !strings.Contains(got, "du hast 1 Punkt aus 1 deiner 1 Partie,") {
		t.Errorf("German standing for one game: %q", got)
	}
	one[0].Rows[0].Points, one[0].Rows[0].Games = 0.5, 2
	if got := standingLine(english, tm, one, "a@x"); !strings.Contains(got, "you have ½ points from 1 of your 2 games,") {
		t.Errorf("English standing for half a point: %q", got)
	}
	for lang, want := range map[string]string{english: "starts now: 2 players, 1 game, all", german: "beginnt jetzt: 2 Spieler, 1 Partie, alle"} {
		if got := tr(lang, "start.intro", "Cup", "cup", counted(lang, "players", 2), counted(lang, "games", 1)); !strings.Contains(got, want) {
			t.Errorf("%s start.intro: %q, want %q in it", lang, got, want)
		}
	}
	for lang, want := range map[string]string{english: "1 day given back. You have 1 leave day left in 2027.",
		german: "1 Tag zurückgegeben. Du hast noch 1 Urlaubstag im Jahr 2027."} {
		if got := tr(lang, "leave.cancelled", counted(lang, "days", 1), counted(lang, "leavedays", 1), 2027); !strings.Contains(got, want) {
			t.Errorf("%s leave.cancelled: %q, want %q in it", lang, got, want)
		}
	}
	for lang, want := range map[string]string{english: "having finished 0 of your 1 game,", german: "nachdem du 0 deiner 1 Partie beendet"} {
		if got := tr(lang, "withdraw.what.annulled", "Cup", 0, counted(lang, "games", 1)); !strings.Contains(got, want) {
			t.Errorf("%s withdraw.what.annulled: %q, want %q in it", lang, got, want)
		}
	}
	st := &tournament.Standings{Event: "Cup", Games: 1}
	for lang, want := range map[string]string{english: "0 of 1 game finished.", german: "0 von 1 Partie beendet."} {
		if got := st.TextIn(crosstableLabels(lang)); !strings.Contains(got, want) {
			t.Errorf("%s crosstable of one game:\n%s\nwant %q in it", lang, got, want)
		}
	}
}
