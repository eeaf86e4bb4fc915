package grammar

import (
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

func TestParseLeaves(t *testing.T) {
	at := func(col int) lexer.Position {
		return lexer.Position{Filename: "tag", Line: 1, Column: col, Offset: col - 1}
	}
	date := func(col int, text string, y, m, d int) *Date {
		return &Date{Pos: at(col), Text: text, Year: y, Month: m, Day: d}
	}
	tests := []struct {
		in   string
		want *LeaveList
	}{
		{"", &LeaveList{Pos: at(1)}},
		{"2026-12-24/2027-01-02", &LeaveList{Pos: at(1), Intervals: []*LeaveInterval{
			{Pos: at(1), First: date(1, "2026-12-24", 2026, 12, 24), Last: date(12, "2027-01-02", 2027, 1, 2)}}}},
		// two intervals; the second starts after ", " at column 23
		{"2026-12-24/2027-01-02, 2027-07-01/2027-07-14", &LeaveList{Pos: at(1), Intervals: []*LeaveInterval{
			{Pos: at(1), First: date(1, "2026-12-24", 2026, 12, 24), Last: date(12, "2027-01-02", 2027, 1, 2)},
			{Pos: at(24), First: date(24, "2027-07-01", 2027, 7, 1), Last: date(35, "2027-07-14", 2027, 7, 14)}}}},
		// a single day; a leap day
		{"2028-02-29", &LeaveList{Pos: at(1), Intervals: []*LeaveInterval{
			{Pos: at(1), First: date(1, "2028-02-29", 2028, 2, 29)}}}},
	}
	for _, tt := range tests {
		got, err := ParseLeaves("tag", tt.in)
		if err != nil {
			t.Errorf("ParseLeaves(%q) error: %v", tt.in, err)
			continue
		}
		if tt.in == "" {
			got.Pos = at(1) // an empty list has no token to take a position from
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseLeaves(%q) = %s, want %s", tt.in, dumpTree(got), dumpTree(tt.want))
		}
	}
}

func TestParseLeavesErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2026-12-24/", `tag:1:12: expected a date as YYYY-MM-DD such as 2026-12-24, found end of input`},
		{"2026-12-24 2027-01-01", `tag:1:12: expected "," or end of input, found "2027-01-01"`},
		{"2026-12-24,", `tag:1:12: expected a date as YYYY-MM-DD such as 2026-12-24, found end of input`},
		{"2026-02-30/2026-03-01", `tag:1:1: 2026-02-30 is not a day of the calendar`},
		{"2027-02-29", `tag:1:1: 2027-02-29 is not a day of the calendar`},
		{"2026-12-24/2027-1-2", `tag:1:12: expected a date as YYYY-MM-DD such as 2026-12-24, found "2027-1-2"`},
		{"0000-01-01", `tag:1:1: 0000-01-01 is not a day of the calendar`},
		{"24.12.2026", `tag:1:1: unexpected character '2'`},
		{"2026-12-24\n", `tag:1:11: a list of leave intervals must fit on one line`},
	}
	for _, tt := range tests {
		_, err := ParseLeaves("tag", tt.in)
		got := ""
		if err != nil {
			got = err.Error()
			checkErrorInside(t, "tag", []byte(tt.in), err)
		}
		if got != tt.want {
			t.Errorf("ParseLeaves(%q) error = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseComment(t *testing.T) {
	// the comment's brace is at line 3, column 9 (offset 40): its text
	// starts at column 10
	c := &Comment{Pos: lexer.Position{Filename: "r", Line: 3, Column: 9, Offset: 40},
		Text: "[%ts 2026-11-28T21:52:10Z] [%clk 29d23h12m] a [quiet] start"}
	got, err := ParseComment(c)
	if err != nil {
		t.Fatal(err)
	}
	at := func(col int) lexer.Position {
		return lexer.Position{Filename: "r", Line: 3, Column: col, Offset: 31 + col}
	}
	want := &CommentBody{Pos: at(10), Items: []*CommentItem{
		{Pos: at(10), Command: &CommentCommand{Pos: at(10), Name: "ts", Args: []string{"2026-11-28T21:52:10Z"}}},
		{Pos: at(36), Text: " "},
		// "[%ts 2026-11-28T21:52:10Z] " is 27 characters: column 37
		{Pos: at(37), Command: &CommentCommand{Pos: at(37), Name: "clk", Args: []string{"29d23h12m"}}},
		// "[%clk 29d23h12m]" is 16 characters: 37 … 52
		{Pos: at(53), Text: " a "},
		{Pos: at(56), Text: "["},
		{Pos: at(57), Text: "quiet] start"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseComment = %s, want %s", dumpTree(got), dumpTree(want))
	}
	if s := got.Items[0].Command.String(); s != "[%ts 2026-11-28T21:52:10Z]" {
		t.Errorf("CommentCommand.String() = %q", s)
	}
	for text, wantErr := range map[string]string{
		"[%ts 2026":  `r:3:19: expected "]", found end of input`,
		"x [%] y":    `r:3:14: expected a command name such as ts, found "]"`,
		"just text":  ``,
		"[not a cmd": ``,
	} {
		_, err := ParseComment(&Comment{Pos: c.Pos, Text: text})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != wantErr {
			t.Errorf("ParseComment(%q) error = %q, want %q", text, got, wantErr)
		}
	}
}
