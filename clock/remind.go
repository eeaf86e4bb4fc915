package clock

import (
	"fmt"
	"sort"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// DefaultTimedReminders are the reminder thresholds of a timed game
// (CORRESPONDENCE.md §4.1): the side to move is reminded when its
// remaining time first falls below 7 days, 2 days and 12 hours.
var DefaultTimedReminders = []time.Duration{7 * notation.Day, 2 * notation.Day, 12 * time.Hour}

// DefaultUntimedReminders are the reminders of an untimed game (§4.1,
// pbmserv's nag): after 7, 14 and 21 days without a ply. Never a forfeit.
var DefaultUntimedReminders = []time.Duration{7 * notation.Day, 14 * notation.Day, 21 * notation.Day}

// ShortControlShare is the share of a short control's starting time left
// when its one reminder falls due (TimedThresholds): a quarter.
const ShortControlShare = 4

// TimedThresholds returns the reminder thresholds of a timed game with
// control tc, given the operator's thresholds (nil:
// DefaultTimedReminders; values ≤ 0 are ignored). When one of them is
// below the control's starting time (a Fischer control's base, a
// per-move control's time), they are the game's thresholds as they are
// (CORRESPONDENCE.md §4.1). A short control (ShortControl: a game of
// minutes or hours, 12h+0d, 90m/move, 10m+5m with the default 7d, 2d,
// 12h) could never be reminded by them, as its clock starts each turn at
// or below them all; it gets one threshold instead: a quarter of its
// starting time (ShortControlShare), rounded down to a whole minute, so
// one reminder a ply, never more than the operator's thresholds count.
// None when that is under a minute (a control under 4 minutes) or when
// the operator's thresholds hold none above zero (reminders switched
// off). An untimed control's thresholds are returned as they are.
func TimedThresholds(tc notation.TimeControl, thresholds []time.Duration) []time.Duration {
	if !tc.Timed() {
		return thresholds
	}
	if thresholds == nil {
		thresholds = DefaultTimedReminders
	}
	start, short := shortControl(tc, thresholds)
	if !short {
		for _, th := range thresholds {
			if th > 0 {
				return thresholds
			}
		}
		return nil // switched off
	}
	share := (start / ShortControlShare).Truncate(time.Minute)
	if share < time.Minute {
		return nil
	}
	return []time.Duration{share}
}

// ShortControl reports whether the timed control tc is no longer than
// every one of the operator's thresholds (nil: DefaultTimedReminders),
// at least one of them above zero: then TimedThresholds reminds it at a
// quarter of its starting time instead of at them. False for an untimed
// control.
func ShortControl(tc notation.TimeControl, thresholds []time.Duration) bool {
	if !tc.Timed() {
		return false
	}
	if thresholds == nil {
		thresholds = DefaultTimedReminders
	}
	_, short := shortControl(tc, thresholds)
	return short
}

// shortControl returns the starting time of the timed control tc and
// whether no threshold of thresholds above zero is below it, at least
// one being above zero (ShortControl).
func shortControl(tc notation.TimeControl, thresholds []time.Duration) (time.Duration, bool) {
	start := tc.Base
	if tc.Kind == notation.PerMove {
		start = tc.PerMove
	}
	positive := false
	for _, th := range thresholds {
		if th <= 0 {
			continue
		}
		if th < start {
			return start, false
		}
		positive = true
	}
	return start, positive
}

// Reminder is a reminder to the side to move, due at At.
type Reminder struct {
	// Side is the side to move, who gets the reminder.
	Side engine.Side
	// Ply is the 1-based number of the ply awaited. A reminder is sent at
	// most once per (Ply, Threshold), also across restarts: that pair is
	// its identity (Timer.Key).
	Ply int
	// Threshold is, for a timed game, the remaining time below which the
	// reminder falls due; for an untimed game, the time without a ply
	// after which it falls due (leave not counted).
	Threshold time.Duration
	// At is when it falls due.
	At time.Time
}

// Reminders returns the reminders of the running ply in the order they
// fall due (CORRESPONDENCE.md §4.1). thresholds are the timed game's
// thresholds, or the untimed game's (nil: DefaultTimedReminders or
// DefaultUntimedReminders); each is used once, values ≤ 0 are ignored.
// A timed game's thresholds are first those of TimedThresholds: a
// control no longer than every threshold is reminded at a quarter of
// its starting time instead.
//
// Timed: a threshold T falls due when the remaining time first falls
// below T during this ply (under ICCF accounting that is at a day's end);
// a threshold the clock was already below when it started is not
// repeated, nor one the clock started at (a 2d game has no 2-day reminder
// in its first second), nor one that would fall due at or after the
// deadline.
// Untimed: T falls due when the clock has run T since it started. Leave
// of either player is not counted in either case. None after a
// time-out.
func (s *State) Reminders(thresholds []time.Duration) []Reminder {
	if s.Timeout != nil {
		return nil
	}
	timed := s.Control.Timed()
	if timed {
		thresholds = TimedThresholds(s.Control, thresholds)
	} else if thresholds == nil {
		thresholds = DefaultUntimedReminders
	}
	var out []Reminder
	seen := map[int64]bool{}
	deadline := int64(0)
	if timed {
		deadline = reach(s.union, s.since, s.limit(seconds(s.Clock[s.ToMove])))
	}
	for _, th := range thresholds {
		t := seconds(th)
		if t <= 0 || seen[t] {
			continue
		}
		seen[t] = true
		var at int64
		if timed {
			// remaining − charge < T ⟺ charge > remaining − T: the same
			// limit as the deadline's, for remaining − T
			x := seconds(s.Clock[s.ToMove]) - t
			if x <= 0 {
				// at or below T from the start of the ply: a 2d+0d
				// game's first turn is not "below 2 days" one second in
				continue
			}
			at = reach(s.union, s.since, s.limit(x))
			if at >= deadline {
				continue
			}
		} else {
			at = reach(s.union, s.since, t)
		}
		out = append(out, Reminder{Side: s.ToMove, Ply: s.Ply + 1, Threshold: time.Duration(t) * time.Second, At: instant(at)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// NextReminder returns the first reminder of the running ply that falls
// due after instant after (At > after), and false when none does.
func (s *State) NextReminder(after time.Time, thresholds []time.Duration) (Reminder, bool) {
	for _, r := range s.Reminders(thresholds) {
		if r.At.After(after) {
			return r, true
		}
	}
	return Reminder{}, false
}

// TimerKind says what a timer does when it fires.
type TimerKind uint8

const (
	// TimerReminder reminds the side to move (§4.1).
	TimerReminder TimerKind = iota + 1
	// TimerDeadline ends the game on time once the inbox has been read
	// up to At (§2.6, Decision C4).
	TimerDeadline
)

// String returns "reminder" or "deadline".
func (k TimerKind) String() string {
	if k == TimerDeadline {
		return "deadline"
	}
	return "reminder"
}

// Timer is an instant at which the scheduler must act on a game.
type Timer struct {
	Kind TimerKind
	// Side is the side to move.
	Side engine.Side
	// Ply is the 1-based number of the ply awaited.
	Ply int
	// Threshold is the reminder's threshold (TimerReminder); 0 for a
	// deadline.
	Threshold time.Duration
	// At is when the timer fires (whole seconds, UTC).
	At time.Time
}

// Key identifies the timer within its game, independent of At: "ply 12
// deadline", "ply 12 reminder 7d". A reminder or time-out already acted
// on under a key must not be acted on again, even when a leave moved At
// (§4.1: never more than once per threshold and ply, also across
// restarts). Joined with the game's id it is an idempotency key.
func (t Timer) Key() string {
	if t.Kind == TimerDeadline {
		return fmt.Sprintf("ply %d deadline", t.Ply)
	}
	return fmt.Sprintf("ply %d reminder %s", t.Ply, notation.FormatDuration(t.Threshold))
}

// Timers returns the timers of the running ply in the order they fire:
// its reminders (State.Reminders with thresholds) and, for a timed game,
// its deadline. None after a time-out. Recompute them after every
// accepted ply and every change of either player's leave.
func (s *State) Timers(thresholds []time.Duration) []Timer {
	var out []Timer
	for _, r := range s.Reminders(thresholds) {
		out = append(out, Timer{Kind: TimerReminder, Side: r.Side, Ply: r.Ply, Threshold: r.Threshold, At: r.At})
	}
	if d, ok := s.Deadline(); ok {
		out = append(out, Timer{Kind: TimerDeadline, Side: s.ToMove, Ply: s.Ply + 1, At: d})
	}
	return out
}
