package clock

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// DefaultLeaveDays is a player's leave allowance per calendar year, in
// days, unless the operator changes it (CORRESPONDENCE.md §3.1). A
// tournament may allow fewer or none (LimitLeave).
const DefaultLeaveDays = 30

// LeaveReason says why a leave request or cancellation was refused.
type LeaveReason uint8

const (
	// LeaveInPast: the leave begins before today (UTC). It may begin
	// today.
	LeaveInPast LeaveReason = iota + 1
	// LeaveReversed: the last day is before the first.
	LeaveReversed
	// LeaveOverlap: the leave shares a day with one the player has taken.
	LeaveOverlap
	// LeaveOverAllowance: the leave's days exceed what is left of the
	// year's allowance.
	LeaveOverAllowance
	// LeaveAcrossYears: a leave over a year boundary whose days in one of
	// the years exceed what is left of that year's allowance.
	LeaveAcrossYears
	// LeaveNothingToCancel: cancel leave, but no leave has a day after
	// today to give back.
	LeaveNothingToCancel
)

var leaveReasonText = [...]string{
	LeaveInPast:          "leave in the past",
	LeaveReversed:        "leave ends before it begins",
	LeaveOverlap:         "overlapping leave",
	LeaveOverAllowance:   "leave over the year's allowance",
	LeaveAcrossYears:     "leave over a year boundary exceeds a year's rest",
	LeaveNothingToCancel: "no leave to cancel",
}

// String returns the reason in words, e.g. "overlapping leave".
func (r LeaveReason) String() string {
	if int(r) < len(leaveReasonText) && leaveReasonText[r] != "" {
		return leaveReasonText[r]
	}
	return fmt.Sprintf("LeaveReason(%d)", int(r))
}

// YearLeave is a player's leave account for one calendar year, in days.
type YearLeave struct {
	Year int
	// Requested is the request's days in Year.
	Requested int
	// Left is what is left of Year's allowance before the request.
	Left int
}

// LeaveError is the refusal of a leave request or cancellation
// (CORRESPONDENCE.md §3.3: "refused with the days left"). It carries what
// the reply needs: the reason, the request, the leave it overlaps, and the
// days left. The sentinels ErrLeaveInPast … ErrNothingToCancel match it by
// reason with errors.Is.
type LeaveError struct {
	Reason LeaveReason
	// Request is the leave asked for (zero for a cancellation).
	Request notation.Leave
	// Conflict is the player's leave that Request overlaps
	// (LeaveOverlap).
	Conflict notation.Leave
	// Year is the year the refusal is about: the year whose allowance is
	// exceeded, else the current year (UTC). DaysLeft is what is left of
	// that year's allowance, in days.
	Year     int
	DaysLeft int
	// Years is the account of every year the request touches, in order
	// (for a leave over a year boundary, both years).
	Years []YearLeave
}

// The sentinels of LeaveError, one per reason.
var (
	ErrLeaveInPast        = &LeaveError{Reason: LeaveInPast}
	ErrLeaveReversed      = &LeaveError{Reason: LeaveReversed}
	ErrLeaveOverlap       = &LeaveError{Reason: LeaveOverlap}
	ErrLeaveOverAllowance = &LeaveError{Reason: LeaveOverAllowance}
	ErrLeaveAcrossYears   = &LeaveError{Reason: LeaveAcrossYears}
	ErrNothingToCancel    = &LeaveError{Reason: LeaveNothingToCancel}
)

// Error reads, e.g., "clock: leave 2026-12-24/2027-01-02 refused: leave
// over a year boundary exceeds a year's rest (2026: 8 days asked, 5
// left; 2027: 2 days asked, 30 left)".
func (e *LeaveError) Error() string {
	var b strings.Builder
	b.WriteString("clock: ")
	if e.Reason == LeaveNothingToCancel {
		fmt.Fprintf(&b, "%s (%d days left in %d)", e.Reason, e.DaysLeft, e.Year)
		return b.String()
	}
	fmt.Fprintf(&b, "leave %s refused: %s", e.Request, e.Reason)
	if e.Reason == LeaveOverlap {
		fmt.Fprintf(&b, " with %s", e.Conflict)
	}
	if len(e.Years) > 0 && (e.Reason == LeaveOverAllowance || e.Reason == LeaveAcrossYears) {
		b.WriteString(" (")
		for i, y := range e.Years {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%d: %d days asked, %d left", y.Year, y.Requested, y.Left)
		}
		b.WriteString(")")
		return b.String()
	}
	fmt.Fprintf(&b, " (%d days left in %d)", e.DaysLeft, e.Year)
	return b.String()
}

// Is reports whether target is the sentinel of e's reason.
func (e *LeaveError) Is(target error) bool {
	t, ok := target.(*LeaveError)
	return ok && t.Request == (notation.Leave{}) && t.Year == 0 && t.Reason == e.Reason
}

// LeaveLeft returns the days left of a player's allowance (days per
// calendar year) in year, given the leave taken: allowance less the taken
// days that fall in year, never below 0. A leave over a year boundary
// counts in each year for its days there.
func LeaveLeft(taken []notation.Leave, year, allowance int) int {
	used := 0
	for _, l := range taken {
		used += l.DaysIn(year)
	}
	return max(allowance-used, 0)
}

// TakeLeave checks a leave request against the leave a player has taken
// and the allowance (days per calendar year; 0 allows none), at instant
// now (CORRESPONDENCE.md §3), and returns the player's leave with the
// request added, in order of the first day. Refusals are *LeaveError, in
// this order of checks: the last day before the first (LeaveReversed);
// the first day before today, UTC (LeaveInPast; today itself is allowed);
// a day in common with a leave taken (LeaveOverlap); more days in a year
// than are left of it (LeaveOverAllowance, or LeaveAcrossYears when the
// request spans a year boundary). taken is not changed.
func TakeLeave(taken []notation.Leave, req notation.Leave, now time.Time, allowance int) ([]notation.Leave, error) {
	year := now.UTC().Year()
	refuse := func(r LeaveReason) *LeaveError {
		return &LeaveError{Reason: r, Request: req, Year: year, DaysLeft: LeaveLeft(taken, year, allowance)}
	}
	if req.Last.Before(req.First) {
		return nil, refuse(LeaveReversed)
	}
	if req.First.Before(today(now)) {
		return nil, refuse(LeaveInPast)
	}
	for _, l := range taken {
		if !req.First.After(l.Last) && !l.First.After(req.Last) {
			e := refuse(LeaveOverlap)
			e.Conflict = l
			return nil, e
		}
	}
	var years []YearLeave
	var over *YearLeave
	for y := req.First.Year(); y <= req.Last.Year(); y++ {
		years = append(years, YearLeave{Year: y, Requested: req.DaysIn(y), Left: LeaveLeft(taken, y, allowance)})
	}
	for i := range years {
		if years[i].Requested > years[i].Left {
			over = &years[i]
			break
		}
	}
	if over != nil {
		e := refuse(LeaveOverAllowance)
		if len(years) > 1 {
			e.Reason = LeaveAcrossYears
		}
		e.Year, e.DaysLeft, e.Years = over.Year, over.Left, years
		return nil, e
	}
	out := append(append([]notation.Leave(nil), taken...), req)
	sort.SliceStable(out, func(i, j int) bool { return out[i].First.Before(out[j].First) })
	return out, nil
}

// today returns 00:00 UTC of now's day.
func today(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// CancelLeave cancels a player's leave at instant now (CORRESPONDENCE.md
// §3.1: "cancel leave gives back the days not yet begun"): a leave that
// begins after today is removed, one that runs today ends today (today
// has begun), past leave stays. It returns the leave kept and the days
// given back; a *LeaveError (LeaveNothingToCancel, with this year's days
// left under allowance) when no day is given back (no leave after today).
// taken is not changed.
func CancelLeave(taken []notation.Leave, now time.Time, allowance int) ([]notation.Leave, int, error) {
	day := today(now)
	var kept []notation.Leave
	back := 0
	for _, l := range taken {
		switch {
		case l.Last.Before(day):
			kept = append(kept, l)
		case l.First.After(day):
			back += l.Days()
		default:
			cut := notation.Leave{First: l.First, Last: day}
			back += l.Days() - cut.Days()
			kept = append(kept, cut)
		}
	}
	if back == 0 {
		year := day.Year()
		return nil, 0, &LeaveError{Reason: LeaveNothingToCancel, Year: year, DaysLeft: LeaveLeft(taken, year, allowance)}
	}
	return kept, back, nil
}

// LimitLeave returns the part of a player's leave that a game with a
// smaller allowance counts: the first allowance days of each calendar
// year, in order of the days (a tournament may allow fewer days, or none
// with allowance 0; CORRESPONDENCE.md §3.1). A leave cut in the middle
// becomes shorter; one over a year boundary may keep its days in one
// year and lose them in the other.
func LimitLeave(taken []notation.Leave, allowance int) []notation.Leave {
	ls := append([]notation.Leave(nil), taken...)
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].First.Before(ls[j].First) })
	used := map[int]int{}
	var out []notation.Leave
	open := false // the last of out may grow by the next day
	for _, l := range ls {
		open = false
		for d := l.First; !d.After(l.Last); d = d.Add(notation.Day) {
			if used[d.Year()] >= allowance {
				open = false
				continue
			}
			used[d.Year()]++
			if open {
				out[len(out)-1].Last = d
				continue
			}
			out = append(out, notation.Leave{First: d, Last: d})
			open = true
		}
	}
	return out
}
