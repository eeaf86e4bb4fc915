package clock

import (
	"errors"
	"reflect"
	"testing"

	"github.com/taflmail/taflmail/notation"
)

// TestTakeLeave: §3 — the allowance per calendar year, leave in the past,
// overlapping leave, leave over a year boundary, each refusal with the
// days left.
func TestTakeLeave(t *testing.T) {
	const now = "2026-12-10T15:00:00Z" // "today" is 10 Dec 2026
	tests := []struct {
		name      string
		taken     string // the player's leave so far
		allowance int
		req       string
		want      string // the leave after, on success
		reason    LeaveReason
		year      int
		daysLeft  int
		years     []YearLeave
	}{
		// 24 Dec – 2 Jan is 8 days in 2026 (24–31) and 2 in 2027, each
		// within a fresh 30: granted
		{name: "over new year, within both years", allowance: 30, req: "2026-12-24/2027-01-02",
			want: "2026-12-24/2027-01-02"},
		// today is allowed
		{name: "starting today", allowance: 30, req: "2026-12-10/2026-12-11", want: "2026-12-10/2026-12-11"},
		// a second leave after an earlier one, kept in order of days
		{name: "a second leave", taken: "2026-12-20/2026-12-21", allowance: 30, req: "2026-12-12",
			want: "2026-12-12/2026-12-12, 2026-12-20/2026-12-21"},
		// back to back is not overlapping
		{name: "adjacent leave", taken: "2026-12-20/2026-12-21", allowance: 30, req: "2026-12-22/2026-12-23",
			want: "2026-12-20/2026-12-21, 2026-12-22/2026-12-23"},
		// 9 Dec is yesterday: refused; this year's 30 days are untouched
		{name: "in the past", allowance: 30, req: "2026-12-09/2026-12-12",
			reason: LeaveInPast, year: 2026, daysLeft: 30},
		// 20–21 Dec taken (2 days); 21–22 Dec shares the 21st: refused,
		// 28 days left this year
		{name: "overlapping", taken: "2026-12-20/2026-12-21", allowance: 30, req: "2026-12-21/2026-12-22",
			reason: LeaveOverlap, year: 2026, daysLeft: 28},
		// 20 days taken in 2026 (1–20 Mar), 11 asked for 11–21 Dec: 10
		// left, refused
		{name: "over the year's allowance", taken: "2026-03-01/2026-03-20", allowance: 30, req: "2026-12-11/2026-12-21",
			reason: LeaveOverAllowance, year: 2026, daysLeft: 10, years: []YearLeave{{2026, 11, 10}}},
		// exactly the 10 left: granted
		{name: "exactly the days left", taken: "2026-03-01/2026-03-20", allowance: 30, req: "2026-12-11/2026-12-20",
			want: "2026-03-01/2026-03-20, 2026-12-11/2026-12-20"},
		// 25 days taken in 2026, 5 left; 24 Dec – 2 Jan asks 8 in 2026
		// (24–31) and 2 in 2027 (of 30): 2026's rest is exceeded
		{name: "over a year boundary, first year", taken: "2026-06-01/2026-06-25", allowance: 30, req: "2026-12-24/2027-01-02",
			reason: LeaveAcrossYears, year: 2026, daysLeft: 5, years: []YearLeave{{2026, 8, 5}, {2027, 2, 30}}},
		// 29 days already booked in 2027 (Feb), 1 left there; 30 Dec – 3
		// Jan asks 2 in 2026 (of 30) and 3 in 2027: 2027's rest exceeded
		{name: "over a year boundary, second year", taken: "2027-02-01/2027-03-01", allowance: 30, req: "2026-12-30/2027-01-03",
			reason: LeaveAcrossYears, year: 2027, daysLeft: 1, years: []YearLeave{{2026, 2, 30}, {2027, 3, 1}}},
		// a tournament that allows none
		{name: "no allowance", allowance: 0, req: "2026-12-24",
			reason: LeaveOverAllowance, year: 2026, daysLeft: 0, years: []YearLeave{{2026, 1, 0}}},
		// a tournament that allows 5: 6 days refused
		{name: "a smaller allowance", allowance: 5, req: "2026-12-11/2026-12-16",
			reason: LeaveOverAllowance, year: 2026, daysLeft: 5, years: []YearLeave{{2026, 6, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			taken := leaves(t, tt.taken)
			before := append([]notation.Leave(nil), taken...)
			req := leaves(t, tt.req)[0]
			got, err := TakeLeave(taken, req, ts(t, now), tt.allowance)
			if !reflect.DeepEqual(taken, before) {
				t.Errorf("TakeLeave changed its argument")
			}
			if tt.reason == 0 {
				if err != nil {
					t.Fatalf("TakeLeave(%s) error: %v", tt.req, err)
				}
				if s := notation.FormatLeaves(got); s != tt.want {
					t.Errorf("TakeLeave(%s) = %s, want %s", tt.req, s, tt.want)
				}
				return
			}
			var le *LeaveError
			if !errors.As(err, &le) {
				t.Fatalf("TakeLeave(%s) = %v, %v; want a *LeaveError", tt.req, got, err)
			}
			want := &LeaveError{Reason: tt.reason, Request: req, Year: tt.year, DaysLeft: tt.daysLeft, Years: tt.years}
			if tt.reason == LeaveOverlap {
				want.Conflict = taken[0]
			}
			if !reflect.DeepEqual(le, want) {
				t.Errorf("TakeLeave(%s) error = %+v, want %+v", tt.req, le, want)
			}
			if !errors.Is(err, &LeaveError{Reason: tt.reason}) {
				t.Errorf("errors.Is(%v, the sentinel of %v) = false", err, tt.reason)
			}
			for _, other := range []*LeaveError{ErrLeaveInPast, ErrLeaveOverlap, ErrLeaveOverAllowance, ErrLeaveAcrossYears} {
				if other.Reason != tt.reason && errors.Is(err, other) {
					t.Errorf("errors.Is(%v, %v) = true", err, other.Reason)
				}
			}
		})
	}
	// a reversed leave cannot come from the parser, but from a caller
	req := notation.Leave{First: ts(t, "2026-12-20T00:00:00Z"), Last: ts(t, "2026-12-19T00:00:00Z")}
	if _, err := TakeLeave(nil, req, ts(t, now), 30); !errors.Is(err, ErrLeaveReversed) {
		t.Errorf("reversed leave: %v", err)
	}
}

// TestLeaveMalformedDate: a date that is no day of the calendar never
// reaches TakeLeave: the parser refuses it with its position.
func TestLeaveMalformedDate(t *testing.T) {
	for in, want := range map[string]string{
		"2026-12-24/2027-13-02": "tag:1:12: 2027-13-02 is not a day of the calendar",
		"2026-02-29":            "tag:1:1: 2026-02-29 is not a day of the calendar",
		"2026-12-24/2026-12-20": "tag:1:12: the last day 2026-12-20 is before the first day 2026-12-24",
	} {
		if _, err := notation.ParseLeaves("tag", in); err == nil || err.Error() != want {
			t.Errorf("ParseLeaves(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestCancelLeave(t *testing.T) {
	// today: 10 Dec 2026, 15:00
	now := ts(t, "2026-12-10T15:00:00Z")
	taken := leaves(t, "2026-03-01/2026-03-05, 2026-12-08/2026-12-12, 2026-12-24/2027-01-02")
	kept, back, err := CancelLeave(taken, now, 30)
	if err != nil {
		t.Fatal(err)
	}
	// March stays (past); 8–12 Dec runs today: cut to 8–10 (today has
	// begun), 11 and 12 back; 24 Dec – 2 Jan (10 days) back: 12 in all
	if s := notation.FormatLeaves(kept); s != "2026-03-01/2026-03-05, 2026-12-08/2026-12-10" || back != 12 {
		t.Errorf("CancelLeave = %s, %d; want 2026-03-01/2026-03-05, 2026-12-08/2026-12-10 and 12", s, back)
	}
	// after that nothing is left to give back: refused with this year's
	// days left, 30 − 5 (March) − 3 (8–10 Dec) = 22
	_, _, err = CancelLeave(kept, now, 30)
	var le *LeaveError
	if !errors.As(err, &le) || le.Reason != LeaveNothingToCancel || le.Year != 2026 || le.DaysLeft != 22 || !errors.Is(err, ErrNothingToCancel) {
		t.Errorf("CancelLeave again = %v (%+v); want nothing to cancel, 22 days left in 2026", err, le)
	}
}

func TestLeaveLeftAndLimit(t *testing.T) {
	taken := leaves(t, "2026-03-01/2026-03-05, 2026-12-24/2027-01-02")
	// 2026: 5 + 8 = 13 of 30 → 17; 2027: 2 → 28; 2028: 30
	for year, want := range map[int]int{2026: 17, 2027: 28, 2028: 30} {
		if got := LeaveLeft(taken, year, 30); got != want {
			t.Errorf("LeaveLeft(%d) = %d, want %d", year, got, want)
		}
	}
	if got := LeaveLeft(taken, 2026, 10); got != 0 {
		t.Errorf("LeaveLeft with a smaller allowance = %d, want 0 (never negative)", got)
	}
	// a tournament allowing 7 days a year: March's 5, then 2 of the 8
	// December days (24–25); 2027's 2 days are within its 7
	got := notation.FormatLeaves(LimitLeave(taken, 7))
	if want := "2026-03-01/2026-03-05, 2026-12-24/2026-12-25, 2027-01-01/2027-01-02"; got != want {
		t.Errorf("LimitLeave(7) = %s, want %s", got, want)
	}
	if got := LimitLeave(taken, 0); got != nil {
		t.Errorf("LimitLeave(0) = %v, want none", got)
	}
	if got := notation.FormatLeaves(LimitLeave(taken, 30)); got != notation.FormatLeaves(taken) {
		t.Errorf("LimitLeave(30) = %s, want all", got)
	}
}

// TestLeaveError: the message carries the days left.
func TestLeaveError(t *testing.T) {
	_, err := TakeLeave(leaves(t, "2026-06-01/2026-06-25"), leaves(t, "2026-12-24/2027-01-02")[0], ts(t, "2026-12-10T00:00:00Z"), 30)
	want := "clock: leave 2026-12-24/2027-01-02 refused: leave over a year boundary exceeds a year's rest (2026: 8 days asked, 5 left; 2027: 2 days asked, 30 left)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
	_, err = TakeLeave(nil, leaves(t, "2026-12-01")[0], ts(t, "2026-12-10T00:00:00Z"), 30)
	if want := "clock: leave 2026-12-01/2026-12-01 refused: leave in the past (30 days left in 2026)"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}
