package catalog

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// fmtVerbs returns the verbs of a fmt format in order ("%-10s vs %d" →
// "s", "d"); "%%" is no verb. They are SplitFormat's.
func fmtVerbs(format string) []string {
	var out []string
	_, verbs := SplitFormat(format)
	for _, v := range verbs {
		out = append(out, string(v))
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

// TestSplitFormat: the fixed text around the verbs, as fmt prints it,
// and the verbs, argument indexes and flags read as fmt reads them.
func TestSplitFormat(t *testing.T) {
	for _, c := range []struct {
		format, fixed, verbs string
	}{
		{"Leave taken: %s. You have %-3d%%.", `"Leave taken: " ". You have " "%."`, "sd"},
		{"Group %[2]d", `"Group " ""`, "d"},
		{"100%% sure", `"100% sure"`, ""},
		{"%5.1f×%*d", `"" "×" ""`, "fd"},
		{"ends in %", `"ends in %"`, ""},
	} {
		fixed, verbs := SplitFormat(c.format)
		var quoted []string
		for _, f := range fixed {
			quoted = append(quoted, strconv.Quote(f))
		}
		if got := strings.Join(quoted, " "); got != c.fixed || string(verbs) != c.verbs {
			t.Errorf("SplitFormat(%q) = %s, %q; want %s, %q", c.format, got, string(verbs), c.fixed, c.verbs)
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
			t.Errorf("key %q is in the English catalogue but not in the German", key)
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
			t.Errorf("key %q is in the German catalogue but not in the English", key)
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
		if got := Text(English, "summary."+v.Name); got != v.Summary {
			t.Errorf("summary.%s = %q, want the engine's %q", v.Name, got, v.Summary)
		}
		if got := VariantSummary(German, v); got == v.Summary {
			t.Errorf("variant %s has no German summary", v.Name)
		}
		if got := VariantTitle(English, v); got != v.Title {
			t.Errorf("title.%s = %q, want the engine's %q", v.Name, got, v.Title)
		}
		// a title with words in brackets holds English words, but for
		// Brandubh's, which are a name
		if got := VariantTitle(German, v); strings.Contains(v.Title, "(") && v.Name != "brandubh" && got == v.Title {
			t.Errorf("variant %s has no German title", v.Name)
		}
	}
	got, want := DiagramWords(English), notation.EnglishDiagramWords()
	for _, r := range BoardReasons {
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
			if got := IllegalReason(English, e); got != want {
				t.Errorf("reason %d, %v: English %q, want the engine's %q", r, p, got, want)
			}
			de := IllegalReason(German, e)
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
// in the plural for more, in both languages; for none it writes no stray
// argument, and the tournament's leave days are not "up to 0" (outside
// trial §15).
func TestCountedPhrases(t *testing.T) {
	cases := []struct {
		key      string
		args     func(n int) []any
		one, two map[string]string
	}{
		{"join.done", func(n int) []any { return []any{"Cup", "d1", "d2", n} },
			map[string]string{English: "1 player so far", German: "Bisher 1 Spieler"},
			map[string]string{English: "2 players so far", German: "Bisher 2 Spieler"}},
		{"tournaments.open", func(n int) []any { return []any{"tablut", "3d", "d1", "d2", n, "cup"} },
			map[string]string{English: "1 player so far", German: "bisher 1 Spieler"},
			map[string]string{English: "2 players so far", German: "bisher 2 Spieler"}},
		{"tournament.cancelled", func(n int) []any { return []any{"Cup", n, 3} },
			map[string]string{English: "1 player entered", German: "1 Spieler hat sich"},
			map[string]string{English: "2 players entered", German: "2 Spieler haben sich"}},
		{"rating.line", func(n int) []any { return []any{1500.0, 300.0, 0.06, n, "d1"} },
			map[string]string{English: "1 rated game,", German: "1 gewertete Partie,"},
			map[string]string{English: "2 rated games,", German: "2 gewertete Partien,"}},
		{"rating.variant", func(n int) []any { return []any{"Tablut", 1500.0, 300.0, 0.06, n} },
			map[string]string{English: "1 rated game.", German: "1 gewertete Partie."},
			map[string]string{English: "2 rated games.", German: "2 gewertete Partien."}},
		{"rating.after", func(n int) []any { return []any{"Tablut", 1500.0, 300.0, n} },
			map[string]string{English: "after 1 rated game.", German: "nach 1 gewerteten Partie."},
			map[string]string{English: "after 2 rated games.", German: "nach 2 gewerteten Partien."}},
		{"games.more", func(n int) []any { return []any{n} },
			map[string]string{English: "1 earlier finished game)", German: "1 frühere beendete Partie)"},
			map[string]string{English: "2 earlier finished games)", German: "2 frühere beendete Partien)"}},
		{"digest.more", func(n int) []any { return []any{n} },
			map[string]string{English: "1 more game awaits your move; it does", German: "1 weitere Partie wartet"},
			map[string]string{English: "2 more games await your move; they do", German: "2 weitere Partien warten"}},
		{"invite.leave", func(n int) []any { return []any{n} },
			map[string]string{English: "take 1 day a year", German: "1 Tag im Jahr"},
			map[string]string{English: "take 2 days a year", German: "2 Tage im Jahr"}},
		{"leave.left", func(n int) []any { return []any{0, n, 2027} },
			map[string]string{English: "0 of your 1 leave day left", German: "0 von 1 Urlaubstag im"},
			map[string]string{English: "0 of your 2 leave days left", German: "0 von 2 Urlaubstagen im"}},
		{"leave.year", func(n int) []any { return []any{n, 2027} },
			map[string]string{English: "1 day left in 2027", German: "noch 1 Tag im Jahr"},
			map[string]string{English: "2 days left in 2027", German: "noch 2 Tage im Jahr"}},
		{"err.engine.games", func(n int) []any { return []any{n, "K7QX2M", n} },
			map[string]string{English: "playing 1 game against", German: "schon 1 Partie gegen"},
			map[string]string{English: "playing 2 games against", German: "schon 2 Partien gegen"}},
		{"err.engine.busy", func(n int) []any { return []any{3, n, 3} },
			map[string]string{English: "the 1 running game at level 3 or below needs", German: "die 1 laufende Partie auf Stufe 3 oder darunter braucht"},
			map[string]string{English: "the 2 running games at level 3 or below need", German: "die 2 laufenden Partien auf Stufe 3 oder darunter brauchen"}},
		{"err.engine.cap", func(n int) []any { return []any{n} },
			map[string]string{English: "plays 1 game already", German: "spielt schon 1 Partie,"},
			map[string]string{English: "plays 2 games already", German: "spielt schon 2 Partien,"}},
		{"quote.length", func(n int) []any { return []any{n} },
			map[string]string{English: "(1 character)", German: "(1 Zeichen)"},
			map[string]string{English: "(2 characters)", German: "(2 Zeichen)"}},
		{"tournament.leave", func(n int) []any { return []any{n} },
			map[string]string{English: "up to 1 day a year counts", German: "bis zu 1 Tag im Jahr zählt"},
			map[string]string{English: "up to 2 days a year count", German: "bis zu 2 Tage im Jahr zählen"}},
		{"tournament.final", func(n int) []any { return []any{"Cup", n} },
			map[string]string{English: "its 1 game has ended", German: "seine 1 Partie ist zu Ende"},
			map[string]string{English: "all 2 games have ended (the standings leave annulled ones out)", German: "alle 2 Partien sind zu Ende (die Tabelle lässt annullierte aus)"}},
		{"tournament.records.attached", func(n int) []any { return []any{n, "cup.tafl"} },
			map[string]string{English: "The record of its 1 game is attached", German: "Die Aufzeichnung seiner 1 Partie hängt an"},
			map[string]string{English: "The records of all 2 games are attached", German: "Die Aufzeichnungen aller 2 Partien hängen an"}},
		{"tournament.records.unrated", func(n int) []any { return []any{n, "cup.tafl"} },
			map[string]string{English: "The record of its 1 game is attached", German: "Die Aufzeichnung seiner 1 Partie hängt an"},
			map[string]string{English: "The records of all 2 games are attached", German: "Die Aufzeichnungen aller 2 Partien hängen an"}},
		{"start.group", func(n int) []any { return []any{1, 2, n} },
			map[string]string{English: "group 1 of 2 (1 player)", German: "Gruppe 1 von 2 (1 Spieler)"},
			map[string]string{English: "group 1 of 2 (2 players)", German: "Gruppe 1 von 2 (2 Spieler)"}},
		{"start.list", func(n int) []any { return []any{n} },
			map[string]string{English: "Your 1 game:", German: "Deine 1 Partie:"},
			map[string]string{English: "Your 2 games:", German: "Deine 2 Partien:"}},
		{"start.watch.list", func(n int) []any { return []any{n} },
			map[string]string{English: "Its 1 game, running", German: "Seine 1 Partie, ab jetzt"},
			map[string]string{English: "Its 2 games, all running", German: "Seine 2 Partien, alle ab jetzt"}},
		{"start.watch.more", func(n int) []any { return []any{n, "cup"} },
			map[string]string{English: "and 1 more game;", German: "und 1 weitere Partie;"},
			map[string]string{English: "and 2 more games;", German: "und 2 weitere Partien;"}},
		{"err.join.full", func(n int) []any { return []any{"Cup", n} },
			map[string]string{English: "at most 1 player.", German: "höchstens 1 Spieler auf"},
			map[string]string{English: "at most 2 players.", German: "höchstens 2 Spieler auf"}},
		{"crosstable.finished", func(n int) []any { return []any{0, n} },
			map[string]string{English: "0 of 1 game finished.", German: "0 von 1 Partie beendet."},
			map[string]string{English: "0 of 2 games finished.", German: "0 von 2 Partien beendet."}},
		{"rating.more", func(n int) []any { return []any{n} },
			map[string]string{English: "(and 1 earlier game)", German: "(und 1 frühere Partie)"},
			map[string]string{English: "(and 2 earlier games)", German: "(und 2 frühere Partien)"}},
	}
	for _, c := range cases {
		for _, lang := range []string{English, German} {
			if got := TextN(lang, c.key, 0, c.args(0)...); strings.Contains(got, "%!") || c.key == "tournament.leave" && strings.Contains(got, " 0 ") {
				t.Errorf("%s %s for 0: %q", lang, c.key, got) // outside trial §15: "up to 0 days a year"
			}
			if got := TextN(lang, c.key, 1, c.args(1)...); !strings.Contains(got, c.one[lang]) {
				t.Errorf("%s %s for 1: %q, want %q in it", lang, c.key, got, c.one[lang])
			}
			if got := TextN(lang, c.key, 2, c.args(2)...); !strings.Contains(got, c.two[lang]) {
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
		{English, "days", 1, "1 day"}, {English, "days", 2, "2 days"}, {English, "days", 0, "0 days"},
		{German, "days", 1, "1 Tag"}, {German, "days", 2, "2 Tage"},
		{English, "leavedays", 1, "1 leave day"}, {English, "leavedays", 3, "3 leave days"},
		{German, "leavedays", 1, "1 Urlaubstag"}, {German, "leavedays", 3, "3 Urlaubstage"},
		{English, "games", 1, "1 game"}, {English, "games", 6, "6 games"},
		{German, "games", 1, "1 Partie"}, {German, "games", 6, "6 Partien"},
		{English, "players", 1, "1 player"}, {English, "players", 4, "4 players"},
		{German, "players", 1, "1 Spieler"}, {German, "players", 4, "4 Spieler"},
	} {
		if got := Counted(c.lang, c.noun, c.n); got != c.want {
			t.Errorf("Counted(%s, %s, %d) = %q, want %q", c.lang, c.noun, c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		points float64
		en, de string
	}{
		{1, "1 point", "1 Punkt"}, {0, "0 points", "0 Punkte"}, {0.5, "½ points", "½ Punkte"},
		{1.5, "1½ points", "1½ Punkte"}, {2, "2 points", "2 Punkte"},
	} {
		if got := CountedPoints(English, c.points); got != c.en {
			t.Errorf("CountedPoints(en, %v) = %q, want %q", c.points, got, c.en)
		}
		if got := CountedPoints(German, c.points); got != c.de {
			t.Errorf("CountedPoints(de, %v) = %q, want %q", c.points, got, c.de)
		}
	}
}

// TestLookups: Text falls back to English and then to the key, Lookup to
// nothing; Keys lists a catalogue sorted, and nothing for a language there
// is none of; KeyForCount picks a singular form only for one and only
// where there is one.
func TestLookups(t *testing.T) {
	if got := Text("fr", "greeting"); got != "Hello," {
		t.Errorf(`Text("fr", "greeting") = %q, want the English "Hello,"`, got)
	}
	if got := Text(German, "no.such.key", 1); got != "no.such.key" {
		t.Errorf("Text of a missing key = %q, want the key", got)
	}
	if got := Text(English, "err.join.full", "Cup", 4); got != "Cup is full: it takes at most 4 players." {
		t.Errorf("Text with args = %q", got)
	}
	if _, ok := Lookup("fr", "greeting"); ok {
		t.Error(`Lookup("fr", "greeting") found a text`)
	}
	if s, ok := Lookup(German, "greeting"); !ok || s != "Hallo," {
		t.Errorf(`Lookup(German, "greeting") = %q, %v`, s, ok)
	}
	en, de := Keys(English), Keys(German)
	if len(en) < 500 || !slices.IsSorted(en) || !slices.Equal(en, de) {
		t.Errorf("Keys: %d English, %d German, sorted %v", len(en), len(de), slices.IsSorted(en))
	}
	if Keys("fr") != nil {
		t.Error(`Keys("fr") is not nil`)
	}
	for _, c := range []struct {
		key  string
		n    int
		want string
	}{
		{"count.games", 1, "count.games.one"}, {"count.games", 0, "count.games"}, {"count.games", 2, "count.games"},
		{"greeting", 1, "greeting"},
		{"tournament.leave", 0, "tournament.leave.zero"}, {"tournament.leave", 1, "tournament.leave.one"}, {"tournament.leave", 30, "tournament.leave"},
	} {
		if got := KeyForCount(c.key, c.n); got != c.want {
			t.Errorf("KeyForCount(%q, %d) = %q, want %q", c.key, c.n, got, c.want)
		}
	}
}
