// Package clock is the accounting of correspondence clocks: time controls
// charged ply by ply, leave, reminders, time-outs and the deadlines a
// scheduler stores as timers (CORRESPONDENCE.md §2–§5; docs/clock.md).
//
// It is pure: no I/O, no wall clock. Every instant is passed in, and every
// instant is truncated to whole seconds (UTC), as IMAP INTERNALDATE and a
// record's %ts carry them. Amounts of time are time.Duration values in
// whole seconds; a day is 24 hours (notation.Day); leave is counted in
// whole UTC days (int). The time control and leave intervals are
// notation's values (notation.TimeControl, notation.Leave).
//
// The pieces:
//
//   - Game holds what a game's clocks depend on: the control, the start,
//     the accepted plies with their arrival (and commit) times, both
//     players' leave. Game.State accounts for every ply.
//   - State is the clocks after the last ply: Charge (what a ply arriving
//     now costs, and whether it is late), Remaining, Deadline, Expired,
//     Reminders and Timers (the instants a scheduler must wake up), Show
//     (both clocks for a mail).
//   - TakeLeave, CancelLeave, LeaveLeft and LimitLeave keep a player's
//     leave within the yearly allowance (§3); LeaveSpan turns the days of
//     a leave command as written (WrittenDay: "24.12.", "12/11") into a
//     leave, a day without a year the next such day.
//   - Judge reads the clocks of a replayed record (§5), for validate.
//
// What the caller must do itself: read the inbox up to a deadline before
// declaring a time-out (Decision C4), charge nothing for refused mails
// (Decision C3: a refused mail is not a ply, so it never reaches Game),
// and recompute timers whenever a ply, a leave or a cancellation changes
// the Game.
package clock

import (
	"errors"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// daySeconds is a day in seconds.
const daySeconds = 24 * 60 * 60

// Game is what the clocks of one game depend on (CORRESPONDENCE.md §2).
type Game struct {
	// Control is the time control (§1); the zero value is "none".
	Control notation.TimeControl
	// Start is the game's start: the first mover's clock starts here
	// (§2.1). Required, also for an untimed game (reminders count from
	// it).
	Start time.Time
	// FirstSide is the side that plays the first ply.
	FirstSide engine.Side
	// Plies are the accepted plies, in order, sides alternating from
	// FirstSide. Refused mails are not plies (Decision C3).
	Plies []Ply
	// Leave is each player's leave as it applies to this game, indexed by
	// engine.Side (a tournament that allows fewer days passes
	// LimitLeave's result). Intervals may overlap; their union counts
	// (Decision C5).
	Leave [2][]notation.Leave
}

// Ply is one accepted ply's times.
type Ply struct {
	// Arrival is when the mail reached the server's mailbox: its IMAP
	// INTERNALDATE, never the Date: header (§2.2, Decision C2). The
	// mover's clock stops here.
	Arrival time.Time
	// Avail is when the server committed the ply, if that was later than
	// Arrival (the daemon was down, §2.1); the opponent's clock starts
	// then. Zero (or not after Arrival) when it was committed on arrival.
	Avail time.Time
}

// started returns when the opponent's clock starts after p.
func (p Ply) started() int64 {
	if p.Avail.After(p.Arrival) {
		return unix(p.Avail)
	}
	return unix(p.Arrival)
}

// unix returns t in whole Unix seconds (rounded down).
func unix(t time.Time) int64 { return t.Unix() }

// instant returns the UTC time of Unix second s.
func instant(s int64) time.Time { return time.Unix(s, 0).UTC() }

// seconds returns d in whole seconds (rounded towards zero).
func seconds(d time.Duration) int64 { return int64(d / time.Second) }

// State is a game's clocks after its last accounted ply, as Game.State
// computes them. Its methods answer for the side to move.
type State struct {
	// Control is the game's time control.
	Control notation.TimeControl
	// Clock is each side's remaining time (whole seconds) at the start of
	// its next turn: after its last ply's charge, increment and cap; the
	// starting time before its first ply; the per-move time for a
	// per-move control. Indexed by engine.Side. Zero for an untimed game.
	Clock [2]time.Duration
	// ToMove is the side whose clock runs (on time-out: the loser).
	ToMove engine.Side
	// Since is when ToMove's clock started (§2.1): the start, or the
	// arrival (or commit) of the opponent's last ply.
	Since time.Time
	// Ply is the number of plies accounted; ToMove's ply is Ply+1.
	Ply int
	// Timeout is set when a ply arrived at or after its deadline: the
	// game was lost on time after Ply plies (CORRESPONDENCE.md §2.6) and
	// later plies were not accounted. nil otherwise.
	Timeout *Timeout

	since int64     // Since in Unix seconds
	leave [2][]span // each side's leave
	union []span    // both sides' leave merged (Decision C5)
}

// Timeout is a loss on time.
type Timeout struct {
	// Side is the side that lost on time.
	Side engine.Side
	// Ply is the number of plies made in time before the deadline: 0 when
	// the first mover never moved in time (CORRESPONDENCE.md §5 "N").
	Ply int
	// Deadline is the first instant at which the side had lost (see
	// State.Deadline).
	Deadline time.Time
}

// ErrNoStart is returned by Game.State for a game without a start time.
var ErrNoStart = errors.New("clock: the game has no start time")

// State accounts for every ply of g (CORRESPONDENCE.md §2): for ply i the
// mover's clock ran from the start (first ply) or the previous ply's
// arrival or later commit, to the ply's arrival, less the leave of either
// player; the charge is that time in seconds, or in whole days with the
// ICCF doubling; the increment is added after the charge and the result
// cut to the cap. A ply whose charge exceeds the mover's remaining time
// arrived too late: State stops there with Timeout set. It fails for a
// game without a start (ErrNoStart), a ply without an arrival time, or a
// leave that ends before it begins.
func (g *Game) State() (*State, error) {
	if g.Start.IsZero() {
		return nil, ErrNoStart
	}
	s := &State{Control: g.Control, ToMove: g.FirstSide, since: unix(g.Start)}
	for side, ls := range g.Leave {
		for _, l := range ls {
			if l.Last.Before(l.First) {
				return nil, fmt.Errorf("clock: the %s' leave %s ends before it begins", engine.Side(side), l)
			}
			s.leave[side] = append(s.leave[side], span{unix(l.Start()), unix(l.End())})
		}
		s.leave[side] = merge(s.leave[side])
	}
	s.union = merge(append(append([]span(nil), s.leave[0]...), s.leave[1]...))
	start := s.start()
	s.Clock = [2]time.Duration{start, start}
	for i, p := range g.Plies {
		if p.Arrival.IsZero() {
			return nil, fmt.Errorf("clock: ply %d has no arrival time", i+1)
		}
		c := s.Charge(p.Arrival)
		if c.Late {
			s.Timeout = &Timeout{Side: s.ToMove, Ply: i, Deadline: s.deadlineOrZero()}
			break
		}
		s.Clock[s.ToMove] = c.Clock
		s.since = p.started()
		s.ToMove = s.ToMove.Opponent()
		s.Ply = i + 1
	}
	s.Since = instant(s.since)
	return s, nil
}

// start returns each side's time before its first ply: the base of a
// Fischer control, the per-move time, or 0 untimed.
func (s *State) start() time.Duration {
	switch s.Control.Kind {
	case notation.Fischer:
		return s.Control.Base
	case notation.PerMove:
		return s.Control.PerMove
	}
	return 0
}

// Charge is what a ply costs its mover (CORRESPONDENCE.md §2.3–§2.6).
// All durations are whole seconds.
type Charge struct {
	// Side is the mover.
	Side engine.Side
	// Elapsed is the time from the clock's start to the ply's arrival,
	// less every part that lies inside either player's leave (Decision
	// C5); 0 when the ply arrived before the clock started (a mail sent
	// while the daemon was down, processed after the commit that started
	// the clock).
	Elapsed time.Duration
	// Days is the whole days counted under ICCF accounting,
	// floor(Elapsed / 24h); 0 under exact accounting.
	Days int
	// Charged is what is taken off the clock: Elapsed (exact), or Days
	// days when Days ≤ 20 and 20 + 2·(Days − 20) days beyond (ICCF: 23
	// days used are charged 26). 0 for an untimed game.
	Charged time.Duration
	// Left is the mover's remaining time less Charged, before the
	// increment; negative when the ply is late. Exactly zero still plays.
	Left time.Duration
	// Clock is the mover's clock after the ply: Left plus the increment,
	// cut to the cap (Fischer); the per-move time (per move); 0 untimed.
	Clock time.Duration
	// Late reports a loss on time: Left < 0 (§2.6). Never for an untimed
	// game.
	Late bool
}

// Charge returns what a ply by the side to move, arriving at arrival,
// costs (CORRESPONDENCE.md §2). It does not change the state; append the
// ply to the Game and call State again to go on. When Late, the game was
// lost on time before the ply arrived: whether to declare it is the
// caller's concern (Decision C4: only a ply that arrived at or after
// Deadline is late, however late it is processed).
func (s *State) Charge(arrival time.Time) Charge {
	c := Charge{Side: s.ToMove}
	a := max(unix(arrival), s.since)
	el := effective(s.union, s.since, a)
	c.Elapsed = time.Duration(el) * time.Second
	if !s.Control.Timed() {
		return c
	}
	charged, days := s.charge(el)
	c.Days = days
	c.Charged = time.Duration(charged) * time.Second
	remaining := s.Clock[s.ToMove]
	c.Left = remaining - c.Charged
	c.Late = c.Left < 0
	switch s.Control.Kind {
	case notation.Fischer:
		c.Clock = c.Left + s.Control.Increment
		if s.Control.Cap > 0 && c.Clock > s.Control.Cap {
			c.Clock = s.Control.Cap
		}
	case notation.PerMove:
		c.Clock = s.Control.PerMove
	}
	return c
}

// charge returns the seconds charged for el seconds of elapsed time, and
// the whole days counted under ICCF accounting (§2.3).
func (s *State) charge(el int64) (charged int64, days int) {
	if !s.Control.ICCF {
		return el, 0
	}
	d := el / daySeconds
	return iccfDays(d) * daySeconds, int(d)
}

// iccfDays returns the days charged for d whole days used: d up to 20,
// then two for each day beyond (ICCF server rule; §2.3).
func iccfDays(d int64) int64 {
	if d <= 20 {
		return d
	}
	return 20 + 2*(d-20)
}

// limit returns the least elapsed time (seconds, leave excluded) whose
// charge exceeds remaining seconds: a ply that took this long or longer is
// late. Exact: remaining + 1 (exactly zero left still plays). ICCF: the
// first whole day whose charge exceeds remaining, in seconds.
func (s *State) limit(remaining int64) int64 {
	if !s.Control.ICCF {
		return remaining + 1
	}
	// the most days whose charge fits: d itself up to 20, then one day
	// for every two charged
	rd := remaining / daySeconds
	dmax := rd
	if rd > 20 {
		dmax = 20 + (rd-20)/2
	}
	return (dmax + 1) * daySeconds
}

// Remaining returns side's remaining time at instant at (whole seconds):
// for the side to move, its clock less the charge of a ply arriving at at
// (so under ICCF accounting it falls a day, or two, at a time; it is
// negative once the side has lost on time); for the other side, its
// clock. 0 for an untimed game.
func (s *State) Remaining(side engine.Side, at time.Time) time.Duration {
	if side != s.ToMove || !s.Control.Timed() {
		return s.Clock[side]
	}
	return s.Charge(at).Left
}

// Deadline returns the first instant at which the side to move has lost
// on time (CORRESPONDENCE.md §2.6): a ply arriving before it is in time,
// one arriving at or after it is late. Leave of either player moves it on
// by the leave's length (Decision C5); under ICCF accounting it falls at
// the end of the last whole day that the remaining time can pay for. ok is
// false for an untimed game and for a game already lost on time (then see
// Timeout.Deadline). The deadline changes when a leave is taken or
// cancelled: recompute it then.
func (s *State) Deadline() (deadline time.Time, ok bool) {
	if !s.Control.Timed() || s.Timeout != nil {
		return time.Time{}, false
	}
	return s.deadlineOrZero(), true
}

// deadlineOrZero returns the deadline of the running clock, or zero
// untimed.
func (s *State) deadlineOrZero() time.Time {
	if !s.Control.Timed() {
		return time.Time{}
	}
	return instant(reach(s.union, s.since, s.limit(seconds(s.Clock[s.ToMove]))))
}

// Expired reports whether the side to move has lost on time at instant at
// (at ≥ Deadline, or a Timeout already). Decision C4: declare the time-out
// only after the inbox has been read up to the deadline; a ply that
// arrived before it wins, however late it is processed.
func (s *State) Expired(at time.Time) bool {
	if s.Timeout != nil {
		return true
	}
	d, ok := s.Deadline()
	return ok && unix(at) >= unix(d)
}

// TimeoutAt returns the time-out the side to move has suffered at instant
// at, or nil when it is still in time (or the game is untimed). It is
// s.Timeout when a ply already arrived late.
func (s *State) TimeoutAt(at time.Time) *Timeout {
	if s.Timeout != nil {
		return s.Timeout
	}
	if !s.Expired(at) {
		return nil
	}
	d, _ := s.Deadline()
	return &Timeout{Side: s.ToMove, Ply: s.Ply, Deadline: d}
}

// OnLeave reports whether side is on leave at instant at.
func (s *State) OnLeave(side engine.Side, at time.Time) bool {
	return inside(s.leave[side], unix(at))
}

// Paused reports whether the clocks stand still at instant at: either
// player is on leave (Decision C5).
func (s *State) Paused(at time.Time) bool { return inside(s.union, unix(at)) }

// Clocks is what every mail about a timed game shows
// (CORRESPONDENCE.md §4.3): both remaining times and who is on leave.
type Clocks struct {
	// At is the instant shown.
	At time.Time
	// Timed is false for an untimed game; then Remaining and Deadline are
	// zero.
	Timed bool
	// ToMove is the side whose clock runs.
	ToMove engine.Side
	// Remaining is each side's remaining time at At (whole seconds), as
	// State.Remaining; indexed by engine.Side.
	Remaining [2]time.Duration
	// OnLeave reports each side's leave at At.
	OnLeave [2]bool
	// Deadline is State.Deadline; zero untimed or after a time-out.
	Deadline time.Time
}

// Show returns both clocks at instant at, for a mail.
func (s *State) Show(at time.Time) Clocks {
	c := Clocks{At: instant(unix(at)), Timed: s.Control.Timed(), ToMove: s.ToMove}
	for side := range c.Remaining {
		if c.Timed {
			c.Remaining[side] = s.Remaining(engine.Side(side), at)
		}
		c.OnLeave[side] = s.OnLeave(engine.Side(side), at)
	}
	c.Deadline, _ = s.Deadline()
	return c
}
