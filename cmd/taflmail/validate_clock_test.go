package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// clockLine is the part of a validate --json line that the clock tests
// look at.
type clockLine struct {
	Legal bool `json:"legal"`
	Error *struct {
		Ply     int    `json:"ply"`
		Message string `json:"message"`
	} `json:"error"`
	Outcome struct {
		Winner *string `json:"winner"`
		Reason *string `json:"reason"`
		Ply    int     `json:"ply"`
	} `json:"outcome"`
	Clock *struct {
		Control        string `json:"control"`
		AttackersLeftS int64  `json:"attackers_left_s"`
		DefendersLeftS int64  `json:"defenders_left_s"`
	} `json:"clock"`
}

// TestValidateClock: the clocks of timed records (CORRESPONDENCE.md §5),
// one small record per case in testdata/clock (each file says what it
// shows). The expected figures are worked out in the comments.
func TestValidateClock(t *testing.T) {
	const d, h = 86400, 3600
	tests := []struct {
		file, at string
		code     int
		legal    bool
		errPly   int    // the first error's ply, 0 for none
		errText  string // part of its message
		winner   string // "" while the game runs
		ply      int    // outcome ply
		control  string // "" for no clock field
		left     [2]int64
	}{
		// A: 10d − 1d + 1d = 10d; D (11-02 → 11-04 12:00 less the leave of
		// 11-03): 10d − 1d12h + 1d = 9d12h; A (1h): 10d − 1h + 1d =
		// 10d23h, under the cap 12d; D (23h): 9d12h − 23h + 1d = 9d13h
		{file: "fischer.tafl", code: exitOK, legal: true, ply: 4, control: "10d+1d max 12d",
			left: [2]int64{10*d + 23*h, 9*d + 13*h}},
		// iccf 3d/move: A 1d10h (1 day), D 2d23h (2 days), A 4d1h after
		// the defenders' ply: 4 days > 3, late; the deadline was 4 whole
		// days after 11-05 09:00; N = 2, ply 3 is after the end
		{file: "late.tafl", code: exitFailure, legal: false, errPly: 3, errText: "the game ended at ply 2 (defenders win: timeout)",
			winner: "defenders", ply: 2, control: "3d/move iccf", left: [2]int64{3 * d, 3 * d}},
		// 2d+0d: the first ply 2 days and 1 s after the start: late, N = 0
		{file: "first.tafl", code: exitFailure, legal: false, errPly: 1, winner: "defenders", ply: 0,
			control: "2d+0d", left: [2]int64{2 * d, 2 * d}},
		// 60d+1d: both plies took a day: 60d each; the attackers' clock runs
		// from 11-03 for 51 days to the leave of 24 Dec – 2 Jan, then 9
		// days and 1 s from 3 Jan: deadline 2027-01-12T00:00:01Z. On 31
		// Dec the game goes on.
		{file: "pending.tafl", at: "2026-12-31T00:00:00Z", code: exitOK, legal: true, ply: 2, control: "60d+1d",
			left: [2]int64{60 * d, 60 * d}},
		{file: "pending.tafl", at: "2027-01-12T00:00:00Z", code: exitOK, legal: true, ply: 2, control: "60d+1d",
			left: [2]int64{60 * d, 60 * d}},
		// at the deadline the attackers have lost, after ply 2; the record
		// ("*") could not know, so it is no error
		{file: "pending.tafl", at: "2027-01-12T00:00:01Z", code: exitOK, legal: true, winner: "defenders", ply: 2,
			control: "60d+1d", left: [2]int64{60 * d, 60 * d}},
		// the defenders' clock ran from 11-02: their deadline is 11-05
		// 00:00:01; a time-out declared on 11-04 is wrong
		{file: "claim.tafl", code: exitFailure, legal: true, errPly: 2, errText: "but their deadline is 2026-11-05T00:00:01Z",
			ply: 1, control: "3d/move", left: [2]int64{3 * d, 3 * d}},
		// untimed: no clock field, a month without a ply is nothing
		{file: "untimed.tafl", code: exitOK, legal: true, ply: 2},
	}
	for _, tt := range tests {
		args := []string{"validate", "--json", "testdata/clock/" + tt.file}
		if tt.at != "" {
			args = append(args, "--at", tt.at)
		}
		r := run(t, args...)
		name := strings.Join(args[1:], " ")
		if r.code != tt.code {
			t.Errorf("%s: code %d, want %d (stderr %q)", name, r.code, tt.code, r.stderr)
		}
		checkValidateJSON(t, r.stdout)
		var got clockLine
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, r.stdout)
		}
		if got.Legal != tt.legal {
			t.Errorf("%s: legal %v, want %v", name, got.Legal, tt.legal)
		}
		switch {
		case tt.errPly == 0 && got.Error != nil:
			t.Errorf("%s: error %+v, want none", name, got.Error)
		case tt.errPly != 0 && (got.Error == nil || got.Error.Ply != tt.errPly || !strings.Contains(got.Error.Message, tt.errText)):
			t.Errorf("%s: error %+v, want ply %d with %q", name, got.Error, tt.errPly, tt.errText)
		}
		o := got.Outcome
		if tt.winner == "" && o.Winner != nil || tt.winner != "" && (o.Winner == nil || *o.Winner != tt.winner || o.Reason == nil || *o.Reason != "time") || o.Ply != tt.ply {
			t.Errorf("%s: outcome %s, want winner %q by time at ply %d", name, r.stdout, tt.winner, tt.ply)
		}
		switch {
		case tt.control == "" && got.Clock != nil:
			t.Errorf("%s: clock %+v for an untimed record", name, got.Clock)
		case tt.control != "" && (got.Clock == nil || got.Clock.Control != tt.control ||
			got.Clock.AttackersLeftS != tt.left[0] || got.Clock.DefendersLeftS != tt.left[1]):
			t.Errorf("%s: clock %+v, want %s with %v s", name, got.Clock, tt.control, tt.left)
		}
	}
}

// TestValidateClockText: the time-out in the plain output, and a bad
// --at.
func TestValidateClockText(t *testing.T) {
	r := run(t, "validate", "testdata/clock/late.tafl")
	want := "testdata/clock/late.tafl:1:1: game 1: the attackers lost on time after ply 2 (deadline 2026-11-09T09:00:00Z)\n"
	if r.code != exitFailure || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "ply 3 (attackers) d2-f2xf3: the game ended at ply 2") {
		t.Errorf("validate late.tafl = code %d\n%s\nwant the after-end error and %q", r.code, r.stdout, want)
	}
	r = run(t, "validate", "--at", "31.12.2026", "testdata/clock/late.tafl")
	if r.code != exitUsage || !strings.Contains(r.stderr, `--at "31.12.2026"`) {
		t.Errorf("validate --at 31.12.2026 = code %d, stderr %q", r.code, r.stderr)
	}
}
