package opponent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/engineturn"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The engine opponent by mail (issue 13, docs/engine.md "Playing the
// engine by mail"). "new brandubh with engine level 2" starts a running
// game at once between the sender and the engine, which plays under
// EngineAddress. Whenever the engine owes a reply — its ply, or its
// answer to a draw offer made on the player's turn — the game's timer
// plan holds an engine timer due at once (archive.TimerEngine). RunTimers
// hands such a timer to the engine runner, which searches on a goroutine
// of its own (at most Options.EngineSearches at once, each with its own
// search.Searcher and a table of Options.EngineTableBytes) and then
// commits the engine's reply with the timer's done mark in one
// transaction, as every timer does. The mail loop never waits for a
// search: Run only wakes when one ends, to send the reply.

// engineThought is a finished search of the engine: the position it
// searched (its Zobrist key and ply count, so that a commit after a
// conflict can tell whether the result still applies) and the result.
type engineThought struct {
	posKey  uint64
	plies   int
	result  search.Result
	elapsed time.Duration
}

// queuedTurnOf returns the turn of timer tm as the engine's queue orders
// it: whose turn it is and at which level, read from the game. A game
// that does not exist waits as the most expensive turn of nobody in
// particular; its search then parks it (engineThink). Any other failure
// to read the game is returned.
func queuedTurnOf(s *referee.Server, ctx context.Context, tm archive.Timer) (*engineturn.Turn, error) {
	t := &engineturn.Turn{Ctx: ctx, Timer: tm, Level: search.MaxLevel}
	g, err := s.GamePort().Game(ctx, tm.GameID)
	if errors.Is(err, archive.ErrNotFound) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	t.Player = referee.OpponentOf(g, referee.EngineAddress)
	if l := search.Level(g.EngineLevel); l.Valid() {
		t.Level = l
	}
	return t, nil
}

// enginePlayer plays the turns the engine's runner starts: the search
// and the commit of the engine's reply (engineTurn).
type enginePlayer struct{ s *referee.Server }

var _ engineturn.Player = enginePlayer{}

// PlayTurn plays turn t through engineTurn (engineturn.Player).
func (p enginePlayer) PlayTurn(t *engineturn.Turn, searched func()) (park bool) {
	return engineTurn(p.s, t.Ctx, t.Timer, searched)
}

// engineTurn searches the position of timer tm in the slot it was given,
// calls release when the search is over, and commits the engine's reply.
// It reports whether the timer should be parked: the search failed in a
// way a retry would not mend. Other failures (the archive unavailable)
// are logged and leave the timer pending: the next RunTimers tries again.
func engineTurn(s *referee.Server, ctx context.Context, tm archive.Timer, release func()) (park bool) {
	th, err := engineThink(s, ctx, tm)
	release()
	if ctx.Err() != nil {
		return false // stopping: the timer stays pending
	}
	var perm *engineFailure
	if errors.As(err, &perm) {
		s.Log.Error("engine turn failed: parked until a restart", "game", tm.GameID, "timer", tm.Key, "err", err)
		return true
	}
	if err != nil {
		s.Log.Warn("engine turn failed: it is tried again", "game", tm.GameID, "timer", tm.Key, "err", err)
		return false
	}
	if err := engineCommit(s, ctx, tm, th); err != nil {
		var perm *engineFailure
		if errors.As(err, &perm) {
			s.Log.Error("engine turn failed: parked until a restart", "game", tm.GameID, "timer", tm.Key, "err", err)
			return true
		}
		s.Log.Warn("engine reply not committed: it is tried again", "game", tm.GameID, "timer", tm.Key, "err", err)
	}
	return false
}

// engineFailure is a failure of the engine's turn that trying again would
// not mend (a bug): its timer is parked until the daemon restarts.
type engineFailure struct{ err error }

func (e *engineFailure) Error() string { return "server: engine: " + e.err.Error() }
func (e *engineFailure) Unwrap() error { return e.err }

// engineThink searches the position of the game of timer tm for the
// engine. It returns nil when the timer is stale (the game no longer
// waits for it); then nothing is searched.
func engineThink(s *referee.Server, ctx context.Context, tm archive.Timer) (*engineThought, error) {
	g, err := s.GamePort().Game(ctx, tm.GameID)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, &engineFailure{fmt.Errorf("timer %s of game %s: no such game", tm.Key, tm.GameID)}
	}
	if err != nil {
		return nil, err
	}
	t, err := referee.Load(g)
	if err != nil {
		return nil, &engineFailure{err}
	}
	st, err := gameclock.State(t)
	if err != nil {
		return nil, &engineFailure{err}
	}
	task, ok := engineTaskOf(t, st, true)
	if !ok || task.key != tm.Key {
		return nil, nil
	}
	level := search.Level(t.Game.EngineLevel)
	if !level.Valid() {
		return nil, &engineFailure{fmt.Errorf("game %s: engine level %d", t.Game.ID, t.Game.EngineLevel)}
	}
	lim := level.Limits(engineThinkTime(s, level, t, st, task))
	start := time.Now()
	r, err := engineSearch(s, ctx, t.Pos, level, lim)
	elapsed := time.Since(start)
	s.Opts.Observer.EngineThought(elapsed)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &engineFailure{err}
	}
	s.Log.Info("engine searched", "game", t.Game.ID, "timer", tm.Key, "level", int(level), "move", r.Move.String(),
		"score", r.Score.String(), "depth", r.Depth, "nodes", r.Nodes, "elapsed", elapsed)
	return &engineThought{posKey: t.Pos.Key(), plies: len(t.Game.Plies), result: r, elapsed: elapsed}, nil
}

// engineSearch runs one search: a new search.Searcher of the level's
// evaluation with a table of Options.EngineTableBytes, or the tests'
// replacement (Options.EngineSearch).
func engineSearch(s *referee.Server, ctx context.Context, pos *engine.Position, level search.Level, lim search.Limits) (search.Result, error) {
	if s.Opts.EngineSearch != nil {
		return s.Opts.EngineSearch(ctx, pos, level, lim)
	}
	o := level.Options()
	o.TableBytes = s.Opts.EngineTableBytes
	return search.New(o).Search(ctx, pos, lim)
}

// engineCommit commits the engine's reply th to timer tm with the
// timer's done mark, deciding again on the new state when the game
// changed meanwhile (archive.ErrConflict): the search is used as long as
// the position is the one searched. A reply committed before
// (archive.ErrDuplicate: another process, or a turn that overlapped this
// one) is not committed again.
func engineCommit(s *referee.Server, ctx context.Context, tm archive.Timer, th *engineThought) error {
	var acted bool
	// the timer's seed seeds the replies' Message-IDs, so a repeat after
	// a crash writes the same mails
	_, err := s.Transact(ctx, referee.EngineCause(tm), referee.Steps{
		Decide: func(ss *referee.Session, change *archive.Change) (referee.Verdict, error) {
			var v referee.Verdict
			var err error
			v, acted, err = decideEngine(s, ss, change, tm, th)
			return v, err
		},
		Committed: func(change archive.Change) {
			s.Log.Info("engine replied", "game", tm.GameID, "timer", tm.Key, "acted", acted, "replies", len(change.Outbox))
		},
	})
	return err
}

// decideEngine works out in session ss the engine's reply to timer tm
// from its search th, without writing: nothing to commit when the game
// is not running; else the timer's done mark in change when the engine
// acts, which it reports. When the game no longer waits for tm, or th
// searched another position (or is nil), the change only recomputes the
// game's timers: a new engine timer then searches again.
func decideEngine(s *referee.Server, ss *referee.Session, change *archive.Change, tm archive.Timer, th *engineThought) (referee.Verdict, bool, error) {
	ss.Lang = s.Opts.DefaultLanguage
	t, err := ss.Table(tm.GameID)
	var r *referee.Refusal
	if errors.As(err, &r) {
		err = &engineFailure{fmt.Errorf("timer %s of game %s: no such game", tm.Key, tm.GameID)}
	}
	if err != nil {
		return referee.CommitNothing, false, err
	}
	if t.Game.Status != archive.Active {
		return referee.CommitNothing, false, nil // its end dropped the game's timers
	}
	st, err := gameclock.State(t)
	if err != nil {
		return referee.CommitNothing, false, &engineFailure{err}
	}
	t.Changed = true // written back: its version guards the reply, its thread the mails
	task, ok := engineTaskOf(t, st, true)
	acted := ok && task.key == tm.Key && th != nil && th.posKey == t.Pos.Key() && th.plies == len(t.Game.Plies)
	if acted {
		if !task.draw {
			// the player's reply held for this ply: the engine's mail
			// takes its place when it is still unsent (engine_hold.go)
			if change.Replace, err = takeHeld(ss, t, tm.Key); err != nil {
				return referee.CommitNothing, false, err
			}
		}
		if err := engineReply(ss, t, st, task, th); err != nil {
			return referee.CommitNothing, false, &engineFailure{err}
		}
		change.Writes = append(change.Writes, archive.FiredTimers{{GameID: tm.GameID, Key: tm.Key}})
	}
	return referee.CommitReplies, acted, nil
}

// engineReply carries out the engine's reply to task in t after its
// search th: on its own turn it accepts a standing draw offer
// (search.AcceptDraw) or resigns a hopeless position (search.Resign) or
// plays its move, declining a standing offer; on the player's turn it
// accepts or declines the player's draw offer, judged from its own side
// (the search's score negated). The player gets the reply with the
// board, the clocks and, at the end, the record. It never offers a draw
// itself.
func engineReply(ss *referee.Session, t *referee.Table, st *clock.State, task engineTask, th *engineThought) error {
	human := referee.OpponentOf(t.Game, referee.EngineAddress)
	r := th.result
	offered := t.Game.DrawOfferBy != "" && t.Game.DrawOfferBy != task.side.String()
	if task.draw {
		r.Score = -r.Score // the search was from the player's side
	}
	switch {
	case offered && search.AcceptDraw(r):
		t.Game.Status = archive.Finished
		t.Game.Result = "draw"
		t.Game.Reason = "draw agreed"
		t.Game.DrawOfferBy = ""
		ss.Tell(human, t, func(lang string) string { return referee.Tr(lang, "engine.draw.accepted") })
	case task.draw:
		t.Game.DrawOfferBy = ""
		ss.Tell(human, t, func(lang string) string { return referee.Tr(lang, "engine.draw.declined") })
	case search.Resign(r):
		t.Game.Status = archive.Finished
		t.Game.Result = task.side.Opponent().String()
		t.Game.Reason = "resignation"
		t.Game.DrawOfferBy = ""
		ss.Tell(human, t, func(lang string) string { return referee.Tr(lang, "engine.resigns") })
	default:
		if offered {
			t.Game.DrawOfferBy = ""
			ss.Tell(human, t, func(lang string) string { return referee.Tr(lang, "engine.draw.declined") })
		}
		at, avail := engineTimes(task.due, ss.Now, th.elapsed)
		if to := st.TimeoutAt(at); to != nil {
			// its clock ran out while it thought (a control too short
			// for its think time): lost on time like any player
			gameclock.FinishOnTime(ss, t, to, ss.Now)
			ss.Tell(human, t, func(lang string) string {
				return referee.Tr(lang, "timeout.told", referee.SideName(lang, to.Side.String()), gameclock.LastInTime(lang, to.Deadline))
			})
			break
		}
		if err := enginePly(ss, t, r.Move, at, avail); err != nil {
			return err
		}
	}
	ss.ShowPosition(t)
	return nil
}

// enginePly plays the engine's move m in t through the engine's checked
// path, as a player's move is played (the core's cmd_move.go), arriving
// at at, and then, as after a player's move (ss.AfterPly), plays the player's
// conditional answer to it or cancels the player's conditional moves.
func enginePly(ss *referee.Session, t *referee.Table, m engine.Move, at, avail time.Time) error {
	king, _ := t.Pos.King()
	next := t.Pos.Clone()
	r, err := next.Play(m)
	if err != nil {
		return fmt.Errorf("game %s: the engine's move %s: %w", t.Game.ID, m, err)
	}
	t.Pos = next
	t.Last = &r
	t.NewPlies = append(t.NewPlies, archive.Ply{N: t.Game.PlyCount + len(t.NewPlies) + 1, Move: referee.PlyText(r, king), At: at, Avail: avail})
	if o := r.Outcome; o.Over() {
		t.Game.Status = archive.Finished
		t.Game.Result = o.Result.String()
		t.Game.Reason = o.Reason.String()
	}
	human := referee.OpponentOf(t.Game, referee.EngineAddress)
	ss.Tell(human, t, func(lang string) string {
		s := referee.Tr(lang, "engine.played", referee.PlyText(r, king))
		if len(r.Captures) > 0 {
			s += " " + referee.Tr(lang, "move.captures", referee.CapturedText(lang, r.Captures))
		}
		return s
	})
	// the player's conditional moves answer the engine's ply as any
	// opponent's (the correspondence's conditions_fire.go, through the
	// core's PlyWatcher hook): ss.From names the mover there
	from := ss.From
	ss.From = referee.EngineAddress
	defer func() { ss.From = from }()
	return ss.AfterPly(t)
}

// engineTimes returns when the engine's ply arrives and, when that is
// notably earlier than its commit, the commit time (archive.Ply.At and
// Avail). The engine's clock is charged as any player's: from the start
// of its turn (due) to the arrival of its ply. Its ply arrives when its
// search ended — the turn's start plus the search's time in whole
// seconds, rounded up — at the latest at the commit (now): so waiting
// for a search slot, or a daemon that was down while the engine thought,
// costs the engine nothing, just as a player's mail counts from its
// arrival; the player's clock then starts at the commit.
func engineTimes(due, now time.Time, elapsed time.Duration) (at, avail time.Time) {
	at = due.Add((elapsed + time.Second - 1).Truncate(time.Second))
	if at.After(now) {
		at = now
	}
	if now.Sub(at) >= referee.AvailSlack {
		avail = now
	}
	return at, avail
}
