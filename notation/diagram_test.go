package notation

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// sq reads a square name such as "d1" (files a.., ranks from 1).
func sq(name string) engine.Square {
	rank := 0
	for _, c := range name[1:] {
		rank = rank*10 + int(c-'0')
	}
	return engine.SquareAt(int(name[0]-'a'), rank-1)
}

// brandubhAfter plays moves ("d1-e1") from Brandubh's start and returns the
// position and the last ply.
func brandubhAfter(t *testing.T, moves ...string) (*engine.Position, engine.PlyResult) {
	t.Helper()
	v, ok := engine.Lookup("brandubh")
	if !ok {
		t.Fatal("no brandubh")
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	var last engine.PlyResult
	for _, m := range moves {
		from, to, _ := strings.Cut(m, "-")
		if last, err = p.Play(engine.Move{From: sq(from), To: sq(to)}); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return p, last
}

// legend returns the lines of a diagram after its lower file letters.
func legend(t *testing.T, p *engine.Position, opts ...DiagramOption) string {
	t.Helper()
	var b strings.Builder
	if err := WriteASCII(&b, p, opts...); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	for i := len(lines) - 2; i > 0; i-- {
		if strings.HasPrefix(lines[i], "     a  b") {
			return strings.Join(lines[i+1:], "\n")
		}
	}
	t.Fatalf("no file letters under the board:\n%s", b.String())
	return ""
}

// TestDiagramWordsDefault: no words, empty words and the English words
// draw the same diagram, for a capture and for a finished game.
func TestDiagramWordsDefault(t *testing.T) {
	capture, capPly := brandubhAfter(t, "d1-e1", "d3-f3", "d2-f2")
	escaped, escPly := brandubhAfter(t, "d1-e1", "d3-e3", "d2-e2", "d4-d1", "e1-f1", "d1-a1")
	for name, c := range map[string]struct {
		p    *engine.Position
		last engine.PlyResult
	}{"capture": {capture, capPly}, "escape": {escaped, escPly}} {
		marks := []DiagramOption{WithLastMove(c.last.Move), WithCaptures(c.last.Captures...)}
		var plain, empty, english strings.Builder
		if err := WriteASCII(&plain, c.p, marks...); err != nil {
			t.Fatal(err)
		}
		if err := WriteASCII(&empty, c.p, append(marks, WithWords(DiagramWords{}))...); err != nil {
			t.Fatal(err)
		}
		if err := WriteASCII(&english, c.p, append(marks, WithWords(EnglishDiagramWords()))...); err != nil {
			t.Fatal(err)
		}
		if empty.String() != plain.String() || english.String() != plain.String() {
			t.Errorf("%s: the default words change the diagram:\n%s\n--- empty words\n%s\n--- English words\n%s", name, plain.String(), empty.String(), english.String())
		}
	}
	if got, want := legend(t, capture, WithLastMove(capPly.Move), WithCaptures(capPly.Captures...)),
		"  A attacker  D defender  K king  # corner\n  last ply d2-f2: () from, [] to  x captured\n  defenders to move\n"; got != want { // the king hides the throne
		t.Errorf("English legend =\n%s\nwant\n%s", got, want)
	}
}

// germanWords are legend words as a German reply writes them.
var germanWords = DiagramWords{
	Attacker: "Angreifer", Defender: "Verteidiger", King: "König", Throne: "Thron", Corner: "Ecke",
	LastPly:   "letzter Halbzug %s: %s Start, %s Ziel",
	Captured:  "%s geschlagen",
	ToMove:    "%s am Zug",
	Attackers: "Angreifer", Defenders: "Verteidiger",
	GameOver:     "Partie beendet: %s (%s)",
	AttackersWin: "Angreifer gewinnen", DefendersWin: "Verteidiger gewinnen", Draw: "remis",
	Reasons: map[engine.Reason]string{engine.ReasonEscape: "König entkommen"},
}

// TestDiagramWordsGerman: every legend line takes the caller's words, in
// ASCII and Unicode; the board itself does not change.
func TestDiagramWordsGerman(t *testing.T) {
	capture, capPly := brandubhAfter(t, "d1-e1", "d3-f3", "d2-f2")
	marks := []DiagramOption{WithLastMove(capPly.Move), WithCaptures(capPly.Captures...)}
	got := legend(t, capture, append(marks, WithWords(germanWords))...)
	want := "  A Angreifer  D Verteidiger  K König  # Ecke\n" + // the king hides the throne
		"  letzter Halbzug d2-f2: () Start, [] Ziel  x geschlagen\n" +
		"  Verteidiger am Zug\n"
	if got != want {
		t.Errorf("German legend =\n%s\nwant\n%s", got, want)
	}
	var en, de strings.Builder
	if err := WriteUnicode(&en, capture, marks...); err != nil {
		t.Fatal(err)
	}
	if err := WriteUnicode(&de, capture, append(marks, WithWords(germanWords))...); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(de.String(), "× geschlagen") || !strings.Contains(de.String(), "● Angreifer") {
		t.Errorf("Unicode legend does not take the words:\n%s", de.String())
	}
	board := func(s string) string { return s[:strings.Index(s, "\n  ● ")] }
	if board(en.String()) != board(de.String()) {
		t.Errorf("the words changed the board itself:\n%s\n---\n%s", en.String(), de.String())
	}

	escaped, escPly := brandubhAfter(t, "d1-e1", "d3-e3", "d2-e2", "d4-d1", "e1-f1", "d1-a1")
	got = legend(t, escaped, WithLastMove(escPly.Move), WithWords(germanWords))
	if !strings.HasPrefix(got, "  A Angreifer  D Verteidiger  K König  + Thron  # Ecke\n") || !strings.HasSuffix(got, "  Partie beendet: Verteidiger gewinnen (König entkommen)\n") {
		t.Errorf("German legend with the throne, and game-over line:\n%s", got)
	}
	// A reason missing from Reasons falls back to the engine's name; empty
	// fields to the English words.
	partial := DiagramWords{ToMove: "%s am Zug", GameOver: "Partie beendet: %s (%s)"}
	got = legend(t, escaped, WithWords(partial))
	if !strings.HasSuffix(got, "  A attacker  D defender  K king  + throne  # corner\n  Partie beendet: defenders win (escape)\n") {
		t.Errorf("partial words:\n%s", got)
	}
}

// lastLine returns the last line of a diagram.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestDiagramStatusLine: the last line names the side to move while the
// game runs, and how it ended when WithOutcome says so (a resignation or
// an agreed draw leaves no trace on the board, RULES.md §1.7).
func TestDiagramStatusLine(t *testing.T) {
	p, res := brandubhAfter(t, "d1-e1")
	for _, tc := range []struct {
		name string
		opts []DiagramOption
		want string
	}{
		{"running", nil, "  defenders to move"},
		{"running, zero outcome", []DiagramOption{WithOutcome(engine.Outcome{})}, "  defenders to move"},
		{"resigned", []DiagramOption{WithOutcome(engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonResignation, Ply: 2})},
			"  game over: attackers win (resignation)"},
		{"agreed draw", []DiagramOption{WithLastMove(res.Move), WithOutcome(engine.Outcome{Result: engine.Draw, Reason: engine.ReasonDrawAgreed, Ply: 1})},
			"  game over: draw (draw agreed)"},
		{"timeout", []DiagramOption{WithOutcome(engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonTimeout, Ply: 1})},
			"  game over: defenders win (timeout)"},
	} {
		for name, write := range map[string]func(*strings.Builder) error{
			"WriteASCII":   func(b *strings.Builder) error { return WriteASCII(b, p, tc.opts...) },
			"WriteUnicode": func(b *strings.Builder) error { return WriteUnicode(b, p, tc.opts...) },
		} {
			var b strings.Builder
			if err := write(&b); err != nil {
				t.Fatalf("%s = %v", name, err)
			}
			if got := lastLine(b.String()); got != tc.want {
				t.Errorf("%s, %s: last line = %q, want %q", tc.name, name, got, tc.want)
			}
			if strings.Contains(b.String(), "to move") != !strings.HasPrefix(tc.want, "  game over") {
				t.Errorf("%s, %s: diagram names a side to move after the game ended:\n%s", tc.name, name, b.String())
			}
		}
	}
}

func TestSettings(t *testing.T) {
	_, res := brandubhAfter(t, "d1-e1")
	c1, c2 := engine.SquareAt(5, 2), engine.SquareAt(1, 1)
	end := engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonResignation, Ply: 3}
	s := Settings(WithLastMove(res.Move), WithCaptures(c1, c2, c1), WithoutLegend(), WithOutcome(end))
	if s.LastMove == nil || *s.LastMove != res.Move {
		t.Errorf("Settings LastMove = %v, want %v", s.LastMove, res.Move)
	}
	if want := []engine.Square{c2, c1}; !slices.Equal(s.Captured, want) {
		t.Errorf("Settings Captured = %v, want %v (sorted, no repeats)", s.Captured, want)
	}
	if s.Legend || !s.SideToMove || s.Outcome != end {
		t.Errorf("Settings = %+v, want no legend, side to move, outcome %v", s, end)
	}
	if d := Settings(); d.LastMove != nil || d.Captured != nil || !d.Legend || !d.SideToMove || d.Outcome.Over() {
		t.Errorf("Settings() = %+v, want the defaults", d)
	}
	p, _ := brandubhAfter(t, "d1-e1")
	if got := s.End(p); got != end {
		t.Errorf("End = %v, want %v", got, end)
	}
	if got := Settings().End(p); got.Over() {
		t.Errorf("End without WithOutcome = %v, want the running position's zero outcome", got)
	}
}

// TestDiagramOutcomeWords: the end WithOutcome gives is said in the
// caller's words; an end without a reason drops the parentheses.
func TestDiagramOutcomeWords(t *testing.T) {
	p, _ := brandubhAfter(t, "d1-e1")
	resigned := WithOutcome(engine.Outcome{Result: engine.AttackersWin, Reason: engine.ReasonResignation, Ply: 2})
	words := DiagramWords{GameOver: "Partie beendet: %s (%s)", AttackersWin: "Angreifer gewinnen",
		Reasons: map[engine.Reason]string{engine.ReasonResignation: "Aufgabe"}}
	if got := lastLine(legend(t, p, resigned, WithWords(words))); got != "  Partie beendet: Angreifer gewinnen (Aufgabe)" {
		t.Errorf("German resignation line = %q", got)
	}
	noReason := WithOutcome(engine.Outcome{Result: engine.DefendersWin, Ply: 1})
	if got := lastLine(legend(t, p, noReason)); got != "  game over: defenders win" {
		t.Errorf("end without a reason = %q, want %q", got, "  game over: defenders win")
	}
}

// TestLegendNamesDrawnSquares: the legend names the throne and the corners
// only when the board shows their glyphs: not the throne while the king
// stands on it (the start), the throne once he has left it, the corners
// while one is empty (also when the king has escaped to another); ASCII
// and Unicode alike.
func TestLegendNamesDrawnSquares(t *testing.T) {
	start, _ := brandubhAfter(t)
	offThrone, _ := brandubhAfter(t, "d1-e1", "d3-e3", "d2-e2", "d4-d1")
	escaped, _ := brandubhAfter(t, "d1-e1", "d3-e3", "d2-e2", "d4-d1", "e1-f1", "d1-a1")
	for _, c := range []struct {
		name   string
		p      *engine.Position
		throne bool
	}{{"start", start, false}, {"king off the throne", offThrone, true}, {"king escaped to a1", escaped, true}} {
		for _, style := range []struct {
			write          func(io.Writer, *engine.Position, ...DiagramOption) error
			throne, corner string
		}{{WriteASCII, "+ throne", "# corner"}, {WriteUnicode, "⊕ throne", "⊠ corner"}} {
			var b strings.Builder
			if err := style.write(&b, c.p); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), style.throne); got != c.throne {
				t.Errorf("%s: the legend names the throne: %v, want %v:\n%s", c.name, got, c.throne, b.String())
			}
			if !strings.Contains(b.String(), style.corner) {
				t.Errorf("%s: the legend does not name the corners:\n%s", c.name, b.String())
			}
		}
	}
}
