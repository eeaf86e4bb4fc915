package grammar

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestParseLeaveDates: every form of a day (LeaveDay) and of a span, as
// people write them (issue 22 §1), read into the parts written; nothing
// is checked against the calendar here.
func TestParseLeaveDates(t *testing.T) {
	at := func(col, off int) lexer.Position {
		return lexer.Position{Filename: "l", Line: 1, Column: col, Offset: off}
	}
	day := func(col int, text string, y, m, d int) *LeaveDay {
		return &LeaveDay{Pos: at(col, col-1), Text: text, Year: y, Month: m, Day: d}
	}
	either := func(col int, text string, y, first, second int) *LeaveDay {
		return &LeaveDay{Pos: at(col, col-1), Text: text, Year: y, Month: second, Day: first, Either: true}
	}
	for _, tt := range []struct {
		in          string
		first, last *LeaveDay
	}{
		// day first, dotted
		{"24.12.2026", day(1, "24.12.2026", 2026, 12, 24), nil},
		{"24.12.", day(1, "24.12.", 0, 12, 24), nil},
		{"24.12", day(1, "24.12", 0, 12, 24), nil},
		{"01.02.27", day(1, "01.02.27", 27, 2, 1), nil},
		{"24.", day(1, "24.", 0, 0, 24), nil},
		// year first
		{"2026-12-24", day(1, "2026-12-24", 2026, 12, 24), nil},
		{"2026-1-2", day(1, "2026-1-2", 2026, 1, 2), nil},
		{"2026/12/24", day(1, "2026/12/24", 2026, 12, 24), nil},
		// two numbers in either order
		{"12/11", either(1, "12/11", 0, 12, 11), nil},
		{"12/24/2026", either(1, "12/24/2026", 2026, 12, 24), nil},
		{"24-12-2026", either(1, "24-12-2026", 2026, 24, 12), nil},
		// month names, English and German, any case, cut short
		{"Dec 24", day(1, "Dec 24", 0, 12, 24), nil},
		{"24 Dez", day(1, "24 Dez", 0, 12, 24), nil},
		{"24. Dezember 2026", day(1, "24. Dezember 2026", 2026, 12, 24), nil},
		{"December 24th, 2026", day(1, "December 24th, 2026", 2026, 12, 24), nil},
		{"1st jan", day(1, "1st jan", 0, 1, 1), nil},
		{"24th of December", day(1, "24th of December", 0, 12, 24), nil},
		{"3. März", day(1, "3. März", 0, 3, 3), nil},
		{"MRZ 3", day(1, "MRZ 3", 0, 3, 3), nil},
		{"sept. 9", day(1, "sept. 9", 0, 9, 9), nil},
		{"2 Jänner 2027", day(1, "2 Jänner 2027", 2027, 1, 2), nil},
		// spans: a dash of any kind, to, until, bis (zum), from/vom before
		{"24.12.–2.1.", day(1, "24.12.", 0, 12, 24), &LeaveDay{Pos: at(8, 9), Text: "2.1.", Month: 1, Day: 2}},
		{"24.12.-2.1.", day(1, "24.12.", 0, 12, 24), day(8, "2.1.", 0, 1, 2)},
		{"24.12. - 2.1.2027", day(1, "24.12.", 0, 12, 24), day(10, "2.1.2027", 2027, 1, 2)},
		{"2026-12-24-2027-01-02", day(1, "2026-12-24", 2026, 12, 24), day(12, "2027-01-02", 2027, 1, 2)},
		{"2026-12-24 to 2027-01-02", day(1, "2026-12-24", 2026, 12, 24), day(15, "2027-01-02", 2027, 1, 2)},
		{"Dec 24 until Jan 2", day(1, "Dec 24", 0, 12, 24), day(14, "Jan 2", 0, 1, 2)},
		{"vom 24.12. bis zum 2.1.", day(5, "24.12.", 0, 12, 24), day(20, "2.1.", 0, 1, 2)},
		{"FROM dec 24, 2026 TO jan 2, 2027", day(6, "dec 24, 2026", 2026, 12, 24), day(22, "jan 2, 2027", 2027, 1, 2)},
		// a day alone before or after a day with its month
		{"24.–31.12.", day(1, "24.", 0, 0, 24), &LeaveDay{Pos: at(5, 6), Text: "31.12.", Month: 12, Day: 31}},
		{"24-31 Dec", day(1, "24", 0, 0, 24), day(4, "31 Dec", 0, 12, 31)},
		{"2-5.1.", day(1, "2", 0, 0, 2), day(3, "5.1.", 0, 1, 5)},
		{"Dec 24 - 31", day(1, "Dec 24", 0, 12, 24), day(10, "31", 0, 0, 31)},
		// numbers the calendar refuses still read: that is clock's to say
		{"31.02.2027", day(1, "31.02.2027", 2027, 2, 31), nil},
		{"  2027-13-02  ", day(3, "2027-13-02", 2027, 13, 2), nil},
	} {
		got, err := ParseLeaveDates("l", tt.in)
		if err != nil {
			t.Errorf("ParseLeaveDates(%q) error: %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got.First, tt.first) || !reflect.DeepEqual(got.Last, tt.last) {
			t.Errorf("ParseLeaveDates(%q) = %s .. %s, want %s .. %s", tt.in, dumpTree(got.First), dumpTree(got.Last), dumpTree(tt.first), dumpTree(tt.last))
		}
	}
}

// TestParseLeaveDatesErrors: what cannot be read is refused at its
// column, expecting a date where one should be.
func TestParseLeaveDatesErrors(t *testing.T) {
	const date = "a date such as 24.12.2026, 24.12., 2026-12-24 or Dec 24"
	for _, tt := range []struct{ in, want string }{
		{"", `l:1:1: expected ` + date + `, found end of input`},
		{"   ", `l:1:4: expected ` + date + `, found end of input`},
		{"tomorrow", `l:1:1: expected ` + date + `, found "tomorrow"`},
		{"Dec", `l:1:4: expected ` + date + `, found end of input`},
		{"24.12. bis", `l:1:11: expected ` + date + `, found end of input`},
		{"24.12.2026 please", `l:1:12: expected "-" or "to" or "bis" or end of input, found "please"`},
		{"24..12.", `l:1:4: expected "-" or "to" or "bis" or end of input, found "."`},
		{"2026/12", `l:1:1: expected ` + date + `, found "2026/12"`},
		{"24.12.–2.1.–3.1.", `l:1:12: a leave has one first and one last day (a line for each leave)`},
		{"1.1. to 2.1. to 3.1.", `l:1:14: a leave has one first and one last day (a line for each leave)`},
		{"24.12.2026\n", `l:1:11: the dates of a leave must fit on one line`},
		{"99999999999999999999.1.", `l:1:1: number "99999999999999999999" is too large`},
		{"24.12.00", `l:1:1: expected ` + date + `, found "24.12.00"`},
		{"0000-12-24", `l:1:1: expected ` + date + `, found "0000-12-24"`},
		{"24.12. → 2.1.", `l:1:8: expected "-" or "to" or "bis" or end of input, found "→"`},
	} {
		_, err := ParseLeaveDates("l", tt.in)
		got := ""
		if err != nil {
			got = err.Error()
			checkErrorInside(t, "l", []byte(tt.in), err)
		}
		if got != tt.want {
			t.Errorf("ParseLeaveDates(%q) error = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLeaveDateForms: every example of the forms a refusal lists reads,
// and every month name is found by the lexer as a month.
func TestLeaveDateForms(t *testing.T) {
	for _, f := range LeaveDateForms {
		for _, ex := range f.Examples {
			if _, err := ParseLeaveDates("form", ex); err != nil {
				t.Errorf("the example %q of %q does not parse: %v", ex, f.Syntax, err)
			}
		}
	}
	for name, m := range monthNames {
		for _, w := range []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:]} {
			got, err := ParseLeaveDates("m", "5 "+w)
			if err != nil || got.First.Month != m || MonthNumber(w) != m {
				t.Errorf("5 %s: %v, %v; MonthNumber = %d, want month %d", w, got, err, MonthNumber(w), m)
			}
		}
	}
	for _, w := range []string{"Mo", "Maybe", "Decade", "to", ""} {
		if MonthNumber(w) != 0 {
			t.Errorf("MonthNumber(%q) = %d, want 0", w, MonthNumber(w))
		}
	}
}

// FuzzParseLeaveDates: no panic; an error is a *Error inside the input;
// a success has each day's Text at its position in the input, with a
// day always written; each day's Text read alone gives the same day; and
// the days printed (String) read back to the same days.
func FuzzParseLeaveDates(f *testing.F) {
	for _, s := range []string{"24.12.2026", "24.12.", "2026-12-24", "Dec 24", "24 Dez", "24.12.–2.1.", "12/11",
		"vom 24.12. bis zum 2.1.", "24.–31.12.", "December 24th, 2026 to January 2nd, 2027", "2026-12-24-2027-01-02",
		"24-31 Dec", "2026/12", "24..12", "März 3", "x", "\xff", "1.1. to 2.1. to 3.1.", "24th.", "9999999999.1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ld, err := ParseLeaveDates("l", s)
		if err != nil {
			checkErrorInside(t, "l", []byte(s), err)
			return
		}
		for _, d := range []*LeaveDay{ld.First, ld.Last} {
			if d == nil {
				continue
			}
			if d.Pos.Line != 1 || d.Pos.Offset < 0 || !strings.HasPrefix(s[d.Pos.Offset:], d.Text) ||
				d.Pos.Column != utf8.RuneCountInString(s[:d.Pos.Offset])+1 {
				t.Fatalf("ParseLeaveDates(%q): day %+v is not where its text is", s, d)
			}
			if d.Day < 0 || d.Month < 0 || d.Year < 0 || d.Text == "" {
				t.Fatalf("ParseLeaveDates(%q): day %+v", s, d)
			}
			alone, err := ParseLeaveDates("l", d.Text)
			if err != nil || alone.Last != nil {
				t.Fatalf("ParseLeaveDates(%q): its day %q alone = %v, %v", s, d.Text, alone, err)
			}
			got, want := *alone.First, *d
			got.Pos, want.Pos = lexer.Position{}, lexer.Position{}
			if got != want {
				t.Fatalf("ParseLeaveDates(%q): its day %q alone reads %+v, in the span %+v", s, d.Text, got, want)
			}
		}
		again, err := ParseLeaveDates("l", ld.String())
		if err != nil || (again.Last == nil) != (ld.Last == nil) || again.First.Text != ld.First.Text {
			t.Fatalf("ParseLeaveDates(%q) printed as %q reads %v, %v", s, ld.String(), again, err)
		}
	})
}
