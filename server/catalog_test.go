package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
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
// passes to tr and refuse as string literals, with their positions, and
// every string literal of that code.
func literalKeys(t *testing.T) (keys map[string]string, literals map[string]bool) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	keys, literals = map[string]string{}, map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "catalog_") {
			continue // the catalogues' own keys are no use of them
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
					literals[s] = true
				}
			case *ast.CallExpr:
				arg := -1
				switch fun := n.Fun.(type) {
				case *ast.Ident:
					if fun.Name == "tr" || fun.Name == "trn" {
						arg = 1
					}
				case *ast.SelectorExpr:
					if fun.Sel.Name == "refuse" {
						arg = 0
					}
				}
				if arg >= 0 && arg < len(n.Args) {
					if lit, ok := n.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						keys[s] = fset.Position(lit.Pos()).String()
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
