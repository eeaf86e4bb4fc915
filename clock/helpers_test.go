package clock

import (
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

const day = notation.Day

// ts reads an instant written out, "2026-11-28T21:52:10Z".
func ts(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("bad instant %q in the test: %v", s, err)
	}
	return v.UTC()
}

// control reads a time control written as in a mail.
func control(t testing.TB, s string) notation.TimeControl {
	t.Helper()
	tc, err := notation.ParseTimeControl("test", s)
	if err != nil {
		t.Fatalf("bad time control %q in the test: %v", s, err)
	}
	return tc
}

// leaves reads leave intervals written as in a leave tag.
func leaves(t testing.TB, s string) []notation.Leave {
	t.Helper()
	if s == "" {
		return nil
	}
	l, err := notation.ParseLeaves("test", s)
	if err != nil {
		t.Fatalf("bad leave %q in the test: %v", s, err)
	}
	return l
}

// game builds a game that starts at start, attackers first, with the
// given arrival times and each side's leave.
func game(t testing.TB, tc, start string, arrivals []string, attackersLeave, defendersLeave string) *Game {
	t.Helper()
	g := &Game{Control: control(t, tc), Start: ts(t, start), FirstSide: engine.Attackers}
	for _, a := range arrivals {
		g.Plies = append(g.Plies, Ply{Arrival: ts(t, a)})
	}
	g.Leave = [2][]notation.Leave{leaves(t, attackersLeave), leaves(t, defendersLeave)}
	return g
}

// state returns g.State() or fails.
func state(t testing.TB, g *Game) *State {
	t.Helper()
	s, err := g.State()
	if err != nil {
		t.Fatalf("State() error: %v", err)
	}
	return s
}
