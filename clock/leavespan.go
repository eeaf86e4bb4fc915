package clock

import (
	"fmt"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// WrittenDay is a day of a leave command as the player wrote it, before
// it is a date (the parts of grammar.LeaveDay; docs/commands.md lists the
// forms): a part not written is 0.
type WrittenDay struct {
	// Text is the day as written, for a refusal: "24.12.", "12/11".
	Text string
	// Year is the year written: four digits, or two (26 is 2026); 0 when
	// none is.
	Year int
	// Month is 1–12 as named or written (13 is written, and refused); 0
	// for a day alone ("24." in "24.–31.12."), which takes its month from
	// the other end of the span.
	Month int
	// Day is the day of the month written.
	Day int
	// Either: the form does not say which number is the day ("12/11",
	// "11-12-2026"); Day is the first number written, Month the second.
	// The reading that is a day of the calendar is taken; when both are
	// (and differ), the day is ambiguous.
	Either bool
}

// DateReason says why the days of a leave command are no dates.
type DateReason uint8

const (
	// DateNoDay: the day is not a day of the calendar ("31.2.2027",
	// "2027-13-02", "0.1."); for a day without a year, not in the year
	// it was taken to fall in ("29.2." in 2027: DateError.Year).
	DateNoDay DateReason = iota + 1
	// DateNoMonth: a day alone ("24.") with no month at the other end of
	// the span to take.
	DateNoMonth
	// DateAmbiguous: two numbers that are a day and a month either way
	// round ("12/11": 12 November or 11 December).
	DateAmbiguous
)

var dateReasonText = [...]string{
	DateNoDay:     "not a day of the calendar",
	DateNoMonth:   "no month",
	DateAmbiguous: "day and month either way round",
}

// String returns the reason in words.
func (r DateReason) String() string {
	if int(r) < len(dateReasonText) && dateReasonText[r] != "" {
		return dateReasonText[r]
	}
	return fmt.Sprintf("DateReason(%d)", int(r))
}

// DateError is the refusal of the days of a leave command: the reason,
// which day, and what the reply needs to say which form to write.
type DateError struct {
	Reason DateReason
	// Day is the day refused; Last reports it is the span's last day.
	Day  WrittenDay
	Last bool
	// Year is the year a day written without one was taken to fall in
	// (DateNoDay), 0 when the year was written.
	Year int
	// Readings are the two dates an ambiguous day can be (DateAmbiguous):
	// with the first number as the day, then as the month.
	Readings [2]time.Time
}

// Error reads, e.g., `clock: leave day "12/11": day and month either way
// round (2026-11-12 or 2026-12-11)`.
func (e *DateError) Error() string {
	s := fmt.Sprintf("clock: leave day %q: %s", e.Day.Text, e.Reason)
	switch {
	case e.Reason == DateAmbiguous:
		s += fmt.Sprintf(" (%s or %s)", e.Readings[0].Format(time.DateOnly), e.Readings[1].Format(time.DateOnly))
	case e.Year != 0:
		s += fmt.Sprintf(" in %d", e.Year)
	}
	return s
}

// The sentinels of DateError, one per reason, for errors.Is.
var (
	ErrDateNoDay     = &DateError{Reason: DateNoDay}
	ErrDateNoMonth   = &DateError{Reason: DateNoMonth}
	ErrDateAmbiguous = &DateError{Reason: DateAmbiguous}
)

// Is reports whether target is the sentinel of e's reason.
func (e *DateError) Is(target error) bool {
	t, ok := target.(*DateError)
	return ok && t.Day == (WrittenDay{}) && t.Reason == e.Reason
}

// LeaveSpan returns the leave the days of a leave command name
// (CORRESPONDENCE.md §3.1: whole UTC days, first and last included;
// issue 22 §1), at instant now: from first to last, or the day first
// alone when last is nil. A day is read so:
//
//   - a two-digit year is of this century (26 is 2026);
//   - a day whose order of day and month the form leaves open (Either)
//     is the reading that is a day of the calendar; two such readings
//     that differ are ambiguous (DateAmbiguous), one that is the same
//     either way ("5/5") is that day;
//   - a day alone ("24." in "24.–31.12.") takes the month and year of the
//     other end, the month before a last day that is earlier in the month
//     ("28.–3.1.": 28 December to 3 January), the month after a first day
//     that is later ("Dec 28 – 3");
//   - a day without a year is the next such day: the first on or after
//     today (UTC) for the first day, on or after the first day for the
//     last; a first day without a year before a last day with one is the
//     last such day on or before it.
//
// It checks each day against the calendar (DateNoDay), but not the
// leave against the rules: a last day before the first, a first day in
// the past are TakeLeave's refusals. Errors are *DateError.
func LeaveSpan(first WrittenDay, last *WrittenDay, now time.Time) (notation.Leave, error) {
	t := today(now)
	f := first
	f.Year = fullYear(f.Year)
	if last == nil {
		if f.Month == 0 {
			return notation.Leave{}, &DateError{Reason: DateNoMonth, Day: first}
		}
		d, err := resolveDay(f, t, true, false)
		if err != nil {
			return notation.Leave{}, err
		}
		return notation.Leave{First: d, Last: d}, nil
	}
	l := *last
	l.Year = fullYear(l.Year)
	switch {
	case f.Month == 0 && l.Month == 0:
		return notation.Leave{}, &DateError{Reason: DateNoMonth, Day: first}
	case f.Month == 0:
		// the last day first, then the first in its month (or the one before)
		ld, err := resolveDay(l, t, true, true)
		if err != nil {
			return notation.Leave{}, err
		}
		y, m := ld.Year(), int(ld.Month())
		if f.Day > ld.Day() { // "28.–3.1.": the month before
			y, m = monthAfter(y, m, -1)
		}
		fd, ok := calendarDay(y, m, f.Day)
		if !ok {
			return notation.Leave{}, &DateError{Reason: DateNoDay, Day: first}
		}
		return notation.Leave{First: fd, Last: ld}, nil
	case l.Month == 0:
		fd, err := resolveDay(f, t, true, false)
		if err != nil {
			return notation.Leave{}, err
		}
		y, m := fd.Year(), int(fd.Month())
		if l.Day < fd.Day() { // "Dec 28 – 3": the month after
			y, m = monthAfter(y, m, 1)
		}
		ld, ok := calendarDay(y, m, l.Day)
		if !ok {
			return notation.Leave{}, &DateError{Reason: DateNoDay, Day: l, Last: true}
		}
		return notation.Leave{First: fd, Last: ld}, nil
	}
	var fd, ld time.Time
	var err error
	if f.Year == 0 && l.Year != 0 {
		// "24.12.–2.1.2027": the last day fixes the first's year
		if ld, err = resolveDay(l, t, true, true); err != nil {
			return notation.Leave{}, err
		}
		if fd, err = resolveDay(f, ld, false, false); err != nil {
			return notation.Leave{}, err
		}
		return notation.Leave{First: fd, Last: ld}, nil
	}
	if fd, err = resolveDay(f, t, true, false); err != nil {
		return notation.Leave{}, err
	}
	if ld, err = resolveDay(l, fd, true, true); err != nil {
		return notation.Leave{}, err
	}
	return notation.Leave{First: fd, Last: ld}, nil
}

// fullYear returns a written year in full: two digits (or one) are of
// this century. 0 (not written) stays 0.
func fullYear(y int) int {
	if y > 0 && y < 100 {
		return 2000 + y
	}
	return y
}

// resolveDay returns the date of w (its year in full): w's own year, or
// without one the first such day on or after from (after true) or the
// last on or before it. An Either day is read both ways first. isLast
// marks the refusal as the last day's.
func resolveDay(w WrittenDay, from time.Time, after, isLast bool) (time.Time, error) {
	refuse := func(r DateReason, year int) *DateError {
		return &DateError{Reason: r, Day: w, Last: isLast, Year: year}
	}
	if !w.Either || w.Day == w.Month {
		d, year, ok := dayNear(w.Year, w.Month, w.Day, from, after)
		if !ok {
			if !validPair(w.Month, w.Day) {
				year = 0 // no day in any year, not just the one taken
			}
			return time.Time{}, refuse(DateNoDay, year)
		}
		return d, nil
	}
	a, ay, aok := dayNear(w.Year, w.Month, w.Day, from, after) // the first number the day
	b, by, bok := dayNear(w.Year, w.Day, w.Month, from, after) // the first number the month
	switch {
	case aok && bok:
		e := refuse(DateAmbiguous, 0)
		e.Readings = [2]time.Time{a, b}
		return time.Time{}, e
	case aok:
		return a, nil
	case bok:
		return b, nil
	}
	if w.Year == 0 && (validPair(w.Month, w.Day) || validPair(w.Day, w.Month)) {
		// a day of some year, not of the one taken ("29/2" in 2027)
		return time.Time{}, refuse(DateNoDay, max(ay, by))
	}
	return time.Time{}, refuse(DateNoDay, 0)
}

// dayNear returns the date month m, day d of year y, or without a year
// (y == 0) the first such day on or after from (after) or the last on or
// before it, looking in from's year and the next (or the one before).
// year is the year it was taken to fall in when none was written, 0
// otherwise; ok is false when that is no day of the calendar.
func dayNear(y, m, d int, from time.Time, after bool) (date time.Time, year int, ok bool) {
	if y != 0 {
		date, ok = calendarDay(y, m, d)
		return date, 0, ok
	}
	year = from.Year()
	md, fromMD := m*100+d, int(from.Month())*100+from.Day()
	switch {
	case after && md < fromMD:
		year++
	case !after && md > fromMD:
		year--
	}
	date, ok = calendarDay(year, m, d)
	return date, year, ok
}

// monthAfter returns the year and month n months (-1 or 1) after month m
// of year y.
func monthAfter(y, m, n int) (int, int) {
	m += n
	switch {
	case m < 1:
		return y - 1, 12
	case m > 12:
		return y + 1, 1
	}
	return y, m
}

// calendarDay returns 00:00 UTC of year y, month m, day d when that is a
// day of the (proleptic Gregorian) calendar in years 1–9999.
func calendarDay(y, m, d int) (time.Time, bool) {
	if y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, t.Day() == d
}

// validPair reports whether month m, day d is a day of the calendar in
// some year (29 February in a leap year).
func validPair(m, d int) bool {
	_, ok := calendarDay(2000, m, d)
	return ok
}
