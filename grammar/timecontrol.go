package grammar

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// TimeControl is a time control as written in a "new … time …" command, a
// record's TimeControl tag and a tournament file (CORRESPONDENCE.md §1):
//
//	none                  untimed
//	30d+1d                Fischer: base time, increment after each ply
//	10d+2d max 20d        … the clock never exceeds the cap after an increment
//	3d/move               each ply within 3 days; unused time is not carried
//	30d+1d iccf           … charged in whole days (§2.3)
//
// Keywords and units are case-insensitive; blanks between the parts are
// allowed ("30d + 1d"). Exactly one of None, Increment != nil and PerMove
// holds. The grammar only reads the form; package notation turns the tree
// into durations (notation.ParseTimeControl).
type TimeControl struct {
	Pos lexer.Position
	// None is "none": an untimed game.
	None bool `parser:"( @'none'"`
	// Base is the time before "+" (Fischer) or before "/move" (the time
	// for each ply).
	Base *Duration `parser:"| @@"`
	// PerMove is "<t>/move".
	PerMove bool `parser:"  ( @'/' 'move'"`
	// Increment follows "+"; "0d" is allowed (sudden death).
	Increment *Duration `parser:"  | '+' @@"`
	// Cap follows "max"; only with an increment. nil when absent.
	Cap *Duration `parser:"    ( 'max' @@ )? )"`
	// ICCF is the suffix "iccf": whole-day accounting (§2.3).
	ICCF bool `parser:"  @'iccf'? )"`
}

// Duration is a span written as one or more parts "<n>d", "<n>h", "<n>m"
// (days of 24 hours, hours, minutes), at most one of each in that order:
// "2d12h", "90m", "0d".
type Duration struct {
	Pos   lexer.Position
	Parts []*DurationPart `parser:"@@+"`
}

// DurationPart is one "<n><unit>" of a Duration. Unit is "d", "h" or "m"
// as written (any case).
type DurationPart struct {
	Pos  lexer.Position
	N    int    `parser:"@Int"`
	Unit string `parser:"@('d' | 'h' | 'm')"`
}

// MaxTimeControlDays is the longest duration a time control may name, in
// days (base, increment, cap and per-move time alike): a sanity limit that
// keeps every clock far from time.Duration's range.
const MaxTimeControlDays = 999

// Minutes returns the duration in minutes (a day is 1440 minutes). Parsed
// durations are at most MaxTimeControlDays long, so the sum cannot
// overflow for them.
func (d *Duration) Minutes() int64 {
	var m int64
	for _, p := range d.Parts {
		m += int64(p.N) * unitMinutes(p.Unit)
	}
	return m
}

// String returns the duration as written, in lower case: "2d12h".
func (d *Duration) String() string {
	var b strings.Builder
	for _, p := range d.Parts {
		b.WriteString(strconv.Itoa(p.N))
		b.WriteString(strings.ToLower(p.Unit))
	}
	return b.String()
}

// String returns the time control in lower case with single blanks before
// "max" and "iccf": "10d+2d max 20d iccf", "3d/move", "none". Durations are
// printed as written ("36h" stays "36h"; notation.TimeControl.String
// writes the canonical form).
func (t *TimeControl) String() string {
	if t.None {
		return "none"
	}
	if t.Base == nil {
		return ""
	}
	s := t.Base.String()
	switch {
	case t.PerMove:
		s += "/move"
	case t.Increment != nil:
		s += "+" + t.Increment.String()
		if t.Cap != nil {
			s += " max " + t.Cap.String()
		}
	}
	if t.ICCF {
		s += " iccf"
	}
	return s
}

// unitMinutes returns the minutes of one unit "d", "h" or "m" (any case).
func unitMinutes(u string) int64 {
	switch strings.ToLower(u) {
	case "d":
		return 24 * 60
	case "h":
		return 60
	}
	return 1
}

var timeControlParser = participle.MustBuild[TimeControl](
	participle.Lexer(timeControlLexer),
	participle.CaseInsensitive("Word"),
	participle.CaseInsensitive("Letter"),
	participle.UseLookahead(0),
)

// TimeControlGrammar returns the time-control grammar as EBNF
// (docs/notation.md, docs/clock.md).
func TimeControlGrammar() string { return timeControlParser.String() }

// TimeControlForm is one accepted form of a time control with examples,
// for a reply that refuses a time control (CORRESPONDENCE.md §1: "refused
// with the accepted forms in the reply"). Syntax and examples are the same
// in every language; the words around them are the caller's.
type TimeControlForm struct {
	Syntax   string   // e.g. "<base>+<inc>"
	Examples []string // e.g. "30d+1d"; each parses with ParseTimeControl
}

// TimeControlForms are the accepted forms of a time control, in the order
// of CORRESPONDENCE.md §1. A duration is one or more of "<n>d", "<n>h",
// "<n>m", combined like 2d12h.
var TimeControlForms = []TimeControlForm{
	{"none", []string{"none"}},
	{"<base>+<inc>", []string{"30d+1d", "6d12h+10h", "7d+0d"}},
	{"<base>+<inc> max <cap>", []string{"10d+2d max 20d"}},
	{"<t>/move", []string{"3d/move"}},
	{"<control> iccf", []string{"30d+1d iccf", "3d/move iccf"}},
}

// TimeControlFormsText returns TimeControlForms as an aligned block of
// lines, syntax left and examples right, ready to be quoted in a reply:
//
//	none                    none
//	<base>+<inc>            30d+1d   6d12h+10h   7d+0d
//	…
//
// A duration alone is no control of its own (CORRESPONDENCE.md
// §1 has no bare duration), so it is not a row: a reply says how one is
// written inside a control in a sentence below the table.
func TimeControlFormsText() string {
	var b strings.Builder
	for _, f := range TimeControlForms {
		b.WriteString(f.Syntax)
		b.WriteString(strings.Repeat(" ", 24-len(f.Syntax)))
		b.WriteString(strings.Join(f.Examples, "   "))
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseTimeControl parses a time control (CORRESPONDENCE.md §1; see
// TimeControl). filename is used in error positions only. Besides the
// grammar it checks that each duration has at most one part per unit, in
// the order d, h, m; that no duration exceeds MaxTimeControlDays; that the
// base (or per-move) time is not zero; and that a cap is at least the
// base. Errors are *Error with the line and column of the offending part;
// a reply should list TimeControlForms with it. It never panics.
func ParseTimeControl(filename string, text string) (tc *TimeControl, err error) {
	defer guard(filename, &err)
	src := []byte(text)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		p := lexer.Position{Filename: filename, Line: 1, Column: 1}
		p.Advance(text[:i])
		return nil, newError(p, "a time control must fit on one line")
	}
	if strings.TrimSpace(text) == "" {
		p := lexer.Position{Filename: filename, Line: 1, Column: 1}
		p.Advance(text)
		return nil, expectedError(p, "a time control such as none, 30d+1d or 3d/move", "end of input")
	}
	tc, err = timeControlParser.ParseString(filename, text)
	if err == nil {
		err = checkTimeControl(tc)
	}
	if err != nil {
		e := convertError(err, filename, src, "end of input")
		if e.Expected != "" {
			e.Expected = timeWords.Replace(e.Expected)
			e.Message = "expected " + e.Expected + ", found " + e.Found
		}
		if strings.EqualFold(e.Found, `"max"`) && strings.Contains(strings.ToLower(text), "/") {
			e.Expected, e.Found = "", ""
			e.Message = "max goes only with an increment (<base>+<inc> max <cap>), not with <t>/move"
		}
		return nil, e
	}
	return tc, nil
}

// timeWords names the time-control tokens in error messages.
var timeWords = strings.NewReplacer(
	"Duration", "a duration such as 30d or 2d12h",
	"DurationPart", "a duration such as 30d or 2d12h",
	"<int>", "a number",
	`"d" or "h" or "m"`, `a unit "d", "h" or "m"`,
)

// checkTimeControl checks what the grammar cannot say: units in order,
// the limits, a base above zero and a cap not below the base.
func checkTimeControl(tc *TimeControl) error {
	if tc.None {
		return nil
	}
	for _, d := range []*Duration{tc.Base, tc.Increment, tc.Cap} {
		if d == nil {
			continue
		}
		if err := checkDuration(d); err != nil {
			return err
		}
	}
	if tc.Base.Minutes() == 0 {
		return newError(tc.Base.Pos, "the time must be more than 0 (write none for an untimed game)")
	}
	if tc.Cap != nil && tc.Cap.Minutes() < tc.Base.Minutes() {
		return newError(tc.Cap.Pos, "the cap %s is less than the base time %s", tc.Cap, tc.Base)
	}
	return nil
}

// checkDuration checks one duration: at most one part per unit, in the
// order d, h, m, and at most MaxTimeControlDays in all.
func checkDuration(d *Duration) error {
	last := int64(1 << 62)
	for _, p := range d.Parts {
		u := unitMinutes(p.Unit)
		if u >= last {
			return newError(p.Pos, "units must come in the order d, h, m, each at most once (as in 2d12h)")
		}
		last = u
		if int64(p.N) > MaxTimeControlDays*24*60/u {
			return newError(p.Pos, "a duration of a time control may be at most %dd", MaxTimeControlDays)
		}
	}
	if d.Minutes() > MaxTimeControlDays*24*60 {
		return newError(d.Pos, "a duration of a time control may be at most %dd", MaxTimeControlDays)
	}
	return nil
}
