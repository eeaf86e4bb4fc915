package notation

import (
	"bytes"
	"strings"
	"testing"
)

// timedNative is a timed native record with every kind of clock datum.
const timedNative = `[Event "timed"]
[Variant "brandubh"]
[TimeControl "3d/move"]
[Start "2026-11-01T00:00:00Z"]
[DefendersLeave "2026-11-10/2026-11-12"]
[Result "attackers"]
[Termination "timeout"]

1. d1-e1 {[%ts 2026-11-02T00:00:00Z] a quiet start} d3-f3 {[%ts 2026-11-03T00:00:00Z]}
2. d2-f2xf3 {[%ts 2026-11-04T00:00:00Z] [%avail 2026-11-04T06:00:00Z]} timeout {[%ts 2026-11-07T07:00:00Z] slow}
attackers
`

// TestOTGClock: WriteOTG keeps a timed record's clock data where OpenTafl
// lets it be, in the form pinned here, and FromOTG reads it back to the
// same plies and tags (issue 22 §2).
func TestOTGClock(t *testing.T) {
	gs, err := ReadGames("timed.tafl", []byte(timedNative), ReadOptions{})
	if err != nil || len(gs) != 1 {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteOTG(&buf, gs[0].Replay()); err != nil {
		t.Fatal(err)
	}
	want := `[event:timed]
[tm-time-control:3d/move]
[start:2026-11-01T00:00:00Z]
[defenders-leave:2026-11-10/2026-11-12]
[result:1]
[termination:timeout]
[tm-timeout:{%ts 2026-11-07T07:00:00Z} slow]
[rules:dim:7 name:brandubh ks:c tm-rep:attackers tm-note:OpenTafl_draws_a_third_repetition_(tm-rep) start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]

1. d1-e1 d3-f3
[{%ts 2026-11-02T00:00:00Z} a quiet start|{%ts 2026-11-03T00:00:00Z}]

2. d2-f2xf3
[{%ts 2026-11-04T00:00:00Z} {%avail 2026-11-04T06:00:00Z}]
`
	if buf.String() != want {
		t.Errorf("WriteOTG:\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := ReadGames("timed.otg", buf.Bytes(), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g, b := gs[0], back[0]
	if b.ClockErr != nil || len(b.Plies) != len(g.Plies) {
		t.Fatalf("read back: ClockErr %v, %d plies", b.ClockErr, len(b.Plies))
	}
	for i := range g.Plies {
		if b.Plies[i].Text() != g.Plies[i].Text() || b.Plies[i].Time != g.Plies[i].Time ||
			strings.Join(b.Plies[i].Comments, "|") != strings.Join(g.Plies[i].Comments, "|") {
			t.Errorf("ply %d: read back %q %+v %q, want %q %+v %q", i+1, b.Plies[i].Text(), b.Plies[i].Time, b.Plies[i].Comments,
				g.Plies[i].Text(), g.Plies[i].Time, g.Plies[i].Comments)
		}
	}
	if r := b.Replay(); len(r.Errors) != 0 || r.Plies[3].Side.String() != "defenders" {
		t.Errorf("read back: replay errors %v", r.Errors)
	}
	var again bytes.Buffer
	if err := WriteOTG(&again, b.Replay()); err != nil || again.String() != buf.String() {
		t.Errorf("WriteOTG not canonical:\n%s\nwant\n%s", again.String(), buf.String())
	}
	if c, err := b.Clock(); err != nil || c == nil || c.Control.String() != "3d/move" || len(c.Leave[1]) != 1 {
		t.Errorf("read back: Clock() = %+v, %v", c, err)
	}
	if msg := g.ClockDropped(FormatCSV); msg != "the CSV format has no place for clock data: TimeControl, Start, DefendersLeave and the %ts of 4 plies are dropped" {
		t.Errorf("ClockDropped(csv) = %q", msg)
	}
	for _, f := range []Format{FormatNative, FormatOTG} {
		if msg := g.ClockDropped(f); msg != "" {
			t.Errorf("ClockDropped(%v) = %q, want nothing", f, msg)
		}
	}
}

// TestOTGTimeControls: OpenTafl's own time-control (seconds) is not
// taflmail's; each keeps its key, and a malformed {%ts} is a clock error
// at its place.
func TestOTGTimeControls(t *testing.T) {
	const rules = "[rules:dim:7 ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n"
	for _, tt := range []struct {
		name, in, keys string
	}{
		{"OpenTafl's alone", "[time-control:3600 30/3 3i]\n" + rules + "1. d1-e1 d3-f3\n", "[time-control:3600 30/3 3i]"},
		{"both", "[time-control:3600]\n[tm-time-control:30d+1d]\n" + rules + "1. d1-e1 d3-f3\n", "[time-control:3600]\n[tm-time-control:30d+1d]"},
	} {
		gs, err := ReadGames("x.otg", []byte(tt.in), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteOTG(&buf, gs[0].Replay()); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(buf.String(), tt.keys+"\n") {
			t.Errorf("%s: WriteOTG wrote\n%s\nwant it to start\n%s", tt.name, buf.String(), tt.keys)
		}
	}
	gs, err := ReadGames("x.otg", []byte("[tm-time-control:3d/move]\n[start:2026-11-01T00:00:00Z]\n"+rules+
		"1. d1-e1 d3-f3\n[{%ts 2026-11-02T00:00:00Z}|{%ts tomorrow}]\n"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := gs[0].ClockErr; e == nil || e.Error() != "x.otg:6:29: ply 2 (defenders) d3-f3: {%ts tomorrow}: not an instant such as 2026-11-28T21:52:10Z" {
		t.Errorf("malformed {%%ts}: ClockErr = %v", e)
	}
}
