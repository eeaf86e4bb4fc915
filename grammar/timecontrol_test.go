package grammar

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestParseTimeControl: every form of CORRESPONDENCE.md §1, as a syntax
// tree, and its length in minutes worked out by hand.
func TestParseTimeControl(t *testing.T) {
	p := lexer.Position{} // positions are compared in TestTimeControlPositions
	tests := []struct {
		in   string
		want *TimeControl
		// base, increment and cap in minutes (a day is 1440)
		base, inc, cap int64
	}{
		{"none", &TimeControl{None: true}, 0, 0, 0},
		{"NONE", &TimeControl{None: true}, 0, 0, 0},
		// 30 days = 30 × 1440 = 43200 minutes; 1 day = 1440
		{"30d+1d", &TimeControl{Base: dur(p, part(p, 30, "d")), Increment: dur(p, part(p, 1, "d"))}, 43200, 1440, 0},
		// 6d12h = 6 × 1440 + 12 × 60 = 9360; 10h = 600
		{"6d12h+10h", &TimeControl{Base: dur(p, part(p, 6, "d"), part(p, 12, "h")), Increment: dur(p, part(p, 10, "h"))}, 9360, 600, 0},
		// sudden death: an increment of 0d
		{"7d+0d", &TimeControl{Base: dur(p, part(p, 7, "d")), Increment: dur(p, part(p, 0, "d"))}, 10080, 0, 0},
		{"3d/move", &TimeControl{Base: dur(p, part(p, 3, "d")), PerMove: true}, 4320, 0, 0},
		// 20 days = 28800
		{"10d+2d max 20d", &TimeControl{Base: dur(p, part(p, 10, "d")), Increment: dur(p, part(p, 2, "d")), Cap: dur(p, part(p, 20, "d"))}, 14400, 2880, 28800},
		{"30d+1d iccf", &TimeControl{Base: dur(p, part(p, 30, "d")), Increment: dur(p, part(p, 1, "d")), ICCF: true}, 43200, 1440, 0},
		{"3D/Move ICCF", &TimeControl{Base: dur(p, part(p, 3, "D")), PerMove: true, ICCF: true}, 4320, 0, 0},
		{"10d+2d max 20d iccf", &TimeControl{Base: dur(p, part(p, 10, "d")), Increment: dur(p, part(p, 2, "d")), Cap: dur(p, part(p, 20, "d")), ICCF: true}, 14400, 2880, 28800},
		// blanks between the parts; 1d 2h 3m = 1440 + 120 + 3
		{" 1d 2h 3m + 0m ", &TimeControl{Base: dur(p, part(p, 1, "d"), part(p, 2, "h"), part(p, 3, "m")), Increment: dur(p, part(p, 0, "m"))}, 1563, 0, 0},
		// a unit may exceed the next: 36h = 2160, 90m
		{"36h+90m", &TimeControl{Base: dur(p, part(p, 36, "h")), Increment: dur(p, part(p, 90, "m"))}, 2160, 90, 0},
		// the limit itself: 999 days
		{"999d/move", &TimeControl{Base: dur(p, part(p, 999, "d")), PerMove: true}, 999 * 1440, 0, 0},
	}
	for _, tt := range tests {
		got, err := ParseTimeControl("tc", tt.in)
		if err != nil {
			t.Errorf("ParseTimeControl(%q) error: %v", tt.in, err)
			continue
		}
		stripPos(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseTimeControl(%q) = %s, want %s", tt.in, dumpTree(got), dumpTree(tt.want))
		}
		mins := func(d *Duration) int64 {
			if d == nil {
				return 0
			}
			return d.Minutes()
		}
		if !got.None && (mins(got.Base) != tt.base || mins(got.Increment) != tt.inc || mins(got.Cap) != tt.cap) {
			t.Errorf("ParseTimeControl(%q) minutes = %d, %d, %d; want %d, %d, %d", tt.in,
				mins(got.Base), mins(got.Increment), mins(got.Cap), tt.base, tt.inc, tt.cap)
		}
	}
}

// TestTimeControlPositions: every node knows its column.
func TestTimeControlPositions(t *testing.T) {
	at := func(col int) lexer.Position {
		return lexer.Position{Filename: "tc", Line: 1, Column: col, Offset: col - 1}
	}
	got, err := ParseTimeControl("tc", "2d12h+1h max 5d")
	if err != nil {
		t.Fatal(err)
	}
	want := &TimeControl{Pos: at(1), Base: dur(at(1), part(at(1), 2, "d"), part(at(3), 12, "h")),
		Increment: dur(at(7), part(at(7), 1, "h")), Cap: dur(at(14), part(at(14), 5, "d"))}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseTimeControl = %s, want %s", dumpTree(got), dumpTree(want))
	}
}

func TestParseTimeControlErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `tc:1:1: expected a time control such as none, 30d+1d or 3d/move, found end of input`},
		{"  ", `tc:1:3: expected a time control such as none, 30d+1d or 3d/move, found end of input`},
		{"30d", `tc:1:4: expected "/" or "+", found end of input`},
		{"30d+", `tc:1:5: expected a duration such as 30d or 2d12h, found end of input`},
		{"30", `tc:1:3: expected a unit "d", "h" or "m", found end of input`},
		{"3s+1d", `tc:1:2: expected a unit "d", "h" or "m", found "s"`},
		{"30dmax", `tc:1:3: expected a unit "d", "h" or "m", found "dmax"`},
		{"3d/move max 4d", `tc:1:9: max goes only with an increment (<base>+<inc> max <cap>), not with <t>/move`},
		{"3d/moves", `tc:1:4: expected "move", found "moves"`},
		{"none iccf", `tc:1:6: expected end of input, found "iccf"`},
		{"30d+1d iccf max 40d", `tc:1:13: expected end of input, found "max"`},
		{"30d+1d iccf iccf", `tc:1:13: expected end of input, found "iccf"`},
		{"12h2d+1d", `tc:1:4: units must come in the order d, h, m, each at most once (as in 2d12h)`},
		{"1d1d+1d", `tc:1:3: units must come in the order d, h, m, each at most once (as in 2d12h)`},
		{"0d/move", `tc:1:1: the time must be more than 0 (write none for an untimed game)`},
		{"0d0h+1d", `tc:1:1: the time must be more than 0 (write none for an untimed game)`},
		{"30d+1d max 10d", `tc:1:12: the cap 10d is less than the base time 30d`},
		{"1000d/move", `tc:1:1: a duration of a time control may be at most 999d`},
		// 998 days and 48 hours are 1000 days
		{"998d48h/move", `tc:1:1: a duration of a time control may be at most 999d`},
		{"99999999999999999999d+1d", `tc:1:1: number "99999999999999999999" is too large`},
		{"30d-1d", `tc:1:4: unexpected character '-'`},
		{"30d+1d\n", `tc:1:7: a time control must fit on one line`},
		{"30d+1d\x00", `tc:1:7: control character U+0000 not allowed`},
	}
	for _, tt := range tests {
		_, err := ParseTimeControl("tc", tt.in)
		got := ""
		if err != nil {
			got = err.Error()
			checkErrorInside(t, "tc", []byte(tt.in), err)
		}
		if got != tt.want {
			t.Errorf("ParseTimeControl(%q) error = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTimeControlForms: the forms a refusal lists are exactly the
// accepted ones: every example parses, and a syntax line itself does not.
func TestTimeControlForms(t *testing.T) {
	n := 0
	for _, f := range TimeControlForms {
		for _, ex := range f.Examples {
			n++
			if _, err := ParseTimeControl("forms", ex); err != nil {
				t.Errorf("example %q of %q does not parse: %v", ex, f.Syntax, err)
			}
		}
		if f.Syntax != "none" {
			if _, err := ParseTimeControl("forms", f.Syntax); err == nil {
				t.Errorf("syntax line %q parses as a time control", f.Syntax)
			}
		}
	}
	if n < 7 {
		t.Errorf("only %d examples", n)
	}
	text := TimeControlFormsText()
	for _, f := range TimeControlForms {
		if !strings.Contains(text, f.Syntax) {
			t.Errorf("TimeControlFormsText lacks %q:\n%s", f.Syntax, text)
		}
	}
	// every row is a control: a duration alone (CORRESPONDENCE.md §1) is
	// none, so a row of durations would read as an accepted form
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		form := strings.TrimSpace(line[:24])
		if !slices.ContainsFunc(TimeControlForms, func(f TimeControlForm) bool { return f.Syntax == form }) {
			t.Errorf("TimeControlFormsText has a row %q that is no form of TimeControlForms", line)
		}
	}
}

// TestTimeControlString: printing and parsing again gives the same tree.
func TestTimeControlString(t *testing.T) {
	for in, want := range map[string]string{
		"none": "none", "30D+1D": "30d+1d", "2d 12h+1h max 5d ICCF": "2d12h+1h max 5d iccf", "3d/move": "3d/move",
	} {
		tc, err := ParseTimeControl("tc", in)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.String(); got != want {
			t.Errorf("ParseTimeControl(%q).String() = %q, want %q", in, got, want)
		}
	}
}
