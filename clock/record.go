package clock

import (
	"fmt"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// Verdict is what the clocks of a timed record say (CORRESPONDENCE.md §5).
type Verdict struct {
	// Control is the record's time control.
	Control notation.TimeControl
	// Left is both clocks at the last ply that counts (after its charge,
	// increment and cap; each side's starting time before its first ply;
	// for a per-move control the per-move time), whole seconds, indexed by
	// engine.Side.
	Left [2]time.Duration
	// Plies is the number of plies that count: the moves before a
	// time-out, before the rules ended the game, or before the replay
	// stopped at an illegal ply.
	Plies int
	// Timeout is the loss on time, nil when there is none: a ply that
	// arrived at or after its deadline (Timeout.Ply is then the last ply
	// before it, 0 if the first mover never moved in time), or the
	// pending ply judged at the moment given to Judge or the %ts of the
	// record's final time-out.
	Timeout *Timeout
	// Pending reports that Timeout was found by judging the pending ply
	// at the moment given to Judge (validate --at), which the record
	// itself could not know.
	Pending bool
	// State is the clocks after the plies that count, for callers that
	// want more (deadline, reminders).
	State *State
	// Claim is set when the record ends with a time-out whose %ts lies
	// before the loser's deadline: the record claims a time-out the clocks
	// do not show (KindResult, at the time-out ply).
	Claim *notation.Error
}

// Judge reads the clocks of a replayed record (CORRESPONDENCE.md §5): it
// accounts for the record's moves from its Start tag and their %ts (and
// %avail) times, with both players' leave tags, and finds a time-out: a
// move that arrived at or after its deadline; else, when the game is not
// over by the rules or a resignation, the pending ply judged at instant
// at (validate --at; zero: not judged) or, without at, at the %ts of a
// final time-out ply of the record. The clocks are reported at the last
// ply that counts either way.
//
// It returns nil, nil for a record without a time control, with "none",
// or without clock data (no Start tag: an older record, whose TimeControl
// may be free text), and the record's Game.ClockErr when its clock data is
// broken. Apply the verdict to the replay with
// r.SetTimeout(v.Timeout.Side, v.Timeout.Ply, !v.Pending).
func Judge(r *notation.Replay, at time.Time) (*Verdict, error) {
	g := r.Game
	if g.ClockErr != nil {
		return nil, g.ClockErr
	}
	c, err := g.Clock()
	if err != nil {
		// ReadGames found no clock data with it (ClockErr is nil): the
		// TimeControl tag is an older record's free text
		return nil, nil
	}
	if c == nil || !c.Control.Timed() || c.Start.IsZero() {
		return nil, nil
	}
	cg := Game{Control: c.Control, Start: c.Start, FirstSide: firstSide(r), Leave: c.Leave}
	end := len(g.Plies)
	if r.End.Over() {
		end = min(end, r.End.Ply)
	}
	var token *notation.Ply // a final resignation or time-out
	for i := 0; i < len(g.Plies); i++ {
		p := g.Plies[i]
		if p.Ply.Move == nil {
			if i == len(g.Plies)-1 {
				token = &g.Plies[i]
			}
			break
		}
		if i >= end || !r.Plies[i].Played {
			break
		}
		cg.Plies = append(cg.Plies, Ply{Arrival: p.Time.Arrival, Avail: p.Time.Avail})
	}
	st, err := cg.State()
	if err != nil {
		return nil, fmt.Errorf("clock: %s: %w", g.Filename, err)
	}
	v := &Verdict{Control: c.Control, Left: st.Clock, Plies: st.Ply, Timeout: st.Timeout, State: st}
	if v.Timeout != nil || r.End.Over() && r.End.Ply <= st.Ply {
		return v, nil
	}
	switch {
	case !at.IsZero() && (token == nil || token.Ply.Timeout):
		v.Timeout = st.TimeoutAt(at)
		v.Pending = v.Timeout != nil
	case token != nil && token.Ply.Timeout && !token.Time.Arrival.IsZero():
		claimed := token.Time.Arrival
		if v.Timeout = st.TimeoutAt(claimed); v.Timeout == nil {
			d, _ := st.Deadline()
			v.Claim = &notation.Error{Kind: notation.KindResult, Game: g.Number, Ply: len(g.Plies), Side: st.ToMove, Move: token.Text(),
				Message: fmt.Sprintf("the record says the %s lost on time at %s, but their deadline is %s",
					st.ToMove, notation.FormatInstant(claimed), notation.FormatInstant(d))}
			pos := token.Ply.Pos
			v.Claim.Filename, v.Claim.Line, v.Claim.Col = g.Filename, pos.Line, pos.Column
		}
	}
	return v, nil
}

// firstSide returns the side of the record's first ply.
func firstSide(r *notation.Replay) engine.Side {
	switch {
	case len(r.Plies) > 0:
		return r.Plies[0].Side
	case r.Final != nil:
		return r.Final.ToMove()
	}
	return engine.Attackers
}
