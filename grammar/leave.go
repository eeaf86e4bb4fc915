package grammar

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Date is a calendar date written in ISO 8601 form, YYYY-MM-DD
// ("2026-12-24"), as in a leave command and a leave tag
// (CORRESPONDENCE.md §3.1, §5). Year, Month and Day are filled after
// parsing, once the text is known to be a day of the (proleptic
// Gregorian) calendar; a leave day is a whole UTC day.
type Date struct {
	Pos  lexer.Position
	Text string `parser:"@Date"`
	// Year (1–9999), Month (1–12) and Day (1–31) of Text.
	Year, Month, Day int
}

// String returns the date as YYYY-MM-DD.
func (d *Date) String() string { return d.Text }

// dateRE is the form of a date: four digits, two, two.
var isoDateRE = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})$`)

// check fills Year, Month and Day from Text, or reports a *Error at the
// date: not YYYY-MM-DD, or no such day ("2026-02-30").
func (d *Date) check() error {
	m := isoDateRE.FindStringSubmatch(d.Text)
	if m == nil {
		return expectedError(d.Pos, "a date as YYYY-MM-DD such as 2026-12-24", quoteFound(d.Text))
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	day, _ := strconv.Atoi(m[3])
	t := time.Date(y, time.Month(mo), day, 0, 0, 0, 0, time.UTC)
	if y < 1 || t.Year() != y || int(t.Month()) != mo || t.Day() != day {
		return newError(d.Pos, "%s is not a day of the calendar", d.Text)
	}
	d.Year, d.Month, d.Day = y, mo, day
	return nil
}

// LeaveList is the value of an AttackersLeave or DefendersLeave tag
// (CORRESPONDENCE.md §5): ISO 8601 date intervals, first and last day
// inclusive, separated by commas: "2026-12-24/2027-01-02,
// 2027-07-01/2027-07-14". A single date is a one-day interval. The empty
// string is an empty list.
type LeaveList struct {
	Pos       lexer.Position
	Intervals []*LeaveInterval `parser:"( @@ ( ',' @@ )* )?"`
}

// LeaveInterval is one interval of a LeaveList: First/Last, or First alone
// for one day (then Last is nil). Whether Last is on or after First is the
// reader's question (package notation).
type LeaveInterval struct {
	Pos   lexer.Position
	First *Date `parser:"@@"`
	Last  *Date `parser:"( '/' @@ )?"`
}

var leaveParser = participle.MustBuild[LeaveList](
	participle.Lexer(leaveLexer),
	participle.UseLookahead(0),
)

// LeaveGrammar returns the grammar of leave tags as EBNF (docs/notation.md).
func LeaveGrammar() string { return leaveParser.String() }

// ParseLeaves parses the value of a leave tag (see LeaveList) and checks
// that every date is YYYY-MM-DD and a day of the calendar. filename is used
// in error positions only; positions count from the start of text (line
// 1, column 1). Errors are *Error; it never panics.
func ParseLeaves(filename string, text string) (l *LeaveList, err error) {
	defer guard(filename, &err)
	src := []byte(text)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		p := lexer.Position{Filename: filename, Line: 1, Column: 1}
		p.Advance(text[:i])
		return nil, newError(p, "a list of leave intervals must fit on one line")
	}
	l, err = leaveParser.ParseString(filename, text)
	if err == nil {
		err = l.check()
	}
	if err != nil {
		e := convertError(err, filename, src, `"," or end of input`)
		if e.Expected != "" {
			e.Expected = dateWords.Replace(e.Expected)
			e.Message = "expected " + e.Expected + ", found " + e.Found
		}
		return nil, e
	}
	return l, nil
}

// dateWords names date tokens in error messages.
var dateWords = strings.NewReplacer(
	"LeaveInterval", "a date as YYYY-MM-DD such as 2026-12-24",
	"<date>", "a date as YYYY-MM-DD such as 2026-12-24",
	"Date", "a date as YYYY-MM-DD such as 2026-12-24",
)

// check checks every date of the list.
func (l *LeaveList) check() error {
	for _, iv := range l.Intervals {
		for _, d := range []*Date{iv.First, iv.Last} {
			if d != nil {
				if err := d.check(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// String returns the list as written in canonical form: intervals
// "first/last" separated by ", " (a one-day interval as "d/d").
func (l *LeaveList) String() string {
	s := ""
	for i, iv := range l.Intervals {
		if i > 0 {
			s += ", "
		}
		last := iv.First
		if iv.Last != nil {
			last = iv.Last
		}
		s += iv.First.Text + "/" + last.Text
	}
	return s
}
