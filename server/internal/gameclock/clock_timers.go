package gameclock

import (
	"context"
	"errors"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The games' timers: the clock module's due work (docs/clock.md, "The
// scheduler"). Every change of a game stores the game's timers in the
// archive with it (collectClock): the running ply's reminders and, for a
// timed game, its deadline, each under an idempotency key
// (clock.Timer.Key); an invited game's expiry (invitations.go); the
// engine's reply in a game against it (planned by the engine module,
// referee.PlanTimers). RunTimers asks the
// clock module to fire those that are due (runGameTimers): the timer's
// effect (a reminder, a time-out, an expiry), its replies and its done
// mark are one archive.Change, so a process killed at any point sends no
// reminder twice and loses no time-out; an engine timer starts the
// engine's turn instead. Run's wait asks when the next one is due
// (Store.NextTimer) and, once some are overdue, how long they wait
// (overdueTimers).

// runGameTimers fires the games' timers due at Options.Now, earliest
// first, and returns how many it fired (the clock module's dueRunner,
// RunTimers). A timer a module takes (referee.StartTimer: an engine
// timer) is not fired here: it starts the engine's turn on a goroutine
// of its own (under ctx), which commits the engine's reply when its
// search ends. Before a deadline it reads the
// inbox up to the deadline and its grace (readInbox, ripe; Decision C4),
// so a move that arrived in time is played rather than forfeited. A timer
// whose game changed meanwhile is recomputed, not fired. It stops at the
// first failure and returns it: the timers not fired stay pending and
// fire later.
func runGameTimers(s *referee.Server, ctx context.Context) (int, error) {
	fired, limit := 0, referee.TimerBatch
	seen := map[archive.TimerRef]bool{}
	var taken map[archive.TimerRef]bool // timers a module started (referee.StartTimer)
	for ctx.Err() == nil {
		now := s.Opts.Now()
		due, err := s.ClockPort().DueTimers(ctx, now, limit)
		if err != nil || len(due) == 0 {
			return fired, err
		}
		polled := false
		for _, tm := range due {
			if tm.Kind == archive.TimerDeadline && s.Ripe(tm, now) && !s.InboxReadTo(tm.Due.Add(s.Opts.ArrivalGrace)) {
				if err := s.ReadInbox(ctx); err != nil {
					return fired, err
				}
				polled = true
				break // the mail read may have changed the due timers
			}
		}
		if polled {
			continue
		}
		progress := false
		for _, tm := range due {
			ref := archive.TimerRef{GameID: tm.GameID, Key: tm.Key}
			if seen[ref] || !s.Ripe(tm, now) {
				continue // a deadline within its grace: Run wakes for it (overdueTimers)
			}
			seen[ref] = true
			if s.StartTimer(ctx, tm) { // the engine's turn: it commits when its search is done
				if taken == nil {
					taken = map[archive.TimerRef]bool{}
				}
				taken[ref] = true
				continue
			}
			progress = true
			did, err := fire(s, ctx, tm, now)
			if err != nil {
				return fired, err
			}
			if did {
				fired++
			}
		}
		if !progress && len(due) == limit {
			// a whole batch handled in this call (engine turns under
			// way stay due until they commit): read past it
			limit += referee.TimerBatch
			continue
		}
		if !progress && !onlyWaiting(s, due, taken, now) {
			// every due timer was handled in this call and is due again:
			// never spin on it, the next call tries again
			s.Log.Error("timers stay due after they were handled", "count", len(due), "first_game", due[0].GameID, "first_key", due[0].Key)
			return fired, nil
		}
		if !progress {
			return fired, nil
		}
	}
	return fired, ctx.Err()
}

// onlyWaiting reports whether every timer of ts waits for something other
// than RunTimers: a timer a module took (taken: an engine turn, which its
// search commits) or a deadline within its grace at now.
func onlyWaiting(s *referee.Server, ts []archive.Timer, taken map[archive.TimerRef]bool, now time.Time) bool {
	for _, tm := range ts {
		if !taken[archive.TimerRef{GameID: tm.GameID, Key: tm.Key}] && s.Ripe(tm, now) {
			return false
		}
	}
	return true
}

// overdueTimers says how the games' timers due at now wait, for Run's
// wait (the clock module's overdueTeller): left when one is ripe that
// RunTimers left, or they cannot all be read; else how long until the
// first deadline within its grace becomes ripe (Options.ArrivalGrace), 0
// when every due timer is an engine turn under way, whose end wakes Run
// anyway (waitContext). A timer that falls due meanwhile is then fired
// when the next engine turn ends or the grace is over, at the latest
// after WaitCap.
func overdueTimers(s *referee.Server, ctx context.Context, now time.Time) (wait time.Duration, left bool) {
	underway, waits := s.TimersWaiting()
	limit := underway + referee.TimerBatch
	due, err := s.ClockPort().DueTimers(ctx, now, limit)
	if err != nil || len(due) == limit {
		return 0, true
	}
	for _, tm := range due {
		switch {
		case waits(tm): // an engine turn under way (referee.TimersWaiting)
		case !s.Ripe(tm, now):
			if w := tm.Due.Add(s.Opts.ArrivalGrace).Sub(now); wait == 0 || w < wait {
				wait = w
			}
		default:
			return 0, true
		}
	}
	return wait, false
}

// fire acts on one due timer and commits the effect with the timer's done
// mark and the replies, deciding again when the game changed meanwhile
// (archive.ErrConflict). It reports whether the timer's effect was
// committed now: false when it had been before (archive.ErrDuplicate), a
// later timer overtook it (it is marked done unsent), or the timer was
// stale and only the game's timers were recomputed.
func fire(s *referee.Server, ctx context.Context, tm archive.Timer, now time.Time) (bool, error) {
	var acted bool
	// the timer's seed seeds the replies' Message-IDs, so a repeat after
	// a crash writes the same mails
	committed, err := s.Transact(ctx, referee.TimerCause(tm, now), referee.Steps{
		Decide: func(ss *referee.Session, change *archive.Change) (referee.Verdict, error) {
			var err error
			acted, err = decideTimer(s, ss, change, tm)
			return referee.CommitReplies, err
		},
		Committed: func(change archive.Change) {
			s.Log.Info("timer", "game", tm.GameID, "timer", tm.Key, "due", tm.Due, "acted", acted,
				"done", fired(&change), "replies", len(change.Outbox))
		},
	})
	return committed && acted, err
}

// decideTimer works out in session ss what due timer tm does, without
// writing: it marks the timer done in change and reports whether the
// timer acts (false: its game is not running or a later timer overtook
// it, and the timer is only marked done; or it is stale, and the change
// only recomputes the game's timers). The change carries no mail, so a
// reminder or a time-out never counts against a reply budget (caps.go).
func decideTimer(s *referee.Server, ss *referee.Session, change *archive.Change, tm archive.Timer) (bool, error) {
	now := ss.Now
	ss.Lang = s.Opts.DefaultLanguage
	t, err := ss.Table(tm.GameID)
	var r *referee.Refusal
	if errors.As(err, &r) {
		err = errors.New("server: timer " + tm.Key + " of game " + tm.GameID + ": no such game")
	}
	if err != nil {
		return false, err
	}
	t.Changed = true // written back: its version guards the timers, its thread the replies
	acted, passed := false, false
	if t.Game.Status == archive.Active {
		st, err := State(t)
		if err != nil {
			return false, err
		}
		timers := st.Timers(thresholds(s, st.Control))
		if x, ok := findTimer(timers, tm.Key); ok && !x.At.After(now) {
			switch x.Kind {
			case clock.TimerReminder:
				if overtaken(timers, x, now) {
					// the daemon was down past a later reminder or the
					// deadline: that one speaks, this one is done unsent
					passed = true
					break
				}
				remind(ss, t, st, x)
				acted = true
			case clock.TimerDeadline:
				if to := st.TimeoutAt(now); to != nil {
					timeout(ss, t, to, now)
					acted = true
				}
			}
		}
	}
	if ss.ExpireInvitation(t, tm, now) { // an invitation nobody answered (invitations.go)
		acted = true
	}
	if acted || passed || t.Game.Status != archive.Active {
		change.Writes = append(change.Writes, archive.FiredTimers{{GameID: tm.GameID, Key: tm.Key}})
	}
	return acted, nil
}

// overtaken reports whether a timer of ts after x is due at now too: then
// only the last due one is acted on (a daemon that was down does not send
// the 7-day and the 2-day reminder at once, nor a reminder with the
// time-out).
func overtaken(ts []clock.Timer, x clock.Timer, now time.Time) bool {
	for _, y := range ts {
		if y.At.After(x.At) && !y.At.After(now) {
			return true
		}
	}
	return false
}

// findTimer returns the timer with key among ts.
func findTimer(ts []clock.Timer, key string) (clock.Timer, bool) {
	for _, x := range ts {
		if x.Key() == key {
			return x, true
		}
	}
	return clock.Timer{}, false
}

// remind writes the reminder x to the side to move (CORRESPONDENCE.md
// §4.1): how much time is left and the deadline (timed), or how long the
// move has been awaited (untimed), then whose move it is, with the board,
// the move list and the player's key like every mail about the game.
func remind(ss *referee.Session, t *referee.Table, st *clock.State, x clock.Timer) {
	addr := referee.AddressOf(t.Game, x.Side.String())
	lang := ss.LangOf(addr)
	n := ss.NoteFor(addr, lang, t)
	n.Game = t
	n.Subject = referee.Tr(lang, "subject.reminder", referee.VariantTitle(lang, t.Variant), t.MoveNumber())
	var text string
	if st.Control.Timed() {
		d, _ := st.Deadline()
		text = referee.Tr(lang, "reminder.timed", clockDuration(lang, x.Threshold), remainingText(lang, st.Control, st.Remaining(x.Side, ss.Now)), LastInTime(lang, d))
	} else {
		text = referee.Tr(lang, "reminder.untimed", clockDuration(lang, x.Threshold))
	}
	ss.AddSection(n, text)
	ss.AddSection(n, referee.StatusText(lang, t, addr))
}

// fired reports whether c marks a timer done (an archive.FiredTimers
// write), for the log of a timer's commit.
func fired(c *archive.Change) bool {
	_, ok := archive.WriteOf[archive.FiredTimers](c)
	return ok
}
