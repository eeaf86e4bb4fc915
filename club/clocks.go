package club

import (
	"time"

	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// Clocks are both clocks of a running timed game
// (CORRESPONDENCE.md §4.3), indexed by engine.Side (attackers 0,
// defenders 1), in whole seconds.
type Clocks struct {
	// Control is the time control ("30d+1d").
	Control string
	// ToMove is the side whose clock runs.
	ToMove engine.Side
	// Left is each side's clock at the start of its next turn (after its
	// last ply's charge, increment and cap): the same until a ply is
	// played, so a page that shows it changes only with the game.
	Left [2]time.Duration
	// OnLeave reports each side's leave at that instant.
	OnLeave [2]bool
	// Deadline is when the side to move loses on time; zero when lost.
	Deadline time.Time
}

// clocksAt returns the clocks of a replayed timed game at instant at
// (clock.Judge), nil for an untimed game or one whose clock data the
// record lacks.
func clocksAt(r *notation.Replay, at time.Time) *Clocks {
	v, err := clock.Judge(r, time.Time{})
	if err != nil || v == nil {
		return nil
	}
	s := v.State.Show(at)
	return &Clocks{Control: v.Control.String(), ToMove: s.ToMove, Left: v.State.Clock, OnLeave: s.OnLeave, Deadline: s.Deadline}
}

// PlyClock is a ply's time in a timed game: when it arrived and what it
// left on its mover's clock (after the charge, increment and cap,
// CORRESPONDENCE.md §2.3–§2.5).
type PlyClock struct {
	Arrival time.Time
	// Used is the time charged for the ply; Left the mover's clock after
	// it.
	Used, Left time.Duration
}

// PlyClocks returns the clock of each ply of a replayed timed game
// (indexed like r.Game.Plies; the zero PlyClock for a ply without a time
// or after a time-out, resignations included), or nil for a game without
// clock data. The mover's clock before each ply comes from the plies
// before it (clock.Game.State), so that what is shown is what the
// referee charged.
func PlyClocks(r *notation.Replay) []PlyClock {
	g := r.Game
	if g.ClockErr != nil {
		return nil
	}
	c, err := g.Clock()
	if err != nil || c == nil || !c.Control.Timed() || c.Start.IsZero() {
		return nil
	}
	first := engine.Attackers
	switch {
	case len(r.Plies) > 0:
		first = r.Plies[0].Side
	case r.Final != nil:
		first = r.Final.ToMove()
	}
	cg := clock.Game{Control: c.Control, Start: c.Start, FirstSide: first, Leave: c.Leave}
	out := make([]PlyClock, len(g.Plies))
	for i, p := range g.Plies {
		if p.Ply.Move == nil || p.Time.Arrival.IsZero() || !r.Plies[i].Played {
			break
		}
		st, err := cg.State()
		if err != nil || st.Timeout != nil {
			break
		}
		ch := st.Charge(p.Time.Arrival)
		if ch.Late {
			break
		}
		out[i] = PlyClock{Arrival: p.Time.Arrival, Used: ch.Charged, Left: ch.Clock}
		cg.Plies = append(cg.Plies, clock.Ply{Arrival: p.Time.Arrival, Avail: p.Time.Avail})
	}
	return out
}
