package opponent

import (
	"fmt"
	"math"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// engineTask is what the engine owes a running game: its ply (the engine
// is to move; if the player's draw offer stands it answers it too), or
// the answer to a draw offer the player made on their own turn.
type engineTask struct {
	key  string      // the timer's key (archive.Timer.Key)
	draw bool        // only answer the player's draw offer
	side engine.Side // the engine's side
	ply  int         // the 1-based ply the game waits for
	due  time.Time   // when the engine's turn began: due at once
}

// engineTaskOf returns what the engine owes t, whose clocks are st, and
// false when it owes nothing (a game between people, one not running,
// or the player to move without a draw offer). stored says whether t is
// as stored (true) or about to be committed (false, from the clock's
// collect, through PlanTimers):
// the key of a draw answer names the game's version after the commit
// that made the offer, so that every offer gets its own answer, also a
// second one in the same turn after a refusal, while the plan
// recomputed for any later change of the game replaces the pending
// answer rather than adding one.
func engineTaskOf(t *referee.Table, st *clock.State, stored bool) (engineTask, bool) {
	side := referee.EngineSide(t.Game)
	if side == "" || t.Game.Status != archive.Active {
		return engineTask{}, false
	}
	es := engine.Attackers
	if side == "defenders" {
		es = engine.Defenders
	}
	task := engineTask{side: es, ply: st.Ply + 1, due: st.Since}
	switch {
	case t.ToMove() == side:
		task.key = fmt.Sprintf("ply %d engine", task.ply)
	case t.Game.DrawOfferBy != "" && t.Game.DrawOfferBy != side:
		version := t.Game.Version
		if !stored {
			version++ // archive.Store.Commit bumps it by one
		}
		task.draw = true
		task.key = fmt.Sprintf("ply %d engine draw %d", task.ply, version)
	default:
		return engineTask{}, false
	}
	if task.due.IsZero() {
		task.due = t.Game.StartedAt
	}
	return task, true
}

// engineTimer returns the engine timer of t's plan (for the clock's
// collect, through PlanTimers):
// due when the engine's turn began, that is at once. move reports that
// it is the engine's ply: then it is the game's only timer, since the
// engine is reminded of nothing and its clock is charged when it plays
// (engineTimes), not by a deadline timer.
func engineTimer(t *referee.Table, st *clock.State) (x archive.Timer, move, ok bool) {
	task, ok := engineTaskOf(t, st, false)
	if !ok {
		return archive.Timer{}, false, false
	}
	return archive.Timer{Key: task.key, Kind: archive.TimerEngine, Ply: task.ply, Due: task.due}, !task.draw, true
}

// minEngineThink is the least think time the engine's clock leaves it in
// a timed game (a twentieth of its remaining time, but never less).
const minEngineThink = 100 * time.Millisecond

// PlyThinkTime returns the engine's think time at level for the ply it
// owes in t, as stored, whose clocks are st (engineThinkTime): false when
// it owes no ply (a game between people or not running, the player to
// move, or only the answer to the player's draw offer).
func PlyThinkTime(s *referee.Server, level search.Level, t *referee.Table, st *clock.State) (time.Duration, bool) {
	task, ok := engineTaskOf(t, st, true)
	if !ok || task.draw {
		return 0, false
	}
	return engineThinkTime(s, level, t, st, task), true
}

// engineThinkTime is the engine's think time for one ply at level:
// Options.EngineThink at search.MaxLevel, the same fraction of it as in
// search's level table below (docs/engine.md), and in a timed game at
// most a twentieth of the engine's remaining time (never below
// minEngineThink), so that the engine does not lose on time.
func engineThinkTime(s *referee.Server, level search.Level, t *referee.Table, st *clock.State, task engineTask) time.Duration {
	think := LevelThink(s, level)
	if !task.draw && gameclock.Control(t.Game).Timed() {
		think = min(think, max(st.Remaining(task.side, task.due)/20, minEngineThink))
	}
	return max(think, time.Millisecond)
}

// LevelThink is the engine's think time for one ply at level, before a
// timed game's clock shortens it: Options.EngineThink at search.MaxLevel,
// the same fraction of it as in search's level table below (at least
// 1 ms).
func LevelThink(s *referee.Server, level search.Level) time.Duration {
	ratio := float64(level.Spec().Think) / float64(search.MaxLevel.Spec().Think)
	return max(time.Duration(math.Round(ratio*float64(s.Opts.EngineThink))), time.Millisecond)
}
