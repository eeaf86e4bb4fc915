package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// examplePosition draws a test position as the engine's rule tests do: one
// string per rank from the top rank down to rank 1, one character per file
// from a, spaces ignored; '.' empty, 't' an attacker, 'T' a defender, 'K'
// the king. The board is brandubh's (7×7) under brandubh's rules, with
// toMove to move.
func examplePosition(t *testing.T, toMove engine.Side, rows ...string) *referee.Table {
	t.Helper()
	v := mustVariant(t, "brandubh")
	v.Start = make([]string, len(rows))
	for i, r := range rows {
		v.Start[i] = strings.ReplaceAll(r, " ", "")
	}
	b, err := v.StartBoard()
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.NewPositionFromBoard(v, b, toMove)
	if err != nil {
		t.Fatal(err)
	}
	return &referee.Table{Variant: v, Pos: p}
}

// TestExampleMoveKeepsTheMan: the example is the first quiet move by its
// text after which the opponent cannot take the moved man at once. Here
// a4-a2, the first quiet move, hangs the man (c3-a3 takes it against the
// corner a1, as the engine itself says when the reply is played); a4-a3
// does not, and is shown. When every quiet move hangs the man (a2-b2 is
// the attackers' only move, a3-a2 takes it against c2), the example is
// the first quiet move, as before. Choosing leaves the position as it was.
func TestExampleMoveKeepsTheMan(t *testing.T) {
	for _, c := range []struct {
		name          string
		rows          []string
		want, quiet   string
		hang, reply   string
		safeAvailable bool
	}{
		{"a safe quiet move", []string{
			". . . . . . .",
			". . . . . . .",
			". . T . . . .",
			"t . . K . . .",
			". . T . . . .",
			". . . . . . .",
			". . . . . . .",
		}, "1. a4-a3", "a4-a2", "a4-a2", "c3-a3", true},
		{"every quiet move hangs", []string{
			". . . . . . .",
			". . . . . . .",
			". . . . . . .",
			". . . K . . .",
			"T . . . . . .",
			"t . T . . . .",
			". . . . . . .",
		}, "1. a2-b2", "a2-b2", "a2-b2", "a3-a2", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := examplePosition(t, engine.Attackers, c.rows...)
			key := tb.Pos.Key()
			if got := referee.ExampleMove(tb); got != c.want {
				t.Errorf("exampleMove = %q, want %q", got, c.want)
			}
			if tb.Pos.Key() != key || tb.Pos.Ply() != 0 {
				t.Errorf("exampleMove changed the position")
			}
			ms := tb.Pos.LegalMoves(nil)
			if k := referee.FirstQuietByText(tb.Pos, ms); k < 0 || ms[k].String() != c.quiet {
				t.Errorf("first quiet move %d, want %s", k, c.quiet)
			}
			if k := referee.FirstSafeByText(tb.Pos, ms); (k >= 0) != c.safeAvailable {
				t.Errorf("firstSafeByText = %d, want a safe move: %v", k, c.safeAvailable)
			}
			// the engine agrees that the first quiet move hangs the man
			p := tb.Pos.Clone()
			hang := legalByText(t, p, c.hang)
			if _, err := p.Play(hang); err != nil {
				t.Fatal(err)
			}
			res, err := p.Play(legalByText(t, p, c.reply))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Captures) != 1 || res.Captures[0] != hang.To {
				t.Errorf("%s after %s captures %v, want %v", c.reply, c.hang, res.Captures, hang.To)
			}
		})
	}
}

// legalByText returns the legal move of p written as text ("a4-a2").
func legalByText(t *testing.T, p *engine.Position, text string) engine.Move {
	t.Helper()
	for _, m := range p.LegalMoves(nil) {
		if m.String() == text {
			return m
		}
	}
	t.Fatalf("%s is not a legal move", text)
	return engine.Move{}
}
