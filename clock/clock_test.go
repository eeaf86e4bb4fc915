package clock

import (
	"errors"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// TestCharge: the charge of the first ply (the attackers', clock started
// at 2026-11-01T00:00:00Z unless said otherwise) under every form of time
// control, both accountings, the cap, exactly-zero remaining and leave.
// Each expectation is worked out in its comment.
func TestCharge(t *testing.T) {
	const start = "2026-11-01T00:00:00Z"
	tests := []struct {
		name       string
		control    string
		start      string // "" for start
		arrival    string
		aLeave     string // the attackers' (the mover's) leave
		dLeave     string // the defenders' leave
		elapsed    time.Duration
		days       int
		charged    time.Duration
		left       time.Duration
		clock      time.Duration
		late       bool
		remarkDays string
	}{
		// 2 days 12 hours later: 30d − 2d12h = 27d12h, plus 1d = 28d12h
		{name: "exact: charged to the second", control: "30d+1d", arrival: "2026-11-03T12:00:00Z",
			elapsed: 2*day + 12*time.Hour, charged: 2*day + 12*time.Hour, left: 27*day + 12*time.Hour, clock: 28*day + 12*time.Hour},
		// 59 s: 30d − 59s, plus 1d
		{name: "exact: seconds count", control: "30d+1d", arrival: "2026-11-01T00:00:59Z",
			elapsed: 59 * time.Second, charged: 59 * time.Second, left: 30*day - 59*time.Second, clock: 31*day - 59*time.Second},
		// 23h59m59s is 0 whole days: nothing charged, 30d + 1d
		{name: "iccf: a reply within 24 hours costs nothing", control: "30d+1d iccf", arrival: "2026-11-01T23:59:59Z",
			elapsed: 24*time.Hour - time.Second, days: 0, charged: 0, left: 30 * day, clock: 31 * day},
		// exactly 24 hours is 1 day: 29d, plus 1d = 30d
		{name: "iccf: the 24-hour boundary", control: "30d+1d iccf", arrival: "2026-11-02T00:00:00Z",
			elapsed: day, days: 1, charged: day, left: 29 * day, clock: 30 * day},
		// 20 days cost 20: 30 − 20 = 10, plus 1 = 11
		{name: "iccf: 20 days cost 20", control: "30d+1d iccf", arrival: "2026-11-21T00:00:00Z",
			elapsed: 20 * day, days: 20, charged: 20 * day, left: 10 * day, clock: 11 * day},
		// 21 days cost 20 + 2·1 = 22: 30 − 22 = 8, plus 1 = 9
		{name: "iccf: the 21st day counts double", control: "30d+1d iccf", arrival: "2026-11-22T00:00:00Z",
			elapsed: 21 * day, days: 21, charged: 22 * day, left: 8 * day, clock: 9 * day},
		// 23 days cost 20 + 2·3 = 26 (the ICCF rule's own example): 30 − 26 = 4, plus 1 = 5
		{name: "iccf: 23 days used are charged 26", control: "30d+1d iccf", arrival: "2026-11-24T00:00:00Z",
			elapsed: 23 * day, days: 23, charged: 26 * day, left: 4 * day, clock: 5 * day},
		// 23d23h59m59s is still 23 whole days: 26 charged
		{name: "iccf: the last second of day 23", control: "30d+1d iccf", arrival: "2026-11-24T23:59:59Z",
			elapsed: 24*day - time.Second, days: 23, charged: 26 * day, left: 4 * day, clock: 5 * day},
		// 26d left, 23 days used, 26 charged: exactly zero, still plays
		{name: "iccf: exactly zero still plays", control: "26d+0d iccf", arrival: "2026-11-24T00:00:00Z",
			elapsed: 23 * day, days: 23, charged: 26 * day, left: 0, clock: 0},
		// 24 days cost 20 + 2·4 = 28 > 26: late by 2 days
		{name: "iccf: one day more is late", control: "26d+0d iccf", arrival: "2026-11-25T00:00:00Z",
			elapsed: 24 * day, days: 24, charged: 28 * day, left: -2 * day, clock: -2 * day, late: true},
		// 1d left, exactly 1d used: 0 left, plays (remaining − charge < 0 loses, = 0 not)
		{name: "exact: exactly zero still plays", control: "1d+0d", arrival: "2026-11-02T00:00:00Z",
			elapsed: day, charged: day, left: 0, clock: 0},
		// one second more: −1s, late
		{name: "exact: one second more is late", control: "1d+0d", arrival: "2026-11-02T00:00:01Z",
			elapsed: day + time.Second, charged: day + time.Second, left: -time.Second, clock: -time.Second, late: true},
		// 1 of 3 days used: 2 left, but the next ply has 3 again
		{name: "per move: unused time is not carried", control: "3d/move", arrival: "2026-11-02T00:00:00Z",
			elapsed: day, charged: day, left: 2 * day, clock: 3 * day},
		// exactly 3 days: 0 left, plays
		{name: "per move: exactly t plays", control: "3d/move", arrival: "2026-11-04T00:00:00Z",
			elapsed: 3 * day, charged: 3 * day, left: 0, clock: 3 * day},
		// 3 days and 1 s: late
		{name: "per move: t and a second is late", control: "3d/move", arrival: "2026-11-04T00:00:01Z",
			elapsed: 3*day + time.Second, charged: 3*day + time.Second, left: -time.Second, clock: 3 * day, late: true},
		// 3d23h59m59s is 3 whole days: 3 charged, 0 left
		{name: "per move iccf: whole days", control: "3d/move iccf", arrival: "2026-11-04T23:59:59Z",
			elapsed: 4*day - time.Second, days: 3, charged: 3 * day, left: 0, clock: 3 * day},
		// 4 whole days: 4 charged > 3
		{name: "per move iccf: the fourth day is late", control: "3d/move iccf", arrival: "2026-11-05T00:00:00Z",
			elapsed: 4 * day, days: 4, charged: 4 * day, left: -day, clock: 3 * day, late: true},
		// 10d − 1h = 9d23h, plus 2d = 11d23h, cut to the cap 11d
		{name: "cap: the increment stops at the cap", control: "10d+2d max 11d", arrival: "2026-11-01T01:00:00Z",
			elapsed: time.Hour, charged: time.Hour, left: 10*day - time.Hour, clock: 11 * day},
		// 10d − 1d12h = 8d12h, plus 2d = 10d12h, under the cap
		{name: "cap: not reached", control: "10d+2d max 11d", arrival: "2026-11-02T12:00:00Z",
			elapsed: day + 12*time.Hour, charged: day + 12*time.Hour, left: 8*day + 12*time.Hour, clock: 10*day + 12*time.Hour},
		// sudden death: 5 − 1 = 4, nothing added
		{name: "sudden death: increment 0d", control: "5d+0d", arrival: "2026-11-02T00:00:00Z",
			elapsed: day, charged: day, left: 4 * day, clock: 4 * day},
		// untimed: a year without a ply is never late, nothing charged
		{name: "untimed: never late", control: "none", arrival: "2027-11-01T00:00:00Z",
			elapsed: 365 * day},
		// the mover's leave 2 and 3 November (48 h) inside 4 days: 2 days run
		{name: "leave of the mover", control: "30d+1d", arrival: "2026-11-05T00:00:00Z", aLeave: "2026-11-02/2026-11-03",
			elapsed: 2 * day, charged: 2 * day, left: 28 * day, clock: 29 * day},
		// the same leave of the opponent stops the mover's clock too (Decision C5)
		{name: "leave of the opponent", control: "30d+1d", arrival: "2026-11-05T00:00:00Z", dLeave: "2026-11-02/2026-11-03",
			elapsed: 2 * day, charged: 2 * day, left: 28 * day, clock: 29 * day},
		// 5 days with two one-day leaves, one each: 3 days run
		{name: "two leaves", control: "30d+1d", arrival: "2026-11-06T00:00:00Z", aLeave: "2026-11-02", dLeave: "2026-11-04",
			elapsed: 3 * day, charged: 3 * day, left: 27 * day, clock: 28 * day},
		// 2–4 Nov and 3–5 Nov overlap: their union 2–5 Nov is 4 days (the
		// sum would be 6); 7 days − 4 = 3 days run
		{name: "overlapping leaves count once", control: "30d+1d", arrival: "2026-11-08T00:00:00Z",
			aLeave: "2026-11-02/2026-11-04", dLeave: "2026-11-03/2026-11-05",
			elapsed: 3 * day, charged: 3 * day, left: 27 * day, clock: 28 * day},
		// clock from 1 Nov 12:00; the leave of 1 Nov ends at 24:00: 12 h of
		// it count; 2 days − 12 h = 1d12h run
		{name: "leave begun before the clock", control: "30d+1d", start: "2026-11-01T12:00:00Z", arrival: "2026-11-03T12:00:00Z",
			aLeave: "2026-11-01", elapsed: day + 12*time.Hour, charged: day + 12*time.Hour, left: 28*day + 12*time.Hour, clock: 29*day + 12*time.Hour},
		// iccf takes the leave out first: 2d6h − 1d = 1d6h, 1 whole day
		{name: "iccf: leave out before the days are counted", control: "30d+1d iccf", arrival: "2026-11-03T06:00:00Z",
			dLeave: "2026-11-02", elapsed: day + 6*time.Hour, days: 1, charged: day, left: 29 * day, clock: 30 * day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.start
			if st == "" {
				st = start
			}
			s := state(t, game(t, tt.control, st, nil, tt.aLeave, tt.dLeave))
			c := s.Charge(ts(t, tt.arrival))
			want := Charge{Side: engine.Attackers, Elapsed: tt.elapsed, Days: tt.days, Charged: tt.charged, Left: tt.left, Clock: tt.clock, Late: tt.late}
			if tt.late {
				want.Clock = c.Clock // after a loss, the clock is of no use
			}
			if c != want {
				t.Errorf("Charge(%s) =\n %+v\nwant\n %+v", tt.arrival, c, want)
			}
			// the deadline agrees with the charge: late exactly from it on
			if d, ok := s.Deadline(); ok && tt.late != !ts(t, tt.arrival).Before(d) {
				t.Errorf("arrival %s, deadline %s, but late = %v", tt.arrival, d.Format(time.RFC3339), tt.late)
			}
		})
	}
}

// TestStatePlies: clocks over several plies, the commit time (§2.1), and
// the time-out found in the plies (§5 "N").
func TestStatePlies(t *testing.T) {
	// 30d+1d from 1 Nov: attackers after 1 day (11-02): 30 − 1 + 1 = 30;
	// defenders after 2 days (11-04): 30 − 2 + 1 = 29; attackers after
	// 12 hours (11-04 12:00): 30 − 0d12h + 1 = 30d12h
	g := game(t, "30d+1d", "2026-11-01T00:00:00Z",
		[]string{"2026-11-02T00:00:00Z", "2026-11-04T00:00:00Z", "2026-11-04T12:00:00Z"}, "", "")
	s := state(t, g)
	if want := [2]time.Duration{30*day + 12*time.Hour, 29 * day}; s.Clock != want {
		t.Errorf("Clock = %v, want %v", s.Clock, want)
	}
	if s.ToMove != engine.Defenders || s.Ply != 3 || !s.Since.Equal(ts(t, "2026-11-04T12:00:00Z")) || s.Timeout != nil {
		t.Errorf("ToMove %v, Ply %d, Since %v, Timeout %v; want defenders, 3, 2026-11-04T12:00:00Z, nil", s.ToMove, s.Ply, s.Since, s.Timeout)
	}

	// the attackers' ply arrived at 10:00 but was committed at 18:00
	// (daemon down): the defenders' clock starts at 18:00. Their reply at
	// 11-02 18:00 took 1 day, not 1d8h: 30 − 1 + 1 = 30.
	g = game(t, "30d+1d", "2026-11-01T00:00:00Z", []string{"2026-11-01T10:00:00Z", "2026-11-02T18:00:00Z"}, "", "")
	g.Plies[0].Avail = ts(t, "2026-11-01T18:00:00Z")
	if s = state(t, g); s.Clock[engine.Defenders] != 30*day {
		t.Errorf("after a late commit: defenders' clock %v, want 30d", s.Clock[engine.Defenders])
	}
	// a reply that arrived before the commit (sent while the daemon was
	// down) costs nothing: 30 − 0 + 1 = 31
	g.Plies[1].Arrival = ts(t, "2026-11-01T12:00:00Z")
	if s = state(t, g); s.Clock[engine.Defenders] != 31*day {
		t.Errorf("a reply before the commit: defenders' clock %v, want 31d", s.Clock[engine.Defenders])
	}

	// 3d/move: attackers 11-02, defenders 11-03, attackers 11-07, four
	// days after the defenders' ply: late. The deadline was 11-03 + 3d +
	// 1s; N = 2 plies were made in time.
	g = game(t, "3d/move", "2026-11-01T00:00:00Z",
		[]string{"2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z", "2026-11-07T00:00:00Z", "2026-11-07T01:00:00Z"}, "", "")
	s = state(t, g)
	want := &Timeout{Side: engine.Attackers, Ply: 2, Deadline: ts(t, "2026-11-06T00:00:01Z")}
	if s.Timeout == nil || *s.Timeout != *want {
		t.Errorf("Timeout = %+v, want %+v", s.Timeout, want)
	}
	if s.Ply != 2 || s.ToMove != engine.Attackers {
		t.Errorf("after the time-out: Ply %d, ToMove %v; want 2, attackers", s.Ply, s.ToMove)
	}
	if _, ok := s.Deadline(); ok || !s.Expired(ts(t, "2026-11-01T00:00:00Z")) || s.Timers(nil) != nil {
		t.Error("a game lost on time has a deadline, is not expired, or has timers")
	}

	// the first mover never moved in time: N = 0
	g = game(t, "3d/move", "2026-11-01T00:00:00Z", []string{"2026-11-05T00:00:00Z"}, "", "")
	want = &Timeout{Side: engine.Attackers, Ply: 0, Deadline: ts(t, "2026-11-04T00:00:01Z")}
	if s = state(t, g); s.Timeout == nil || *s.Timeout != *want {
		t.Errorf("Timeout = %+v, want %+v", s.Timeout, want)
	}
}

func TestStateErrors(t *testing.T) {
	g := &Game{Control: control(t, "3d/move")}
	if _, err := g.State(); !errors.Is(err, ErrNoStart) {
		t.Errorf("no start: %v, want ErrNoStart", err)
	}
	g.Start = ts(t, "2026-11-01T00:00:00Z")
	g.Plies = []Ply{{}}
	if _, err := g.State(); err == nil {
		t.Error("a ply without an arrival time: no error")
	}
	g.Plies = nil
	g.Leave[engine.Defenders] = []notation.Leave{{First: ts(t, "2026-11-05T00:00:00Z"), Last: ts(t, "2026-11-04T00:00:00Z")}}
	if _, err := g.State(); err == nil {
		t.Error("a leave that ends before it begins: no error")
	}
}

// TestDeadline: the first instant at which the side to move has lost, for
// each accounting and with leave of either player over it.
func TestDeadline(t *testing.T) {
	tests := []struct {
		name, control, start, aLeave, dLeave string
		want                                 string
	}{
		// 30 days after 1 Nov is 1 Dec 00:00; that instant still plays
		// (exactly zero left), one second later is late
		{"exact", "30d+1d", "2026-11-01T00:00:00Z", "", "", "2026-12-01T00:00:01Z"},
		{"per move", "3d/move", "2026-11-01T00:00:00Z", "", "", "2026-11-04T00:00:01Z"},
		// 26 days pay for 23 whole days (20 + 2·3 = 26); day 24 costs 28:
		// late from the start of the 24th day after the start, 25 Nov
		{"iccf: 23 days on 26", "26d+0d iccf", "2026-11-01T00:00:00Z", "", "", "2026-11-25T00:00:00Z"},
		// 30 days pay for 25 (20 + 2·5 = 30): late from 27 Nov 00:00
		{"iccf: 25 days on 30", "30d+1d iccf", "2026-11-01T00:00:00Z", "", "", "2026-11-27T00:00:00Z"},
		// 6d12h pays for 6 whole days (7 would cost 7 > 6d12h): late from 8 Nov
		{"iccf: a remaining part day", "6d12h+10h iccf", "2026-11-01T00:00:00Z", "", "", "2026-11-08T00:00:00Z"},
		// 3 whole days pay for 3: late from the 4th day, 5 Nov
		{"iccf per move", "3d/move iccf", "2026-11-01T00:00:00Z", "", "", "2026-11-05T00:00:00Z"},
		// from 20 Dec 12:00 the clock runs 2d12h to 23 Dec 00:00, stops
		// for the leave of 23 Dec, and needs 12h and 1s more on 24 Dec
		{"leave of the mover over the deadline", "3d/move", "2026-12-20T12:00:00Z", "2026-12-23", "", "2026-12-24T12:00:01Z"},
		{"leave of the opponent over the deadline", "3d/move", "2026-12-20T12:00:00Z", "", "2026-12-23", "2026-12-24T12:00:01Z"},
		// 12h to 21 Dec, leave, 1 day on 22 Dec, leave on 23 Dec: 1d12h
		// run by 24 Dec 00:00; 1d12h and 1s more: 25 Dec 12:00:01
		{"two leaves", "3d/move", "2026-12-20T12:00:00Z", "2026-12-21", "2026-12-23", "2026-12-25T12:00:01Z"},
		// 21–22 and 22–23 Dec: the union 21–23 (3 days) stops the clock;
		// 12h before, 2d12h and 1s after 24 Dec 00:00: 26 Dec 12:00:01
		// (counting 4 leave days, the sum, would give 27 Dec)
		{"overlapping leaves", "3d/move", "2026-12-20T12:00:00Z", "2026-12-21/2026-12-22", "2026-12-22/2026-12-23", "2026-12-26T12:00:01Z"},
		// a leave that ends before the clock starts changes nothing
		{"past leave", "3d/move", "2026-12-20T12:00:00Z", "2026-12-01/2026-12-19", "", "2026-12-23T12:00:01Z"},
		// iccf with 2 days of leave: 25 Nov + 2 days
		{"iccf with leave", "26d+0d iccf", "2026-11-01T00:00:00Z", "", "2026-11-10/2026-11-11", "2026-11-27T00:00:00Z"},
		// leave across the year boundary, 30 Dec – 2 Jan (4 days): from 28
		// Dec the clock has run 2 days when it stops at 30 Dec 00:00; the
		// 1 day and 1s to go run from 3 Jan 00:00
		{"leave over new year", "3d/move", "2026-12-28T00:00:00Z", "2026-12-30/2027-01-02", "", "2027-01-04T00:00:01Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state(t, game(t, tt.control, tt.start, nil, tt.aLeave, tt.dLeave))
			d, ok := s.Deadline()
			if !ok || !d.Equal(ts(t, tt.want)) {
				t.Fatalf("Deadline() = %v, %v; want %s", d.Format(time.RFC3339), ok, tt.want)
			}
			// one second before it a ply is in time, at it late (C4: an
			// arrival before the deadline wins)
			if s.Charge(d.Add(-time.Second)).Late || !s.Charge(d).Late {
				t.Errorf("Charge just before / at the deadline: late %v / %v, want false / true",
					s.Charge(d.Add(-time.Second)).Late, s.Charge(d).Late)
			}
			if s.Expired(d.Add(-time.Second)) || !s.Expired(d) {
				t.Errorf("Expired just before / at the deadline: %v / %v", s.Expired(d.Add(-time.Second)), s.Expired(d))
			}
			if to := s.TimeoutAt(d); to == nil || to.Side != engine.Attackers || to.Ply != 0 || !to.Deadline.Equal(d) {
				t.Errorf("TimeoutAt(deadline) = %+v", to)
			}
		})
	}
	if _, ok := state(t, game(t, "none", "2026-11-01T00:00:00Z", nil, "", "")).Deadline(); ok {
		t.Error("an untimed game has a deadline")
	}
}

// TestRemainingAndShow: both clocks at a moment, leave shown, the clock
// standing still during leave.
func TestRemainingAndShow(t *testing.T) {
	// 30d+1d; attackers played after 1 day (30 − 1 + 1 = 30d); the
	// defenders' clock runs from 2 Nov; the defenders are on leave 4 Nov.
	g := game(t, "30d+1d", "2026-11-01T00:00:00Z", []string{"2026-11-02T00:00:00Z"}, "", "2026-11-04")
	s := state(t, g)
	// 3 Nov 06:00: 1d6h used: 28d18h left
	c := s.Show(ts(t, "2026-11-03T06:00:00Z"))
	want := Clocks{At: ts(t, "2026-11-03T06:00:00Z"), Timed: true, ToMove: engine.Defenders,
		Remaining: [2]time.Duration{30 * day, 28*day + 18*time.Hour}, Deadline: ts(t, "2026-12-03T00:00:01Z")}
	// deadline: 30 days of clock from 2 Nov, plus 1 day of leave: 3 Dec 00:00, +1 s
	if c != want {
		t.Errorf("Show(3 Nov 06:00) =\n %+v\nwant\n %+v", c, want)
	}
	// during the leave (4 Nov 00:00 – 5 Nov 00:00) the clock stands at 2
	// days used: 28d left, at 4 Nov 00:00 as at 4 Nov 23:59:59
	for _, at := range []string{"2026-11-04T00:00:00Z", "2026-11-04T23:59:59Z"} {
		c = s.Show(ts(t, at))
		if c.Remaining[engine.Defenders] != 28*day || !c.OnLeave[engine.Defenders] || c.OnLeave[engine.Attackers] || !s.Paused(ts(t, at)) {
			t.Errorf("Show(%s) = %+v; want 28d left, defenders on leave", at, c)
		}
	}
	if s.OnLeave(engine.Defenders, ts(t, "2026-11-05T00:00:00Z")) {
		t.Error("the leave of 4 Nov still runs at 5 Nov 00:00")
	}
	// iccf: 30d+1d iccf, 23 hours into the attackers' first ply: nothing
	// charged yet, 30d; a day later 29d
	s = state(t, game(t, "30d+1d iccf", "2026-11-01T00:00:00Z", nil, "", ""))
	if r := s.Remaining(engine.Attackers, ts(t, "2026-11-01T23:00:00Z")); r != 30*day {
		t.Errorf("iccf Remaining after 23h = %v, want 30d", r)
	}
	if r := s.Remaining(engine.Attackers, ts(t, "2026-11-02T23:00:00Z")); r != 29*day {
		t.Errorf("iccf Remaining after 1d23h = %v, want 29d", r)
	}
	if c := state(t, game(t, "none", "2026-11-01T00:00:00Z", nil, "", "")).Show(ts(t, "2026-11-09T00:00:00Z")); c.Timed || c.Remaining != [2]time.Duration{} {
		t.Errorf("untimed Show = %+v", c)
	}
}

// TestReminders: thresholds of §4.1, for both accountings, a clock
// already below a threshold, untimed games and leave.
func TestReminders(t *testing.T) {
	type rem struct {
		threshold time.Duration
		at        string
	}
	tests := []struct {
		name, control, aLeave, dLeave string
		thresholds                    []time.Duration
		want                          []rem
	}{
		// 30 days from 1 Nov: below 7d once 23d + 1s have run (24 Nov
		// 00:00:01), below 2d after 28d + 1s (29 Nov), below 12h after
		// 29d12h + 1s (30 Nov 12:00:01)
		{"exact, default thresholds", "30d+1d", "", "", nil, []rem{
			{7 * day, "2026-11-24T00:00:01Z"}, {2 * day, "2026-11-29T00:00:01Z"}, {12 * time.Hour, "2026-11-30T12:00:01Z"}}},
		// iccf: below 7d when more than 23d are charged: day 22 costs 24 →
		// 23 Nov; below 2d when more than 28 are charged: day 25 costs 30
		// → 26 Nov; below 12h: more than 29d12h, also day 25 (26 Nov). The
		// deadline is 27 Nov (day 26 costs 32 > 30).
		{"iccf, default thresholds", "30d+1d iccf", "", "", nil, []rem{
			{7 * day, "2026-11-23T00:00:00Z"}, {2 * day, "2026-11-26T00:00:00Z"}, {12 * time.Hour, "2026-11-26T00:00:00Z"}}},
		// 5 days: already below 7d when the clock starts, no reminder for
		// it; below 2d after 3d + 1s, below 12h after 4d12h + 1s
		{"already below a threshold", "5d+1d", "", "", nil, []rem{
			{2 * day, "2026-11-04T00:00:01Z"}, {12 * time.Hour, "2026-11-05T12:00:01Z"}}},
		// 2 days: the clock starts at the 2d threshold, not below it;
		// "below 2d" one second into the game would be noise: only 12h,
		// after 1d12h + 1s
		{"at a threshold from the start", "2d+0d", "", "", nil, []rem{
			{12 * time.Hour, "2026-11-02T12:00:01Z"}}},
		// configured thresholds; duplicates and non-positive ones ignored
		{"configured thresholds", "3d/move", "", "", []time.Duration{day, day, 0, -time.Hour}, []rem{
			{day, "2026-11-03T00:00:01Z"}}},
		// iccf 21d: below 12h only when more than 20d12h are charged: day
		// 21 (charged 22), which is the deadline itself: no reminder
		{"iccf: a reminder at the deadline is left out", "21d+0d iccf", "", "", []time.Duration{12 * time.Hour}, nil},
		// the defenders' leave 10 Nov (1 day) moves every reminder of the
		// attackers by a day
		{"leave moves reminders", "30d+1d", "", "2026-11-10", nil, []rem{
			{7 * day, "2026-11-25T00:00:01Z"}, {2 * day, "2026-11-30T00:00:01Z"}, {12 * time.Hour, "2026-12-01T12:00:01Z"}}},
		// untimed: 7, 14 and 21 days without a ply
		{"untimed", "none", "", "", nil, []rem{
			{7 * day, "2026-11-08T00:00:00Z"}, {14 * day, "2026-11-15T00:00:00Z"}, {21 * day, "2026-11-22T00:00:00Z"}}},
		// untimed with the mover on leave 3–4 Nov: two days later each
		{"untimed with leave", "none", "2026-11-03/2026-11-04", "", nil, []rem{
			{7 * day, "2026-11-10T00:00:00Z"}, {14 * day, "2026-11-17T00:00:00Z"}, {21 * day, "2026-11-24T00:00:00Z"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state(t, game(t, tt.control, "2026-11-01T00:00:00Z", nil, tt.aLeave, tt.dLeave))
			got := s.Reminders(tt.thresholds)
			if len(got) != len(tt.want) {
				t.Fatalf("Reminders() = %+v, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				r := got[i]
				if r.Threshold != w.threshold || !r.At.Equal(ts(t, w.at)) || r.Ply != 1 || r.Side != engine.Attackers {
					t.Errorf("reminder %d = %+v, want %v at %s, ply 1, attackers", i, r, w.threshold, w.at)
				}
				if s.Control.Timed() {
					// the remaining time is at least T just before, below T at it
					before := s.Remaining(engine.Attackers, r.At.Add(-time.Second))
					now := s.Remaining(engine.Attackers, r.At)
					if before < r.Threshold || now >= r.Threshold {
						t.Errorf("reminder %v at %s: remaining %v just before and %v at it", r.Threshold, w.at, before, now)
					}
				}
			}
		})
	}
}

// TestTimers: reminders and the deadline in order, with stable keys; the
// next reminder after a moment.
func TestTimers(t *testing.T) {
	// 3d/move from 1 Nov, attackers played 2 Nov: the defenders' ply 2.
	// Thresholds 2d and 12h: 1d + 1s and 2d12h + 1s after 2 Nov; deadline
	// 3d + 1s after.
	s := state(t, game(t, "3d/move", "2026-11-01T00:00:00Z", []string{"2026-11-02T00:00:00Z"}, "", ""))
	got := s.Timers([]time.Duration{2 * day, 12 * time.Hour})
	want := []Timer{
		{Kind: TimerReminder, Side: engine.Defenders, Ply: 2, Threshold: 2 * day, At: ts(t, "2026-11-03T00:00:01Z")},
		{Kind: TimerReminder, Side: engine.Defenders, Ply: 2, Threshold: 12 * time.Hour, At: ts(t, "2026-11-04T12:00:01Z")},
		{Kind: TimerDeadline, Side: engine.Defenders, Ply: 2, At: ts(t, "2026-11-05T00:00:01Z")},
	}
	if len(got) != len(want) {
		t.Fatalf("Timers = %+v, want %+v", got, want)
	}
	keys := []string{"ply 2 reminder 2d", "ply 2 reminder 12h", "ply 2 deadline"}
	for i := range want {
		if got[i] != want[i] || got[i].Key() != keys[i] {
			t.Errorf("timer %d = %+v (%q), want %+v (%q)", i, got[i], got[i].Key(), want[i], keys[i])
		}
	}
	r, ok := s.NextReminder(ts(t, "2026-11-03T00:00:01Z"), []time.Duration{2 * day, 12 * time.Hour})
	if !ok || r.Threshold != 12*time.Hour {
		t.Errorf("NextReminder after the first = %+v, %v; want the 12h one", r, ok)
	}
	if _, ok := s.NextReminder(ts(t, "2026-11-04T12:00:01Z"), []time.Duration{2 * day, 12 * time.Hour}); ok {
		t.Error("a reminder after the last one")
	}
	// untimed: reminders only
	u := state(t, game(t, "none", "2026-11-01T00:00:00Z", nil, "", ""))
	for _, tm := range u.Timers(nil) {
		if tm.Kind != TimerReminder {
			t.Errorf("untimed game has a %v timer", tm.Kind)
		}
	}
}

// TestDeadlineProperty: for random controls, plies and leaves, a ply one
// second before the deadline is in time and one at it is late, and the
// remaining time at the deadline's second before is not negative.
func TestDeadlineProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	controls := []string{"30d+1d", "6d12h+10h", "10d+2d max 20d", "3d/move", "30d+1d iccf", "3d/move iccf", "2d+0d", "1d12h+1h iccf"}
	base := ts(t, "2026-11-01T00:00:00Z")
	for n := 0; n < 500; n++ {
		g := &Game{Control: control(t, controls[rng.Intn(len(controls))]), Start: base, FirstSide: engine.Side(rng.Intn(2))}
		for side := range g.Leave {
			for k := rng.Intn(3); k > 0; k-- {
				first := base.Add(time.Duration(rng.Intn(60)) * day)
				l, _ := notation.NewLeave(first, first.Add(time.Duration(rng.Intn(5))*day))
				g.Leave[side] = append(g.Leave[side], l)
			}
		}
		at := base
		for k := rng.Intn(6); k > 0; k-- {
			at = at.Add(time.Duration(rng.Int63n(int64(2 * day))))
			g.Plies = append(g.Plies, Ply{Arrival: at.Truncate(time.Second)})
		}
		s := state(t, g)
		d, ok := s.Deadline()
		if !ok {
			continue // lost on time in the plies
		}
		if c := s.Charge(d.Add(-time.Second)); c.Late || c.Left < 0 {
			t.Fatalf("game %+v: a second before the deadline %v the charge is %+v", g, d, c)
		}
		if !s.Charge(d).Late {
			t.Fatalf("game %+v: at the deadline %v not late", g, d)
		}
	}
}

// TestTimedThresholds: a control no longer than every threshold is
// reminded once, at a quarter of its starting time rounded down to a
// minute; any other keeps the operator's thresholds.
func TestTimedThresholds(t *testing.T) {
	def := DefaultTimedReminders
	tests := []struct {
		name, control string
		thresholds    []time.Duration
		want          []time.Duration
		short         bool
	}{
		{"long control: the defaults", "30d+1d", nil, def, false},
		{"1d: 12h is below it, the defaults", "1d+0d", nil, def, false},
		{"just over 12h: the defaults", "12h1m+0d", nil, def, false},
		{"12h: no threshold below it, a quarter", "12h+0d", nil, []time.Duration{3 * time.Hour}, true},
		{"10m+5m: a quarter, rounded down to 2m", "10m+5m", nil, []time.Duration{2 * time.Minute}, true},
		{"per move: a quarter of the move's time", "90m/move", nil, []time.Duration{22 * time.Minute}, true},
		{"iccf counts too", "8h+0d iccf", nil, []time.Duration{2 * time.Hour}, true},
		{"4m: 1m", "4m+0d", nil, []time.Duration{time.Minute}, true},
		{"under 4m: none", "3m+0d", nil, nil, true},
		{"configured below the control: kept", "8m+0d", []time.Duration{2 * time.Minute}, []time.Duration{2 * time.Minute}, false},
		{"configured, all longer: a quarter", "1h+0d", []time.Duration{2 * time.Hour, 90 * time.Minute}, []time.Duration{15 * time.Minute}, true},
		{"reminders switched off stay off", "1h+0d", []time.Duration{}, nil, false},
		{"only non-positive: off", "1h+0d", []time.Duration{0, -time.Hour}, nil, false},
		{"untimed: as given", "none", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := control(t, tt.control)
			got := TimedThresholds(tc, tt.thresholds)
			if !slices.Equal(got, tt.want) {
				t.Errorf("TimedThresholds(%s, %v) = %v, want %v", tt.control, tt.thresholds, got, tt.want)
			}
			if short := ShortControl(tc, tt.thresholds); short != tt.short {
				t.Errorf("ShortControl(%s, %v) = %v, want %v", tt.control, tt.thresholds, short, tt.short)
			}
		})
	}
}

// TestShortControlReminders: the reminders of games shorter than the
// thresholds, one a ply, when a quarter of the starting time is left,
// and never at or after the deadline.
func TestShortControlReminders(t *testing.T) {
	tests := []struct {
		name, control string
		arrivals      []string
		thresholds    []time.Duration
		want          []Reminder
	}{
		// 10m from 00:00: below 2m once 8m + 1s have run
		{"10m first ply", "10m+0d", nil, nil, []Reminder{
			{Side: engine.Attackers, Ply: 1, Threshold: 2 * time.Minute, At: ts(t, "2026-11-01T00:08:01Z")}}},
		// the defenders' clock is fresh, 10m from the attackers' ply at
		// 00:01: below 2m at 00:09:01
		{"10m+5m second ply", "10m+5m", []string{"2026-11-01T00:01:00Z"}, nil, []Reminder{
			{Side: engine.Defenders, Ply: 2, Threshold: 2 * time.Minute, At: ts(t, "2026-11-01T00:09:01Z")}}},
		// the attackers' second turn: 10m − 1m + 5m = 14m from 00:03;
		// below 2m once 12m + 1s have run: 00:15:01
		{"10m+5m third ply, clock above the start", "10m+5m", []string{"2026-11-01T00:01:00Z", "2026-11-01T00:03:00Z"}, nil, []Reminder{
			{Side: engine.Attackers, Ply: 3, Threshold: 2 * time.Minute, At: ts(t, "2026-11-01T00:15:01Z")}}},
		// 90m/move: below 22m after 68m + 1s
		{"per move", "90m/move", nil, nil, []Reminder{
			{Side: engine.Attackers, Ply: 1, Threshold: 22 * time.Minute, At: ts(t, "2026-11-01T01:08:01Z")}}},
		// iccf 8h: the first charge is a whole day, past the deadline: none
		{"iccf short: at the deadline, left out", "8h+0d iccf", nil, nil, nil},
		{"switched off", "10m+0d", nil, []time.Duration{}, nil},
		{"under 4 minutes", "3m+0d", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state(t, game(t, tt.control, "2026-11-01T00:00:00Z", tt.arrivals, "", ""))
			got := s.Reminders(tt.thresholds)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Reminders() = %+v, want %+v", got, tt.want)
			}
			for _, r := range got {
				before, now := s.Remaining(r.Side, r.At.Add(-time.Second)), s.Remaining(r.Side, r.At)
				if before < r.Threshold || now >= r.Threshold {
					t.Errorf("reminder %v at %s: remaining %v just before and %v at it", r.Threshold, r.At, before, now)
				}
			}
		})
	}
	// the timer's key names the scaled threshold: the same after a restart
	s := state(t, game(t, "10m+0d", "2026-11-01T00:00:00Z", nil, "", ""))
	var keys []string
	for _, tm := range s.Timers(nil) {
		keys = append(keys, tm.Key())
	}
	if want := []string{"ply 1 reminder 2m", "ply 1 deadline"}; !slices.Equal(keys, want) {
		t.Errorf("timers of a 10m game: %q, want %q", keys, want)
	}
}
