package opponent

import (
	"context"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/engineturn"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Module is the engine opponent as a module of the core (the hooks of
// internal/referee's module.go), handed to it by server's assembly: it
// installs the runner of the engine's turns (Installer), which Run waits
// for on its way out (WorkWaiter) and /metrics reads (QueueTeller), takes a
// challenge of the engine (ChallengeTaker), plans, starts and waits for
// the engine's timers (TimerPlanner, TimerStarter, TimerWaiter) and
// holds the reply that leaves the engine to move (ReplyDelayer). It
// keeps no state of a session.
type Module struct{}

// Name returns "engine", the module's name in the registry's test and
// the docs.
func (Module) Name() string { return "engine" }

// Install makes the runner of the engine's turns (engine.go), which plays
// each through enginePlayer and wakes Run's wait for mail when one ends
// (s.Wake), and keeps it for s's life (runnerOf): the module's Installer.
func (Module) Install(s *referee.Server) {
	s.Keep(Module{}, engineturn.New(s.Opts.EngineSearches, enginePlayer{s}, s.Wake))
}

// runnerOf returns the runner of the engine's turns that Install made for
// s: the engine module's own, one per Server. It is nil for a Server made
// without the module.
func runnerOf(s *referee.Server) *engineturn.Runner {
	r, _ := s.Kept(Module{}).(*engineturn.Runner)
	return r
}

// WaitWork returns when no engine turn of s is under way
// (engineturn.Runner.Wait): the module's WorkWaiter, for Run on its way
// out.
func (Module) WaitWork(s *referee.Server) { runnerOf(s).Wait() }

// Queued returns how many engine turns of s wait for a search slot
// (engineturn.Runner.Queued): the module's QueueTeller, for /metrics.
func (Module) Queued(s *referee.Server) int { return runnerOf(s).Queued() }

// TimersWaiting says that the engine timers the runner claimed wait for
// their turns under way (engineturn.Runner.Count and Taken), the engine
// module's TimerWaiter.
func (Module) TimersWaiting(s *referee.Server) (int, func(archive.Timer) bool) {
	r := runnerOf(s)
	return r.Count(), func(tm archive.Timer) bool {
		return tm.Kind == archive.TimerEngine && r.Taken(archive.TimerRef{GameID: tm.GameID, Key: tm.Key})
	}
}

// StartTimer takes a due engine timer (archive.TimerEngine) and starts
// the engine's turn (startEngine): the module's TimerStarter.
func (Module) StartTimer(ctx context.Context, s *referee.Server, tm archive.Timer) bool {
	if tm.Kind != archive.TimerEngine {
		return false
	}
	startEngine(s, ctx, tm) // searches on its own goroutine, commits when done
	return true
}

// startEngine queues the engine's turn of timer tm, unless it is under
// way or parked already, and starts what the free search slots can take
// in fair order (engineturn), each on a goroutine of its own. The turn
// searches under ctx: when ctx ends (the daemon stops), the search stops,
// or never starts, and nothing is committed, so the timer stays pending
// and the engine searches again after the restart. When the game cannot
// be read to queue the turn, the failure is logged and the timer stays
// pending for the next RunTimers.
func startEngine(s *referee.Server, ctx context.Context, tm archive.Timer) {
	ref, r := archive.TimerRef{GameID: tm.GameID, Key: tm.Key}, runnerOf(s)
	if !r.Claim(ref) {
		return
	}
	t, err := queuedTurnOf(s, ctx, tm)
	if err != nil {
		if ctx.Err() == nil {
			s.Log.Warn("engine turn not queued: it is tried again", "game", tm.GameID, "timer", tm.Key, "err", err)
		}
		r.Done(ref, false)
		return
	}
	r.Start(t)
}

// TakeChallenge plays a new command that names the engine, or a level,
// as a game against the engine (newEngineGame): the module's
// ChallengeTaker.
func (Module) TakeChallenge(ss *referee.Session, c *grammar.NewGameCommand, v *engine.Variant) (bool, error) {
	if !c.Engine && !hasLevel(c) {
		return false, nil
	}
	return true, newEngineGame(ss, c, v)
}

// PlanTimers plans the engine's timer in the plan of t (engineTimer),
// alone when it is the engine's ply: the module's TimerPlanner.
func (Module) PlanTimers(t *referee.Table, st *clock.State) ([]archive.Timer, bool) {
	x, move, ok := engineTimer(t, st)
	if !ok {
		return nil, false
	}
	return []archive.Timer{x}, move
}

// DelayReply returns the key of the engine timer the mail of note n
// waits for and the text the engine's reply then repeats, "" when it
// waits for nothing (engineHold): the module's ReplyDelayer.
func (Module) DelayReply(ss *referee.Session, n *referee.Note) (key, carry string) {
	return engineHold(ss, n)
}
