package notation

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

func TestTimeControlValue(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		text string // the canonical form
	}{
		{"none", TimeControl{}, "none"},
		{"30D+1D", TimeControl{Kind: Fischer, Base: 30 * Day, Increment: Day}, "30d+1d"},
		// 36h is 1d12h; 90m is 1h30m
		{"36h+90m", TimeControl{Kind: Fischer, Base: 36 * time.Hour, Increment: 90 * time.Minute}, "1d12h+1h30m"},
		{"7d+0d", TimeControl{Kind: Fischer, Base: 7 * Day}, "7d+0d"},
		{"10d+2d max 20d iccf", TimeControl{Kind: Fischer, Base: 10 * Day, Increment: 2 * Day, Cap: 20 * Day, ICCF: true}, "10d+2d max 20d iccf"},
		{"3d/move", TimeControl{Kind: PerMove, PerMove: 3 * Day}, "3d/move"},
		{"2d 12h/move ICCF", TimeControl{Kind: PerMove, PerMove: 2*Day + 12*time.Hour, ICCF: true}, "2d12h/move iccf"},
	}
	for _, tt := range tests {
		got, err := ParseTimeControl("tc", tt.in)
		if err != nil {
			t.Errorf("ParseTimeControl(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want || got.String() != tt.text {
			t.Errorf("ParseTimeControl(%q) = %+v (%q), want %+v (%q)", tt.in, got, got.String(), tt.want, tt.text)
		}
		again, err := ParseTimeControl("tc", got.String())
		if err != nil || again != got {
			t.Errorf("%q reads back as %+v, %v", got.String(), again, err)
		}
		if got.Timed() != (tt.want.Kind != Untimed) {
			t.Errorf("%q Timed() = %v", tt.in, got.Timed())
		}
	}
	_, err := ParseTimeControl("tc", "30d")
	var ge *grammar.Error
	if !errors.As(err, &ge) || ge.Col != 4 {
		t.Errorf("ParseTimeControl(30d) error = %v, want a *grammar.Error at column 4", err)
	}
	if tc := TimeControlOf(nil); tc.Timed() {
		t.Errorf("TimeControlOf(nil) = %+v, want none", tc)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                "0d",
		59 * time.Second: "0d",
		29*Day + 23*time.Hour + 12*time.Minute + 59*time.Second: "29d23h12m",
		2 * Day:            "2d",
		12 * time.Hour:     "12h",
		-(Day + time.Hour): "-1d1h",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestLeaveValue(t *testing.T) {
	ls, err := ParseLeaves("tag", "2026-12-24/2027-01-02, 2027-07-01")
	if err != nil {
		t.Fatal(err)
	}
	l := ls[0]
	// 24 Dec – 2 Jan: 8 days in 2026, 2 in 2027, 10 in all; it ends at
	// 24:00 on 2 Jan
	if l.Days() != 10 || l.DaysIn(2026) != 8 || l.DaysIn(2027) != 2 || l.DaysIn(2028) != 0 ||
		!l.End().Equal(time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC)) || l.String() != "2026-12-24/2027-01-02" {
		t.Errorf("leave %v: days %d, in 2026 %d, in 2027 %d, end %v", l, l.Days(), l.DaysIn(2026), l.DaysIn(2027), l.End())
	}
	if !l.Contains(time.Date(2027, 1, 2, 23, 59, 59, 0, time.UTC)) || l.Contains(l.End()) || l.Contains(l.First.Add(-time.Second)) {
		t.Error("Contains disagrees with 00:00 on the first day to 24:00 on the last")
	}
	if ls[1].Days() != 1 || FormatLeaves(ls) != "2026-12-24/2027-01-02, 2027-07-01/2027-07-01" {
		t.Errorf("one-day leave %v, list %q", ls[1], FormatLeaves(ls))
	}
	// a leave tag's interval; the last before the first is refused at
	// the last date
	tag, err := grammar.ParseLeaves("tag", "2026-12-24/2026-12-20")
	if err != nil {
		t.Fatal(err)
	}
	iv := tag.Intervals[0]
	if _, err := LeaveOf(iv.First, iv.Last); err == nil || err.Error() != "tag:1:12: the last day 2026-12-20 is before the first day 2026-12-24" {
		t.Errorf("LeaveOf reversed = %v", err)
	}
	if one, err := LeaveOf(iv.First, nil); err != nil || one.Days() != 1 {
		t.Errorf("LeaveOf(first, nil) = %v, %v", one, err)
	}
	if _, err := NewLeave(l.Last, l.First); err == nil {
		t.Error("NewLeave reversed: no error")
	}
}

// timedRecord is a brandubh game with a clock: 3d/move, both players'
// leave, a late commit after ply 2.
const timedRecord = `[Variant "brandubh"]
[TimeControl "3D/move"]
[Start "2026-11-01T00:00:00+01:00"]
[DefendersLeave "2026-11-10/2026-11-11"]
[AttackersLeave "2026-11-20"]

1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} d3-f3 {[%ts 2026-11-03T00:00:00Z] [%avail 2026-11-03T06:00:00Z] nice} 2. d2-f2xf3 {[%clk 1d] [%ts 2026-11-04T00:00:00Z]} {plain}
c4-c2 {[%ts 2026-11-05T00:00:00Z] [%eval 0.3]} *
`

func TestReadTimedRecord(t *testing.T) {
	r := replayText(t, FormatNative, timedRecord)
	g := r.Game
	if g.ClockErr != nil || len(r.Errors) != 0 {
		t.Fatalf("ClockErr %v, errors %v", g.ClockErr, r.Errors)
	}
	c, err := g.Clock()
	if err != nil {
		t.Fatal(err)
	}
	// Start at +01:00 is 31 Oct 23:00 UTC
	want := Clock{Control: TimeControl{Kind: PerMove, PerMove: 3 * Day}, Start: time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC)}
	want.Leave[engine.Defenders] = []Leave{{First: time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC), Last: time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)}}
	want.Leave[engine.Attackers] = []Leave{{First: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), Last: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)}}
	if c.Control != want.Control || !c.Start.Equal(want.Start) || FormatLeaves(c.Leave[0]) != FormatLeaves(want.Leave[0]) || FormatLeaves(c.Leave[1]) != FormatLeaves(want.Leave[1]) {
		t.Errorf("Clock() = %+v, want %+v", c, want)
	}
	day := func(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }
	wantTimes := []PlyTime{{Arrival: day(2, 0)}, {Arrival: day(3, 0), Avail: day(3, 6)}, {Arrival: day(4, 0)}, {Arrival: day(5, 0)}}
	wantComments := [][]string{nil, {"nice"}, {"plain"}, {"[%eval 0.3]"}}
	for i, p := range g.Plies {
		if p.Time != wantTimes[i] || strings.Join(p.Comments, "|") != strings.Join(wantComments[i], "|") {
			t.Errorf("ply %d: time %+v, comments %q; want %+v, %q", i+1, p.Time, p.Comments, wantTimes[i], wantComments[i])
		}
	}
	if got := g.Plies[1].Time.Available(); !got.Equal(day(3, 6)) {
		t.Errorf("Available() = %v, want the commit", got)
	}

	// written back canonically: tags normalised, %ts first, %clk gone
	// (it is never read), the commit kept
	var buf bytes.Buffer
	if err := WriteNative(&buf, r); err != nil {
		t.Fatal(err)
	}
	wantText := `[Variant "brandubh"]
[TimeControl "3d/move"]
[Start "2026-10-31T23:00:00Z"]
[AttackersLeave "2026-11-20/2026-11-20"]
[DefendersLeave "2026-11-10/2026-11-11"]
[Result "*"]

1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} d3-f3
{[%ts 2026-11-03T00:00:00Z] [%avail 2026-11-03T06:00:00Z]} {nice} 2. d2-f2xf3
{[%ts 2026-11-04T00:00:00Z]} {plain} c4-c2 {[%ts 2026-11-05T00:00:00Z]}
{[%eval 0.3]} *
`
	// (lines break between items at 80 columns: the 59 characters of the
	// second ply's comment do not fit after the 43 before them)
	if buf.String() != wantText {
		t.Errorf("WriteNative:\n%s\nwant\n%s", buf.String(), wantText)
	}
	// and reads back to the same text (the writer is canonical)
	again := replayText(t, FormatNative, buf.String())
	var buf2 bytes.Buffer
	if err := WriteNative(&buf2, again); err != nil || buf2.String() != buf.String() {
		t.Errorf("written twice:\n%s\nthen\n%s (%v)", buf.String(), buf2.String(), err)
	}

	// %clk is written when the caller sets it
	g.Plies[0].Time.Clock, g.Plies[0].Time.HasClock = 2*Day+23*time.Hour, true
	buf.Reset()
	if err := WriteNative(&buf, r); err != nil || !strings.Contains(buf.String(), "{[%ts 2026-11-02T00:00:00Z] [%clk 2d23h]}") {
		t.Errorf("with %%clk: %s (%v)", buf.String(), err)
	}
}

// TestClockErrors: broken clock data is reported (KindClock), the record
// stays legal, and records without clock data are as before.
func TestClockErrors(t *testing.T) {
	const moves = "1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} d3-f3 {[%ts 2026-11-03T00:00:00Z]} *"
	tests := []struct{ name, text, want string }{
		{"malformed %ts", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02]} *",
			"t:4:11: ply 1 (attackers) d1-e1: [%ts 2026-11-02]: not an instant such as 2026-11-28T21:52:10Z"},
		{"unclosed command", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02T00:00:00Z} *",
			"t:4:36: ply 1 (attackers) d1-e1: comment command: expected \"]\", found end of input"},
		{"two %ts", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02T00:00:00Z] [%ts 2026-11-02T00:00:00Z]} *",
			"t:4:38: ply 1 (attackers) d1-e1: a second [%ts] for the same ply"},
		{"a ply without %ts", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} d3-f3 *",
			"t:4:39: ply 2 (defenders) d3-f3: the ply has no arrival time [%ts …]; every ply of a timed record needs one"},
		{"times out of order", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} d3-f3 {[%ts 2026-11-01T12:00:00Z]} *",
			"t:4:39: ply 2 (defenders) d3-f3: arrival time 2026-11-01T12:00:00Z is before 2026-11-02T00:00:00Z"},
		{"no Start", "[TimeControl \"3d/move\"]\n\n" + moves, "t:1:1: a timed record with [%ts] times needs a Start tag (when the game started)"},
		{"bad Start", "[TimeControl \"3d/move\"]\n[Start \"yesterday\"]\n\n" + moves, "t:2:1: Start: \"yesterday\" is not an instant such as 2026-11-28T21:14:00Z"},
		{"bad leave", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n[AttackersLeave \"2026-11-31\"]\n\n" + moves,
			"t:3:1: AttackersLeave: 2026-11-31 is not a day of the calendar"},
		{"free-text control with times", "[TimeControl \"3 days per move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n" + moves,
			"t:1:1: TimeControl \"3 days per move\": expected a unit \"d\", \"h\" or \"m\", found \"days\""},
		{"times without a control", "[Start \"2026-11-01T00:00:00Z\"]\n\n" + moves, "t:1:1: the record has clock times but no TimeControl tag"},
		// records without clock data, or untimed, are as before
		{"free-text control alone", "[TimeControl \"3 days per move\"]\n\n1. d1-e1 d3-f3 *", ""},
		{"a control without times", "[TimeControl \"3d/move\"]\n\n1. d1-e1 d3-f3 *", ""},
		{"untimed with times", "[TimeControl \"none\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} d3-f3 *", ""},
		{"a resignation without %ts", "[TimeControl \"3d/move\"]\n[Start \"2026-11-01T00:00:00Z\"]\n\n1. d1-e1 {[%ts 2026-11-02T00:00:00Z]} --- attackers", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := replayText(t, FormatNative, tt.text)
			got := ""
			if r.Game.ClockErr != nil {
				got = r.Game.ClockErr.Error()
				if !errors.Is(r.Game.ClockErr, ErrClock) || r.Err() == nil || r.Err().Kind != KindClock {
					t.Errorf("ClockErr %v is not reported as KindClock: %v", r.Game.ClockErr, r.Errors)
				}
				if !r.Legal {
					t.Errorf("broken clock data made the record illegal")
				}
			}
			if got != tt.want {
				t.Errorf("ClockErr = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSetClock: the tags are replaced, not added to.
func TestSetClock(t *testing.T) {
	g := &Game{Tags: []Tag{{"Event", "e"}, {TagTimeControl, "1d/move"}, {TagStart, "x"}}}
	var c Clock
	c.Control = TimeControl{Kind: Fischer, Base: 30 * Day, Increment: Day, ICCF: true}
	c.Start = time.Date(2026, 11, 28, 21, 14, 0, 0, time.UTC)
	c.Leave[engine.Defenders] = []Leave{{First: time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC), Last: time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)}}
	g.SetClock(c)
	want := []Tag{{"Event", "e"}, {TagTimeControl, "30d+1d iccf"}, {TagStart, "2026-11-28T21:14:00Z"}, {TagDefendersLeave, "2026-12-24/2027-01-02"}}
	if len(g.Tags) != len(want) {
		t.Fatalf("Tags = %v, want %v", g.Tags, want)
	}
	for i := range want {
		if g.Tags[i] != want[i] {
			t.Errorf("Tags = %v, want %v", g.Tags, want)
		}
	}
	back, err := g.Clock()
	if err != nil || back.Control != c.Control || !back.Start.Equal(c.Start) || FormatLeaves(back.Leave[1]) != "2026-12-24/2027-01-02" {
		t.Errorf("Clock() after SetClock = %+v, %v", back, err)
	}
	if g2 := (&Game{}); func() bool { c, err := g2.Clock(); return c != nil || err != nil }() {
		t.Error("a game without a TimeControl tag has a clock")
	}
}

// TestSetTimeout: a time-out ends the game unless the rules ended it
// first; plies after it are after the end; the record's result is
// checked when asked.
func TestSetTimeout(t *testing.T) {
	// six plies; the attackers ran out of time after ply 2
	const text = "1. d1-e1 d3-f3 2. d2-f2xf3 c4-c2 3. a4-a3 e4-e2 defenders"
	r := replayText(t, FormatNative, text)
	if !r.SetTimeout(engine.Attackers, 2, true) {
		t.Fatal("SetTimeout = false")
	}
	if r.End != (engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonTimeout, Ply: 2}) || r.Legal {
		t.Errorf("End %+v, Legal %v; want defenders win by timeout at 2, not legal", r.End, r.Legal)
	}
	if e := r.Err(); e == nil || e.Kind != KindAfterEnd || e.Ply != 3 || e.Message != "the game ended at ply 2 (defenders win: timeout)" {
		t.Errorf("first error %v, want ply 3 after the end", e)
	}
	// the record says the defenders won: no result error
	for _, e := range r.Errors {
		if e.Kind == KindResult {
			t.Errorf("unexpected result error %v", e)
		}
	}
	// a record that says the attackers won disagrees
	r = replayText(t, FormatNative, strings.Replace(text, "defenders", "attackers", 1))
	r.SetTimeout(engine.Attackers, 6, true)
	if e := r.Err(); e == nil || e.Kind != KindResult || !strings.Contains(e.Message, "the attackers lost on time after ply 6, so the defenders won, but the record says the attackers won") {
		t.Errorf("result error = %v", e)
	}
	// not checked for a pending judgement
	r = replayText(t, FormatNative, strings.Replace(text, "defenders", "attackers", 1))
	r.SetTimeout(engine.Attackers, 6, false)
	if len(r.Errors) != 0 || !r.Legal {
		t.Errorf("pending time-out: errors %v, legal %v", r.Errors, r.Legal)
	}
	// the rules ended the game first (brandubh102 captures the king on
	// ply 7): a time-out after ply 7 changes nothing
	r = replayText(t, FormatNative, brandubh102+"a4-e4xe3 attackers")
	if r.SetTimeout(engine.Defenders, 7, true) || r.End.Reason != engine.ReasonKingCaptured {
		t.Errorf("a time-out after the king's capture changed the end: %+v", r.End)
	}
}
