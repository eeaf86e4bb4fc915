package engine

import (
	"strings"
	"testing"
)

// Test positions are drawn as diagrams: one string per rank from the top
// rank down to rank 1, one character per file from a; spaces are ignored
// so files may be spaced out. '.' is an empty square (throne and corners
// included), 't' an attacker, 'T' a defender, 'K' the king.
//
// diagram returns a position under the rules of the built-in variant
// `rules`, on a board the size of the diagram (the throne is its centre
// square, the corners its corners), with toMove to move.
func diagram(t testing.TB, rules string, toMove Side, rows ...string) *Position {
	t.Helper()
	v, ok := Lookup(rules)
	if !ok {
		t.Fatalf("no variant %q", rules)
	}
	clean := make([]string, len(rows))
	for i, r := range rows {
		clean[i] = strings.ReplaceAll(r, " ", "")
	}
	v.Size = len(clean)
	v.Start = clean
	b, err := v.StartBoard()
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	p, err := NewPositionFromBoard(v, b, toMove)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	return p
}

// draw renders a position the way diagram reads it, for failure messages
// and for comparing boards.
func draw(p *Position) string {
	var sb strings.Builder
	n := p.Size()
	for r := n - 1; r >= 0; r-- {
		for f := 0; f < n; f++ {
			sb.WriteByte(".tTK"[p.At(SquareAt(f, r))])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// sq parses a lower-case square name such as "f6" (test helper).
func sq(t testing.TB, s string) Square {
	t.Helper()
	if len(s) < 2 || s[0] < 'a' || s[0] > 's' {
		t.Fatalf("bad square %q", s)
	}
	r := 0
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			t.Fatalf("bad square %q", s)
		}
		r = r*10 + int(c-'0')
	}
	return SquareAt(int(s[0]-'a'), r-1)
}

// mv parses "d1-d3" (test helper).
func mv(t testing.TB, s string) Move {
	t.Helper()
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		t.Fatalf("bad move %q", s)
	}
	return Move{From: sq(t, a), To: sq(t, b)}
}

func TestDiagramRoundTrip(t *testing.T) {
	rows := []string{
		"...t...",
		"...t...",
		"...T...",
		"ttTKTtt",
		"...T...",
		"...t...",
		"...t...",
	}
	p := diagram(t, "brandubh", Attackers, rows...)
	if got, want := draw(p), strings.Join(rows, "\n")+"\n"; got != want {
		t.Errorf("draw(diagram) =\n%s\nwant\n%s", got, want)
	}
	v, _ := Lookup("brandubh")
	start, err := NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	if p.Key() != start.Key() {
		t.Errorf("diagram of the Brandubh start has key %x, start position %x", p.Key(), start.Key())
	}
}
