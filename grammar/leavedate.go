package grammar

import (
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The days of a leave command as people write them (issue 22 §1): "leave
// 24.12.2026", "urlaub 24.12.–2.1.", "leave Dec 24 to Jan 2", "leave
// 2026-12-24". The grammar reads the form of each day: which number is the
// day, the month and the year where the form says so, and nothing more.
// Whether a day is a day of the calendar, which year a day written without
// one falls in (the next such day), and which reading of "12/11" is meant
// are the referee's questions (package clock, clock.LeaveSpan).

// LeaveDates are the days of a leave command (CORRESPONDENCE.md §3): one
// day, or the first and last day of a span, both inclusive.
type LeaveDates struct {
	Pos   lexer.Position
	First *LeaveDay
	// Last is the span's last day; nil for a single day.
	Last *LeaveDay
}

// LeaveDay is one day of a leave command as written. A part not written
// is 0. The forms and what they fill:
//
//	24.12.2026  24.12.  24.12  24.12.26     Day, Month (, Year): day first, always
//	24.  24                                 Day alone: a day of the other end's month ("24.–31.12.")
//	2026-12-24  2026/12/24  2026-1-2        Year (four digits first), Month, Day
//	24/12  12/24/2026  24-12-2026           two numbers in either order: Either
//	24 Dec  24. Dezember 2026  24th of Dec  Day, Month (named), Year
//	Dec 24  December 24th, 2026             Month (named), Day, Year
//
// Month names are English and German, in full or cut short (Jan, Jän,
// Mär, Mrz, Sept, Okt, Dez, …; monthNames), in any case.
type LeaveDay struct {
	Pos lexer.Position
	// Text is the day as written, e.g. "24.12." or "Dec 24".
	Text string
	// Year is the year as written: four digits, or two ("24.12.26");
	// a year written as 0 is refused.
	Year int
	// Month is 1–12 for a month name, else the number written; 0 when
	// not written (Day alone).
	Month int
	// Day is the number written for the day.
	Day int
	// Either: the form does not say which of the two numbers is the day
	// ("12/11", "11-12-2026"); Day holds the first written, Month the
	// second.
	Either bool
}

// monthNames are the words for the months a leave command may use, in
// lower case: English and German names, in full and cut short (with or
// without the umlaut: "märz", "maerz"; Austrian "jänner", "feber").
var monthNames = map[string]int{
	"january": 1, "jan": 1, "januar": 1, "jänner": 1, "jaenner": 1, "jän": 1, "jaen": 1,
	"february": 2, "feb": 2, "febr": 2, "februar": 2, "feber": 2,
	"march": 3, "mar": 3, "märz": 3, "maerz": 3, "mär": 3, "mrz": 3,
	"april": 4, "apr": 4,
	"may": 5, "mai": 5,
	"june": 6, "jun": 6, "juni": 6,
	"july": 7, "jul": 7, "juli": 7,
	"august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9,
	"october": 10, "oct": 10, "oktober": 10, "okt": 10,
	"november": 11, "nov": 11,
	"december": 12, "dec": 12, "dezember": 12, "dez": 12,
}

// MonthNumber returns the month (1–12) a word of a leave command names
// ("Dec", "dezember", "Mär"; any case), or 0 for a word that is none.
func MonthNumber(word string) int { return monthNames[strings.ToLower(word)] }

// monthPattern is the lexer's pattern of a month name: any of monthNames,
// longest first, in any case, as a whole word.
var monthPattern = func() string {
	names := make([]string, 0, len(monthNames))
	for n := range monthNames {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return `(?i)(?:` + strings.Join(names, "|") + `)\b`
}()

// leaveDateLexer lexes the days of a leave command (ParseLeaveDates):
// numbers, ordinals ("24th"), month names, other words ("to", "bis"),
// ".", "/", "," and the dashes (hyphen, en and em dash, minus). Any other
// character is a token of its own, for the parser to refuse.
var leaveDateLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Ordinal", Pattern: `[0-9]+(?i:st|nd|rd|th)\b`},
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "Month", Pattern: monthPattern},
	{Name: "Word", Pattern: `\pL+`},
	{Name: "Dot", Pattern: `\.`},
	{Name: "Slash", Pattern: `/`},
	{Name: "Dash", Pattern: `[-‐‑‒–—−]`},
	{Name: "Comma", Pattern: `,`},
	{Name: "whitespace", Pattern: `[\s\p{Zs}]+`},
	{Name: "Other", Pattern: `.`},
})

// leaveSpan is the grammar of the days of a leave command: a day, or two
// joined by a dash, "to", "until", "till", "through" or "bis" ("bis zum"),
// with "from", "vom" or "von" before the first allowed.
type leaveSpan struct {
	Pos   lexer.Position
	From  string       `parser:"@('from' | 'vom' | 'von')?"`
	First *leaveDay    `parser:"@@"`
	Rest  []*leaveRest `parser:"@@*"`
}

// leaveRest is the last day of a span with the word or dash before it.
// The grammar takes any number of them, so that a third day is refused
// with a reason (dates) rather than as an unexpected token.
type leaveRest struct {
	Pos lexer.Position
	To  string    `parser:"@( Dash | 'to' | 'until' | 'till' | 'through' | 'bis' )"`
	Zum string    `parser:"@'zum'?"`
	Day *leaveDay `parser:"@@"`
}

// leaveDay is one day in one of its forms (LeaveDay), tried in this order.
type leaveDay struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Dashed  *dashedDay  `parser:"  @@"`
	Slashed *slashedDay `parser:"| @@"`
	DayName *dayMonth   `parser:"| @@"`
	NameDay *monthDay   `parser:"| @@"`
	Dotted  *dottedDay  `parser:"| @@"`
}

// dashedDay: 2026-12-24, 24-12-2026.
type dashedDay struct {
	A string `parser:"@Int Dash"`
	B string `parser:"@Int Dash"`
	C string `parser:"@Int"`
}

// slashedDay: 24/12, 12/24/2026, 2026/12/24.
type slashedDay struct {
	A string `parser:"@Int Slash"`
	B string `parser:"@Int"`
	C string `parser:"( Slash @Int )?"`
}

// dayMonth: 24 Dec, 24. Dezember 2026, 24th December, 2026, 24th of
// December.
type dayMonth struct {
	Day   string `parser:"@(Int | Ordinal) Dot? 'of'?"`
	Month string `parser:"@Month Dot?"`
	Year  string `parser:"( Comma? @Int )?"`
}

// monthDay: Dec 24, Dec. 24th, December 24, 2026.
type monthDay struct {
	Month string `parser:"@Month Dot?"`
	Day   string `parser:"@(Int | Ordinal)"`
	Year  string `parser:"( Comma? @Int )?"`
}

// dottedDay: 24.12.2026, 24.12., 24.12, 24., 24.
type dottedDay struct {
	Day   string `parser:"@Int"`
	Month string `parser:"( Dot ( @Int"`
	Year  string `parser:"  ( Dot @Int? )? )? )?"`
}

var leaveDateParser = participle.MustBuild[leaveSpan](
	participle.Lexer(leaveDateLexer),
	participle.CaseInsensitive("Word"),
	participle.UseLookahead(5),
)

// LeaveDatesGrammar returns the grammar of the days of a leave command as
// EBNF (docs/notation.md).
func LeaveDatesGrammar() string { return leaveDateParser.String() }

// LeaveDateForm is one accepted form of a day of a leave command with
// examples, for a reply that cannot read a date (issue 22 §1: say which
// form to write, as the time-control forms do). The words around them are
// the caller's.
type LeaveDateForm struct {
	Syntax   string   // e.g. "DD.MM.YYYY"
	Examples []string // each parses with ParseLeaveDates
}

// LeaveDateForms are the accepted forms of the days of a leave command,
// the unambiguous ones first.
var LeaveDateForms = []LeaveDateForm{
	{"DD.MM.YYYY  DD.MM.", []string{"24.12.2026", "24.12."}},
	{"YYYY-MM-DD", []string{"2026-12-24"}},
	{"DD Month  Month DD", []string{"24 Dec 2026", "Dec 24", "24. Dezember"}},
	{"FIRST - LAST", []string{"24.12.–2.1.", "Dec 24 to Jan 2", "24.12. bis 2.1."}},
}

// LeaveDateExpected is what an error expects where a day of a leave
// command should be.
const LeaveDateExpected = "a date such as 24.12.2026, 24.12., 2026-12-24 or Dec 24"

// ParseLeaveDates parses the days of a leave command, the text after
// "leave"/"urlaub" (see LeaveDay for the forms). filename is used in error
// positions only; positions count from the start of text (line 1, column
// 1; columns in runes). It only reads the forms: no number is checked to
// be a day, a month or a year of the calendar (clock.LeaveSpan does that).
// Errors are *Error, at the offending token, expecting LeaveDateExpected
// where a day should be; it never panics.
func ParseLeaveDates(filename, text string) (ld *LeaveDates, err error) {
	defer guard(filename, &err)
	src := []byte(text)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		p := lexer.Position{Filename: filename, Line: 1, Column: 1}
		p.Advance(text[:i])
		return nil, newError(p, "the dates of a leave must fit on one line")
	}
	if strings.TrimSpace(text) == "" {
		p := lexer.Position{Filename: filename, Line: 1, Column: 1}
		p.Advance(text)
		return nil, expectedError(p, LeaveDateExpected, "end of input")
	}
	span, err := leaveDateParser.ParseString(filename, text)
	if err == nil {
		ld, err = span.dates(text)
	}
	if err != nil {
		e := convertError(err, filename, src, `"-" or "to" or "bis" or end of input`)
		if e.Expected != "" {
			e.Expected = leaveDateWords(e.Expected)
			e.Message = "expected " + e.Expected + ", found " + e.Found
		}
		return nil, e
	}
	return ld, nil
}

// leaveDateWords names what the leave-date grammar expected in words: any
// day or part of one is LeaveDateExpected; the separators stay as they
// are.
func leaveDateWords(expected string) string {
	var alts []string
	day := false
	for _, a := range strings.Split(expected, " or ") {
		switch a {
		case "LeaveDay", "DashedDay", "SlashedDay", "DayMonth", "MonthDay", "DottedDay",
			"number", "<int>", "<ordinal>", "<month>", `"from"`, `"vom"`, `"von"`, "<dot>", "<slash>", "<comma>":
			day = true
			continue
		}
		alts = append(alts, a)
	}
	if day {
		alts = append([]string{LeaveDateExpected}, alts...)
	}
	if len(alts) == 0 {
		return LeaveDateExpected
	}
	return strings.Join(alts, " or ")
}

// dates turns the parsed span into LeaveDates, each day's Text cut from
// src.
func (s *leaveSpan) dates(src string) (*LeaveDates, error) {
	first, err := s.First.day(src)
	if err != nil {
		return nil, err
	}
	ld := &LeaveDates{Pos: s.Pos, First: first}
	switch {
	case len(s.Rest) > 1:
		return nil, newError(s.Rest[1].Pos, "a leave has one first and one last day (a line for each leave)")
	case len(s.Rest) == 1:
		if ld.Last, err = s.Rest[0].Day.day(src); err != nil {
			return nil, err
		}
	}
	return ld, nil
}

// day fills a LeaveDay from the form that matched.
func (d *leaveDay) day(src string) (*LeaveDay, error) {
	out := &LeaveDay{Pos: d.Pos, Text: strings.TrimSpace(src[d.Pos.Offset:d.EndPos.Offset])}
	n := func(s string) (int, error) {
		if s == "" {
			return 0, nil
		}
		s = strings.TrimRight(strings.ToLower(s), "stndrh") // 24th, 1st, 2nd, 3rd
		v, err := strconv.Atoi(s)
		if err != nil || v > 99999 {
			return 0, newError(d.Pos, "number %s is too large", quoteFound(s))
		}
		return v, nil
	}
	var a, b, c string
	switch {
	case d.Dashed != nil:
		a, b, c = d.Dashed.A, d.Dashed.B, d.Dashed.C
	case d.Slashed != nil:
		a, b, c = d.Slashed.A, d.Slashed.B, d.Slashed.C
	case d.DayName != nil:
		out.Month = MonthNumber(d.DayName.Month)
		a, c = d.DayName.Day, d.DayName.Year
	case d.NameDay != nil:
		out.Month = MonthNumber(d.NameDay.Month)
		a, c = d.NameDay.Day, d.NameDay.Year
	case d.Dotted != nil:
		a, b, c = d.Dotted.Day, d.Dotted.Month, d.Dotted.Year
	}
	var err error
	if d.Dashed != nil || d.Slashed != nil {
		if len(a) == 4 { // year first: 2026-12-24, 2026/12/24
			if out.Year, err = n(a); err == nil {
				if out.Month, err = n(b); err == nil {
					out.Day, err = n(c)
				}
			}
			if c == "" && err == nil || out.Year == 0 { // "2026/12": a month, no day; "0000-12-24"
				return nil, expectedError(d.Pos, LeaveDateExpected, quoteFound(out.Text))
			}
			return out, err
		}
		out.Either = true
	}
	if out.Day, err = n(a); err != nil {
		return nil, err
	}
	if b != "" {
		if out.Month, err = n(b); err != nil {
			return nil, err
		}
	}
	if out.Year, err = n(c); err != nil {
		return nil, err
	}
	if c != "" && out.Year == 0 { // "24.12.00": 0 is Year's "not written"
		return nil, expectedError(d.Pos, LeaveDateExpected, quoteFound(out.Text))
	}
	return out, nil
}

// String writes the days as written: "24.12. to 2.1." ("to" for any
// separator), or the one day.
func (ld *LeaveDates) String() string {
	if ld.Last == nil {
		return ld.First.Text
	}
	return ld.First.Text + " to " + ld.Last.Text
}
