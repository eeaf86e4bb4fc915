package grammar

import "testing"

// TestPositioned: the one format of positioned errors, with and without
// each part.
func TestPositioned(t *testing.T) {
	for _, tc := range []struct {
		file      string
		line, col int
		want      string
	}{
		{"game.tafl", 3, 14, "game.tafl:3:14: path blocked"},
		{"", 3, 14, "3:14: path blocked"},
		{"game.tafl", 0, 0, "game.tafl: path blocked"},
		{"", 0, 0, "path blocked"},
		{"", 0, 7, "path blocked"}, // a column without a line is no position
	} {
		if got := Positioned(tc.file, tc.line, tc.col, "path blocked"); got != tc.want {
			t.Errorf("Positioned(%q, %d, %d) = %q, want %q", tc.file, tc.line, tc.col, got, tc.want)
		}
	}
}

// TestErrorText: *Error prints through Positioned; Expected and Found
// replace Message.
func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{&Error{Filename: "m.txt", Line: 1, Col: 3, Message: "expected \"-\", found \"x\"", Expected: `"-"`, Found: `"x"`},
			`m.txt:1:3: expected "-", found "x"`},
		{&Error{Line: 2, Col: 1, Message: "unexpected end of line"}, "2:1: unexpected end of line"},
		{&Error{Filename: "r.tafl", Message: "record has no result"}, "r.tafl: record has no result"},
		{&Error{Message: "record has no result"}, "record has no result"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", *tc.err, got, tc.want)
		}
	}
}
