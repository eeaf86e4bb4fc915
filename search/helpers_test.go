package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// Test positions are drawn as diagrams, as in the engine's tests: one line
// per rank from the top rank down to rank 1, one character per file from a;
// blank lines and spaces are ignored. '.' is an empty square (throne and
// corners included), 't' an attacker, 'T' a defender, 'K' the king. The
// board is as large as the diagram; the throne is its centre square, the
// corners its corners.

// diagram returns the position drawn in board under the rules of the
// built-in variant `rules`, with toMove to move.
func diagram(t testing.TB, rules string, toMove engine.Side, board string) *engine.Position {
	t.Helper()
	v, ok := engine.Lookup(rules)
	if !ok {
		t.Fatalf("no variant %q", rules)
	}
	var rows []string
	for _, line := range strings.Split(board, "\n") {
		if line = strings.Join(strings.Fields(line), ""); line != "" {
			rows = append(rows, line)
		}
	}
	v.Size, v.Start = len(rows), rows
	b, err := v.StartBoard()
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	p, err := engine.NewPositionFromBoard(v, b, toMove)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	if o := p.Outcome(); o.Over() {
		t.Fatalf("diagram: the position is already decided: %+v", o)
	}
	return p
}

// sq parses a lower-case square name such as "f6".
func sq(t testing.TB, s string) engine.Square {
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
	return engine.SquareAt(int(s[0]-'a'), r-1)
}

// mv parses "d1-d3".
func mv(t testing.TB, s string) engine.Move {
	t.Helper()
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		t.Fatalf("bad move %q", s)
	}
	return engine.Move{From: sq(t, a), To: sq(t, b)}
}

// play plays the plies in text (separated by blanks) with the checked
// path; every one must be legal and leave the game running.
func play(t testing.TB, p *engine.Position, text string) {
	t.Helper()
	for _, f := range strings.Fields(text) {
		r, err := p.Play(mv(t, f))
		if err != nil {
			t.Fatalf("play %s: %v", f, err)
		}
		if r.Outcome.Over() {
			t.Fatalf("play %s ends the game: %+v", f, r.Outcome)
		}
	}
}

// forcedWin reports whether winner can force a win from p within n plies,
// by plain full-width search (no evaluation, no pruning beyond the
// first refutation): the independent check of the tactics suite.
func forcedWin(p *engine.Position, winner engine.Side, n int) bool {
	if o := p.Outcome(); o.Over() {
		w, ok := o.Result.Winner()
		return ok && w == winner
	}
	if n == 0 {
		return false
	}
	moves := p.LegalMoves(nil)
	attack := p.ToMove() == winner
	for _, m := range moves {
		u := p.Make(m)
		ok := forcedWin(p, winner, n-1)
		p.Unmake(u)
		if ok == attack {
			return attack
		}
	}
	return !attack
}

// winningMoves returns, sorted, the moves of the side to move in p that
// force a win within n plies (the move itself included).
func winningMoves(p *engine.Position, n int) []string {
	side := p.ToMove()
	var out []string
	for _, m := range p.LegalMoves(nil) {
		u := p.Make(m)
		if forcedWin(p, side, n-1) {
			out = append(out, m.String())
		}
		p.Unmake(u)
	}
	slices.Sort(out)
	return out
}

// holdingMoves returns, sorted, the moves of the side to move in p after
// which the opponent cannot force a win within n plies.
func holdingMoves(p *engine.Position, n int) []string {
	opp := p.ToMove().Opponent()
	var out []string
	for _, m := range p.LegalMoves(nil) {
		u := p.Make(m)
		if !forcedWin(p, opp, n) {
			out = append(out, m.String())
		}
		p.Unmake(u)
	}
	slices.Sort(out)
	return out
}

// searchDepth runs a fresh default Searcher on a copy of p to depth d.
func searchDepth(t testing.TB, p *engine.Position, d int) Result {
	t.Helper()
	s := New(Options{TableBytes: 1 << 20})
	r, err := s.Search(context.Background(), p, Limits{Depth: d})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	return r
}
