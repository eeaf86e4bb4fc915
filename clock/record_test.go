package clock

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// replay reads one brandubh record and replays it.
func replay(t *testing.T, text string) *notation.Replay {
	t.Helper()
	v, _ := engine.Lookup("brandubh")
	games, err := notation.ReadGames("r.tafl", []byte(text), notation.ReadOptions{Format: notation.FormatNative, Variant: v})
	if err != nil || len(games) != 1 {
		t.Fatalf("ReadGames: %v, %d games", err, len(games))
	}
	return games[0].Replay()
}

// record builds a brandubh record with the given tags (after Variant) and
// the legal plies d1-e1 d3-f3 d2-f2xf3 c4-c2 a4-a3 e4-e2, each with the
// %ts given ("" for none; fewer times: fewer plies), then the result.
func record(tags string, times []string, tail string) string {
	plies := []string{"d1-e1", "d3-f3", "d2-f2xf3", "c4-c2", "a4-a3", "e4-e2"}
	var b strings.Builder
	b.WriteString("[Variant \"brandubh\"]\n" + tags + "\n")
	for i, ts := range times {
		if i%2 == 0 {
			b.WriteString(" " + string(rune('1'+i/2)) + ".")
		}
		b.WriteString(" " + plies[i])
		if ts != "" {
			b.WriteString(" {[%ts " + ts + "]}")
		}
	}
	b.WriteString(" " + tail + "\n")
	return b.String()
}

func TestJudge(t *testing.T) {
	const fischer = "[TimeControl \"30d+1d\"]\n[Start \"2026-11-01T00:00:00Z\"]\n"
	const perMove = "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n"
	tests := []struct {
		name    string
		text    string
		at      string
		left    [2]time.Duration
		plies   int
		timeout *Timeout
		pending bool
		claim   bool
	}{
		// attackers 1d (30 − 1 + 1 = 30d), defenders 2d (29d), attackers
		// 12h (30d12h), defenders 12h (29d12h)
		{name: "fischer, in time",
			text:  record(fischer, []string{"2026-11-02T00:00:00Z", "2026-11-04T00:00:00Z", "2026-11-04T12:00:00Z", "2026-11-05T00:00:00Z"}, "*"),
			left:  [2]time.Duration{30*day + 12*time.Hour, 29*day + 12*time.Hour},
			plies: 4},
		// per move: t for both sides at every ply
		{name: "per move, in time",
			text: record(perMove, []string{"2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z"}, "*"),
			left: [2]time.Duration{3 * day, 3 * day}, plies: 2},
		// the attackers' third ply arrived 4 days after the defenders'
		// second (11-04 → 11-08): late; N = 4, the deadline 11-07 00:00:01
		{name: "a late ply in the record",
			text: record(perMove, []string{"2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z", "2026-11-04T00:00:00Z", "2026-11-04T00:00:00Z", "2026-11-08T00:00:00Z", "2026-11-08T01:00:00Z"}, "defenders"),
			left: [2]time.Duration{3 * day, 3 * day}, plies: 4,
			timeout: &Timeout{Side: engine.Attackers, Ply: 4, Deadline: time.Date(2026, 11, 7, 0, 0, 1, 0, time.UTC)}},
		// the first mover never moved in time: N = 0
		{name: "the first mover late",
			text:    record(perMove, []string{"2026-11-05T00:00:00Z"}, "defenders"),
			left:    [2]time.Duration{3 * day, 3 * day},
			timeout: &Timeout{Side: engine.Attackers, Ply: 0, Deadline: time.Date(2026, 11, 4, 0, 0, 1, 0, time.UTC)}},
		// pending: the defenders' clock ran from 11-02; at 11-05 00:00:01
		// 3d and 1s have run: late; N = 1
		{name: "judged at a moment after the deadline",
			text: record(perMove, []string{"2026-11-02T00:00:00Z"}, "*"), at: "2026-11-05T00:00:01Z",
			left: [2]time.Duration{3 * day, 3 * day}, plies: 1, pending: true,
			timeout: &Timeout{Side: engine.Defenders, Ply: 1, Deadline: time.Date(2026, 11, 5, 0, 0, 1, 0, time.UTC)}},
		// … at 11-05 00:00:00 exactly 3d: still in time
		{name: "judged at the last moment in time",
			text: record(perMove, []string{"2026-11-02T00:00:00Z"}, "*"), at: "2026-11-05T00:00:00Z",
			left: [2]time.Duration{3 * day, 3 * day}, plies: 1},
		// the defenders' leave 11-03 moves their deadline a day on
		{name: "judged with the opponent's leave",
			text: record(perMove+"[AttackersLeave \"2026-11-03\"]\n", []string{"2026-11-02T00:00:00Z"}, "*"), at: "2026-11-05T12:00:00Z",
			left: [2]time.Duration{3 * day, 3 * day}, plies: 1},
		// the record's own time-out, declared at 11-05 00:00:01: it holds
		{name: "a final time-out with its %ts",
			text: record(perMove, []string{"2026-11-02T00:00:00Z"}, "timeout {[%ts 2026-11-05T00:00:01Z]} attackers"),
			left: [2]time.Duration{3 * day, 3 * day}, plies: 1,
			timeout: &Timeout{Side: engine.Defenders, Ply: 1, Deadline: time.Date(2026, 11, 5, 0, 0, 1, 0, time.UTC)}},
		// … declared a day early: the clocks do not show it
		{name: "a final time-out before the deadline",
			text: record(perMove, []string{"2026-11-02T00:00:00Z"}, "timeout {[%ts 2026-11-04T00:00:00Z]} attackers"),
			left: [2]time.Duration{3 * day, 3 * day}, plies: 1, claim: true},
		// a resignation is not judged at a moment
		{name: "a resignation",
			text: record(perMove, []string{"2026-11-02T00:00:00Z"}, "--- attackers"), at: "2026-12-01T00:00:00Z",
			left: [2]time.Duration{3 * day, 3 * day}, plies: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := replay(t, tt.text)
			var at time.Time
			if tt.at != "" {
				at = ts(t, tt.at)
			}
			v, err := Judge(r, at)
			if err != nil || v == nil {
				t.Fatalf("Judge = %v, %v (replay errors %v)", v, err, r.Errors)
			}
			if v.Left != tt.left || v.Plies != tt.plies || v.Pending != tt.pending || (v.Claim != nil) != tt.claim {
				t.Errorf("Judge: left %v, plies %d, pending %v, claim %v; want %v, %d, %v, %v", v.Left, v.Plies, v.Pending, v.Claim, tt.left, tt.plies, tt.pending, tt.claim)
			}
			if (v.Timeout == nil) != (tt.timeout == nil) || v.Timeout != nil && *v.Timeout != *tt.timeout {
				t.Errorf("Timeout = %+v, want %+v", v.Timeout, tt.timeout)
			}
		})
	}
}

// TestJudgeAfterTheRules: the rules ended the game before any deadline:
// the plies after the end do not count, and no time-out is found.
func TestJudgeAfterTheRules(t *testing.T) {
	// brandubh.csv line 102 (the attackers capture the king on ply 7),
	// all plies in time, judged a year later
	text := "[Variant \"brandubh\"]\n[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n"
	moves := []string{"d2-e2", "c4-c5", "b4-b3", "e4-e3", "f4-f5", "Kd4-f4", "a4-e4xe3"}
	for i, m := range moves {
		if i%2 == 0 {
			text += string(rune('1'+i/2)) + ". "
		}
		text += m + " {[%ts 2026-11-0" + string(rune('2'+i)) + "T00:00:00Z]} "
	}
	r := replay(t, text+"attackers")
	v, err := Judge(r, ts(t, "2027-11-01T00:00:00Z"))
	if err != nil || v == nil || v.Timeout != nil || v.Plies != 7 {
		t.Errorf("Judge = %+v, %v; want 7 plies, no time-out", v, err)
	}
}

// TestJudgeNothing: records without a clock, and broken clock data.
func TestJudgeNothing(t *testing.T) {
	for _, text := range []string{
		record("", []string{"", ""}, "*"),
		record("[TimeControl \"none\"]\n[Start \"2026-11-01T00:00:00Z\"]\n", []string{"2026-11-02T00:00:00Z"}, "*"),
		record("[TimeControl \"3d/move\"]\n", []string{"", ""}, "*"),
		record("[TimeControl \"3 days per move\"]\n", []string{"", ""}, "*"),
	} {
		if v, err := Judge(replay(t, text), time.Time{}); v != nil || err != nil {
			t.Errorf("Judge(%q) = %+v, %v; want nil, nil", text, v, err)
		}
	}
	r := replay(t, record("[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n", []string{"2026-11-02T00:00:00Z", ""}, "*"))
	if _, err := Judge(r, time.Time{}); !errors.Is(err, notation.ErrClock) {
		t.Errorf("Judge with a ply without %%ts: %v, want a clock error", err)
	}
}

// TestRefereeFlow is the example of docs/clock.md: what the referee does
// with a move, a timer and a leave command.
func TestRefereeFlow(t *testing.T) {
	g := &Game{Control: control(t, "10d+1d"), Start: ts(t, "2026-12-01T00:00:00Z"), FirstSide: engine.Attackers}

	// a move arrives (INTERNALDATE 3 Dec 12:00): charge it
	st := state(t, g)
	c := st.Charge(ts(t, "2026-12-03T12:00:00Z"))
	if c.Late || c.Clock != 8*day+12*time.Hour { // 10 − 2d12h + 1
		t.Fatalf("charge = %+v", c)
	}
	g.Plies = append(g.Plies, Ply{Arrival: ts(t, "2026-12-03T12:00:00Z")})

	// the timers of the defenders' ply: 7d, 2d, 12h below 10d, deadline
	st = state(t, g)
	timers := st.Timers(nil)
	if len(timers) != 4 || timers[3].Kind != TimerDeadline || !timers[3].At.Equal(ts(t, "2026-12-13T12:00:01Z")) {
		t.Fatalf("timers = %+v", timers)
	}

	// the defenders take leave 10–11 Dec: every timer moves 2 days on
	leave, err := TakeLeave(nil, leaves(t, "2026-12-10/2026-12-11")[0], ts(t, "2026-12-04T09:00:00Z"), DefaultLeaveDays)
	if err != nil {
		t.Fatal(err)
	}
	g.Leave[engine.Defenders] = leave
	st = state(t, g)
	if d, _ := st.Deadline(); !d.Equal(ts(t, "2026-12-15T12:00:01Z")) {
		t.Errorf("deadline after the leave = %v", d)
	}

	// the deadline timer fires; after reading the inbox up to it, no
	// move: the defenders lost on time after ply 1
	d, _ := st.Deadline()
	if to := st.TimeoutAt(d); to == nil || to.Side != engine.Defenders || to.Ply != 1 {
		t.Errorf("TimeoutAt(deadline) = %+v", to)
	}
}
