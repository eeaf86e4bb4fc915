package clock

import (
	"errors"
	"testing"
	"time"
)

// TestLeaveSpan: the days of a leave command, as written (issue 22 §1),
// turned into dates on 20 December 2026: a day without a year is the
// next such day, a day alone takes the other end's month, an order the
// form leaves open is read the way that is a day, and what is no day or
// could be two is refused with the reason.
func TestLeaveSpan(t *testing.T) {
	now := time.Date(2026, 12, 20, 10, 0, 0, 0, time.UTC)
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	w := func(text string, y, m, d int) WrittenDay { return WrittenDay{Text: text, Year: y, Month: m, Day: d} }
	either := func(text string, y, first, second int) WrittenDay {
		return WrittenDay{Text: text, Year: y, Day: first, Month: second, Either: true}
	}
	for _, tt := range []struct {
		name        string
		first       WrittenDay
		last        *WrittenDay
		from, until time.Time
	}{
		{"a day with its year", w("24.12.2026", 2026, 12, 24), nil, day(2026, 12, 24), day(2026, 12, 24)},
		{"two digits of a year", w("24.12.26", 26, 12, 24), nil, day(2026, 12, 24), day(2026, 12, 24)},
		{"no year: this year's, still ahead", w("24.12.", 0, 12, 24), nil, day(2026, 12, 24), day(2026, 12, 24)},
		{"no year: today", w("20.12.", 0, 12, 20), nil, day(2026, 12, 20), day(2026, 12, 20)},
		{"no year: yesterday's is next year's", w("19.12.", 0, 12, 19), nil, day(2027, 12, 19), day(2027, 12, 19)},
		{"no year: early next year", w("Jan 2", 0, 1, 2), nil, day(2027, 1, 2), day(2027, 1, 2)},
		{"a span over the new year", w("24.12.", 0, 12, 24), &WrittenDay{Text: "2.1.", Month: 1, Day: 2}, day(2026, 12, 24), day(2027, 1, 2)},
		{"the last day's year fixes the first's", w("24.12.", 0, 12, 24), &WrittenDay{Text: "2.1.2028", Year: 2028, Month: 1, Day: 2}, day(2027, 12, 24), day(2028, 1, 2)},
		{"the first day's year fixes the last's", w("24.12.2027", 2027, 12, 24), &WrittenDay{Text: "2.1.", Month: 1, Day: 2}, day(2027, 12, 24), day(2028, 1, 2)},
		{"a day alone takes the last's month", w("24.", 0, 0, 24), &WrittenDay{Text: "31.12.", Month: 12, Day: 31}, day(2026, 12, 24), day(2026, 12, 31)},
		{"… or the month before", w("28.", 0, 0, 28), &WrittenDay{Text: "3.1.", Month: 1, Day: 3}, day(2026, 12, 28), day(2027, 1, 3)},
		{"a last day alone takes the first's month", w("Dec 24", 0, 12, 24), &WrittenDay{Text: "31", Day: 31}, day(2026, 12, 24), day(2026, 12, 31)},
		{"… or the month after", w("Dec 28", 0, 12, 28), &WrittenDay{Text: "3", Day: 3}, day(2026, 12, 28), day(2027, 1, 3)},
		{"either order, one a day: day first", either("24/12", 0, 24, 12), nil, day(2026, 12, 24), day(2026, 12, 24)},
		{"either order, one a day: month first", either("12/24/2026", 2026, 12, 24), nil, day(2026, 12, 24), day(2026, 12, 24)},
		{"either order, the same day", either("5/5", 0, 5, 5), nil, day(2027, 5, 5), day(2027, 5, 5)},
		{"either order with dashes", either("24-12-2026", 2026, 24, 12), nil, day(2026, 12, 24), day(2026, 12, 24)},
		// what TakeLeave refuses is still returned: a last day before the first
		{"reversed", w("24.12.2026", 2026, 12, 24), &WrittenDay{Text: "20.12.2026", Year: 2026, Month: 12, Day: 20}, day(2026, 12, 24), day(2026, 12, 20)},
	} {
		l, err := LeaveSpan(tt.first, tt.last, now)
		if err != nil || !l.First.Equal(tt.from) || !l.Last.Equal(tt.until) {
			t.Errorf("%s: LeaveSpan = %v, %v; want %s to %s", tt.name, l, err, tt.from.Format(time.DateOnly), tt.until.Format(time.DateOnly))
		}
	}

	for _, tt := range []struct {
		name    string
		first   WrittenDay
		last    *WrittenDay
		reason  DateReason
		lastDay bool
		year    int
	}{
		{"31 February", w("31.2.2027", 2027, 2, 31), nil, DateNoDay, false, 0},
		{"month 13", w("2027-13-02", 2027, 13, 2), nil, DateNoDay, false, 0},
		{"day 0", w("0.1.", 0, 1, 0), nil, DateNoDay, false, 0},
		{"29 February without a year, next in 2027", w("29.2.", 0, 2, 29), nil, DateNoDay, false, 2027},
		{"a last day that is none", w("24.12.", 0, 12, 24), &WrittenDay{Text: "32.12.", Month: 12, Day: 32}, DateNoDay, true, 0},
		{"a day alone", w("24.", 0, 0, 24), nil, DateNoMonth, false, 0},
		{"two days alone", w("24", 0, 0, 24), &WrittenDay{Text: "31", Day: 31}, DateNoMonth, false, 0},
		{"a day alone in a short month", w("30.", 0, 0, 30), &WrittenDay{Text: "1.3.2027", Year: 2027, Month: 3, Day: 1}, DateNoDay, false, 0},
		{"12/11", either("12/11", 0, 12, 11), nil, DateAmbiguous, false, 0},
		{"either order, neither a day", either("13/13", 0, 13, 14), nil, DateNoDay, false, 0},
		{"either order, 29/2 without a year", either("29/2", 0, 29, 2), nil, DateNoDay, false, 2027},
	} {
		_, err := LeaveSpan(tt.first, tt.last, now)
		var de *DateError
		if !errors.As(err, &de) || de.Reason != tt.reason || de.Last != tt.lastDay || de.Year != tt.year {
			t.Errorf("%s: LeaveSpan error = %#v; want reason %v, last %v, year %d", tt.name, err, tt.reason, tt.lastDay, tt.year)
			continue
		}
		if !errors.Is(err, map[DateReason]error{DateNoDay: ErrDateNoDay, DateNoMonth: ErrDateNoMonth, DateAmbiguous: ErrDateAmbiguous}[tt.reason]) {
			t.Errorf("%s: errors.Is(%v, its sentinel) = false", tt.name, err)
		}
		if want := tt.first.Text; tt.lastDay {
			want = tt.last.Text
			if de.Day.Text != want {
				t.Errorf("%s: the refusal names %q, want %q", tt.name, de.Day.Text, want)
			}
		} else if de.Day.Text != want {
			t.Errorf("%s: the refusal names %q, want %q", tt.name, de.Day.Text, want)
		}
	}
	// 12/11's readings, first number as the day, then as the month
	_, err := LeaveSpan(either("12/11", 0, 12, 11), nil, now)
	var de *DateError
	if !errors.As(err, &de) || !de.Readings[0].Equal(day(2027, 11, 12)) || !de.Readings[1].Equal(day(2027, 12, 11)) {
		t.Errorf("12/11: %v; want the readings 2027-11-12 and 2027-12-11", err)
	}
	if err.Error() != `clock: leave day "12/11": day and month either way round (2027-11-12 or 2027-12-11)` {
		t.Errorf("Error() = %q", err.Error())
	}
}

// FuzzLeaveSpan: any parts, as the grammar may hand them over, give a
// leave of whole UTC days or a *DateError, never a panic; days without a
// year are the next such days: the first on or after today and within a
// year of it, the last on or after the first and within a year of it.
func FuzzLeaveSpan(f *testing.F) {
	f.Add(0, 12, 24, false, true, 0, 1, 2, false, int64(1797760000))
	f.Add(2026, 11, 12, true, false, 0, 0, 0, false, int64(1797760000))
	f.Add(0, 0, 28, false, true, 0, 1, 3, false, int64(1797760000))
	f.Add(26, 2, 29, false, true, 0, 0, 3, true, int64(1700000000))
	f.Fuzz(func(t *testing.T, y1, m1, d1 int, e1, hasLast bool, y2, m2, d2 int, e2 bool, unix int64) {
		now := time.Unix(unix%(1<<33), 0).UTC() // years 1970 to 2242
		first := WrittenDay{Text: "a", Year: y1 % 10000, Month: m1 % 20, Day: d1 % 40, Either: e1}
		var last *WrittenDay
		if hasLast {
			last = &WrittenDay{Text: "b", Year: y2 % 10000, Month: m2 % 20, Day: d2 % 40, Either: e2}
		}
		l, err := LeaveSpan(first, last, now)
		if err != nil {
			var de *DateError
			if !errors.As(err, &de) || de.Reason < DateNoDay || de.Reason > DateAmbiguous {
				t.Fatalf("LeaveSpan(%+v, %+v) error %v, want a *DateError", first, last, err)
			}
			return
		}
		for _, d := range []time.Time{l.First, l.Last} {
			if d.Location() != time.UTC || d.Hour() != 0 || d.Minute() != 0 || d.Second() != 0 || d.Year() < 1 || d.Year() > 9999 {
				t.Fatalf("LeaveSpan(%+v, %+v) = %v: not whole UTC days", first, last, l)
			}
		}
		td := today(now)
		if first.Year == 0 && (last == nil || last.Year == 0) && first.Month != 0 {
			if l.First.Before(td) || l.First.After(td.AddDate(1, 0, 1)) {
				t.Fatalf("LeaveSpan(%+v, %+v) on %v = %v: the first day is not the next such day", first, last, td, l)
			}
		}
		if last != nil && last.Year == 0 && (l.Last.Before(l.First) || l.Last.After(l.First.AddDate(1, 1, 1))) {
			t.Fatalf("LeaveSpan(%+v, %+v) on %v = %v: the last day is not the next such day from the first", first, last, td, l)
		}
	})
}
