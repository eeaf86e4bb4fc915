package notation

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/taflmail/taflmail/grammar"
)

// Day is a day of correspondence play: 24 hours (CORRESPONDENCE.md: "Times
// are UTC; day = 24 hours").
const Day = 24 * time.Hour

// ControlKind is the form of a time control (CORRESPONDENCE.md §1).
type ControlKind uint8

const (
	// Untimed is "none": reminders only, never lost on time.
	Untimed ControlKind = iota
	// Fischer is "<base>+<inc>": each side starts with Base; after each of
	// its plies Increment is added, cut to Cap when there is one.
	Fischer
	// PerMove is "<t>/move": each ply within PerMove of the opponent's
	// ply being made available; unused time is not carried.
	PerMove
)

// String returns "none", "fischer" or "per move".
func (k ControlKind) String() string {
	switch k {
	case Fischer:
		return "fischer"
	case PerMove:
		return "per move"
	}
	return "none"
}

// TimeControl is a time control as a value (CORRESPONDENCE.md §1). The zero
// value is "none". Durations are whole minutes, as the grammar writes them
// (days of 24 hours, hours, minutes).
type TimeControl struct {
	Kind ControlKind
	// Base is a Fischer control's starting time for each side.
	Base time.Duration
	// Increment is a Fischer control's time added after each ply (may be 0:
	// sudden death).
	Increment time.Duration
	// PerMove is a per-move control's time for each ply.
	PerMove time.Duration
	// Cap is a Fischer control's ceiling after an increment; 0 for none.
	Cap time.Duration
	// ICCF selects whole-day accounting (§2.3) instead of exact seconds.
	ICCF bool
}

// Timed reports whether the control can be lost on time (any kind but
// Untimed).
func (tc TimeControl) Timed() bool { return tc.Kind != Untimed }

// String writes the canonical form: lower case, durations normalised by
// FormatDuration, single blanks before "max" and "iccf": "none",
// "30d+1d", "1d12h+0d max 20d iccf", "3d/move". It reads back with
// ParseTimeControl to the same value.
func (tc TimeControl) String() string {
	var s string
	switch tc.Kind {
	case Fischer:
		s = FormatDuration(tc.Base) + "+" + FormatDuration(tc.Increment)
		if tc.Cap > 0 {
			s += " max " + FormatDuration(tc.Cap)
		}
	case PerMove:
		s = FormatDuration(tc.PerMove) + "/move"
	default:
		return "none"
	}
	if tc.ICCF {
		s += " iccf"
	}
	return s
}

// ParseTimeControl reads a time control in the language of
// CORRESPONDENCE.md §1 (grammar.ParseTimeControl). filename is used in
// error positions only. Errors are *grammar.Error, positioned in text; a
// reply that refuses a control should list grammar.TimeControlForms.
func ParseTimeControl(filename, text string) (TimeControl, error) {
	t, err := grammar.ParseTimeControl(filename, text)
	if err != nil {
		return TimeControl{}, err
	}
	return TimeControlOf(t), nil
}

// TimeControlOf converts a parsed time control (as in
// grammar.NewGameCommand.Time) to a value. A nil tree is "none".
func TimeControlOf(t *grammar.TimeControl) TimeControl {
	if t == nil || t.None || t.Base == nil {
		return TimeControl{}
	}
	minutes := func(d *grammar.Duration) time.Duration {
		if d == nil {
			return 0
		}
		return time.Duration(d.Minutes()) * time.Minute
	}
	tc := TimeControl{ICCF: t.ICCF}
	if t.PerMove {
		tc.Kind, tc.PerMove = PerMove, minutes(t.Base)
		return tc
	}
	tc.Kind, tc.Base, tc.Increment, tc.Cap = Fischer, minutes(t.Base), minutes(t.Increment), minutes(t.Cap)
	return tc
}

// FormatDuration writes a duration as a time control or a %clk comment
// writes it: days, hours and minutes, each part only when not zero
// ("29d23h12m", "2d", "12h", "45m"), "0d" for less than a minute, a
// leading "-" when negative. Seconds are dropped (rounded towards zero).
func FormatDuration(d time.Duration) string {
	if d < 0 {
		return "-" + FormatDuration(-d)
	}
	m := int64(d / time.Minute)
	days, hours, mins := m/(24*60), m/60%24, m%60
	var b strings.Builder
	for _, p := range []struct {
		n    int64
		unit byte
	}{{days, 'd'}, {hours, 'h'}, {mins, 'm'}} {
		if p.n > 0 {
			b.WriteString(strconv.FormatInt(p.n, 10))
			b.WriteByte(p.unit)
		}
	}
	if b.Len() == 0 {
		return "0d"
	}
	return b.String()
}

// SpellDuration writes d in days, hours, minutes and seconds, largest
// first and down to the unit smallest (time.Minute drops the seconds,
// rounding towards zero), each part only when not zero. The words are
// the caller's: part writes n of unit (notation.Day, time.Hour,
// time.Minute or time.Second), and join appends a part to the text so
// far. Zero, d shorter than smallest and d below zero alike, is 0 of
// the largest unit, part(Day, 0), as FormatDuration writes "0d", and to
// the second 0 seconds, part(time.Second, 0) (a clock run down).
// FormatDuration is the notation's own spelling; the referee's mails
// (server/internal/catalog) and the web pages (web/units.go) spell
// durations in the reader's language with this, each with the words of
// its own catalogue (docs/commands.md, "Replies in German").
func SpellDuration(d, smallest time.Duration, part func(unit time.Duration, n int) string, join func(text, part string) string) string {
	d = max(d, 0).Truncate(smallest)
	text := ""
	for _, unit := range []time.Duration{Day, time.Hour, time.Minute, time.Second} {
		if unit < smallest {
			break
		}
		n := int(d / unit)
		if n == 0 {
			continue
		}
		d -= time.Duration(n) * unit
		if text == "" {
			text = part(unit, n)
		} else {
			text = join(text, part(unit, n))
		}
	}
	switch {
	case text != "":
		return text
	case smallest < time.Minute:
		return part(time.Second, 0)
	default:
		return part(Day, 0)
	}
}

// Leave is one leave interval of a player: whole UTC days from First to
// Last, both inclusive (CORRESPONDENCE.md §3.1: "leave 2026-12-24 to
// 2027-01-02" is 10 days, from 00:00 on the 24th to 24:00 on the 2nd).
// First and Last are 00:00 UTC of their days.
type Leave struct {
	First, Last time.Time
}

// NewLeave returns the leave from the UTC day of first to the UTC day of
// last (the times of day are dropped). It fails when last is before
// first.
func NewLeave(first, last time.Time) (Leave, error) {
	l := Leave{First: utcDay(first), Last: utcDay(last)}
	if l.Last.Before(l.First) {
		return Leave{}, fmt.Errorf("notation: leave ends on %s, before it begins on %s", l.Last.Format(time.DateOnly), l.First.Format(time.DateOnly))
	}
	return l, nil
}

// utcDay returns 00:00 UTC of t's UTC day.
func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// DateOf returns 00:00 UTC of a parsed date.
func DateOf(d *grammar.Date) time.Time {
	return time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC)
}

// LeaveOf returns the leave an interval of a leave tag names (dates
// YYYY-MM-DD): from first to last, or the single day first when last is
// nil. (A leave command's days, written as people write them, are
// clock.LeaveSpan's.) It fails (a *grammar.Error at
// last) when last is before first.
func LeaveOf(first, last *grammar.Date) (Leave, error) {
	if last == nil {
		last = first
	}
	l, err := NewLeave(DateOf(first), DateOf(last))
	if err != nil {
		return Leave{}, &grammar.Error{Filename: last.Pos.Filename, Line: last.Pos.Line, Col: last.Pos.Column,
			Message: fmt.Sprintf("the last day %s is before the first day %s", last.Text, first.Text)}
	}
	return l, nil
}

// Start returns the instant the leave begins: 00:00 UTC of First.
func (l Leave) Start() time.Time { return l.First }

// End returns the instant the leave ends: 24:00 UTC of Last (00:00 of the
// next day).
func (l Leave) End() time.Time { return l.Last.Add(Day) }

// Days returns the number of days of the leave, First and Last included.
func (l Leave) Days() int { return int(l.End().Sub(l.First) / Day) }

// DaysIn returns the number of the leave's days that fall in the calendar
// year (UTC).
func (l Leave) DaysIn(year int) int {
	from := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(year+1, 1, 1, 0, 0, 0, 0, time.UTC)
	if l.First.After(from) {
		from = l.First
	}
	if l.End().Before(to) {
		to = l.End()
	}
	if !to.After(from) {
		return 0
	}
	return int(to.Sub(from) / Day)
}

// Contains reports whether the instant t lies in the leave (Start ≤ t <
// End).
func (l Leave) Contains(t time.Time) bool { return !t.Before(l.Start()) && t.Before(l.End()) }

// String returns the interval as a leave tag writes it:
// "2026-12-24/2027-01-02".
func (l Leave) String() string {
	return l.First.Format(time.DateOnly) + "/" + l.Last.Format(time.DateOnly)
}

// ParseLeaves reads the value of an AttackersLeave or DefendersLeave tag
// (grammar.ParseLeaves): ISO 8601 date intervals separated by ", ". It
// fails with a *grammar.Error, positioned in text, for a malformed date or
// an interval whose last day is before its first.
func ParseLeaves(filename, text string) ([]Leave, error) {
	l, err := grammar.ParseLeaves(filename, text)
	if err != nil {
		return nil, err
	}
	out := make([]Leave, 0, len(l.Intervals))
	for _, iv := range l.Intervals {
		lv, err := LeaveOf(iv.First, iv.Last)
		if err != nil {
			return nil, err
		}
		out = append(out, lv)
	}
	return out, nil
}

// FormatLeaves writes leave intervals as a leave tag's value, separated by
// ", " in the order given.
func FormatLeaves(ls []Leave) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.String()
	}
	return strings.Join(parts, ", ")
}
