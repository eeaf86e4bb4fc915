package grammar

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestParseCommandLongLine: a line of more than MaxCommandLine bytes is
// refused with its length, at the column where it passes the limit; a
// line of exactly the limit is still read.
func TestParseCommandLongLine(t *testing.T) {
	atLimit := "clock " + strings.Repeat("1.", (MaxCommandLine-6)/2)
	if len(atLimit) != MaxCommandLine {
		t.Fatalf("test line has %d bytes, want %d", len(atLimit), MaxCommandLine)
	}
	_, err := ParseCommand("mail", 3, atLimit)
	if err == nil || strings.Contains(err.Error(), "at most") {
		t.Fatalf("line of %d bytes: got %v, want the grammar's own error", len(atLimit), err)
	}

	over := atLimit + "1"
	_, err = ParseCommand("mail", 3, over)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("line of %d bytes: got %v, want *Error", len(over), err)
	}
	want := "mail:3:1001: a command line may be at most 1000 bytes long; this one has 1001"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err.Error(), want)
	}

	// The column counts runes: 999 ASCII bytes, then "ä" across the limit.
	mixed := strings.Repeat("a", 999) + "ää"
	_, err = ParseCommand("mail", 1, mixed)
	if !errors.As(err, &e) || e.Col != 1000 {
		t.Errorf("multi-byte line: got %v, want column 1000", err)
	}
}

// BenchmarkParseCommandLong parses lines of "1.1.1…" up to the limit.
// Their cost grows with the square of their length (participle's lexer
// tries the Email rule, which reads a whole run of digits and dots, at
// every token), which is why MaxCommandLine bounds it.
func BenchmarkParseCommandLong(b *testing.B) {
	for _, n := range []int{250, 500, 994} {
		line := "clock " + strings.Repeat("1.", n/2)
		b.Run(strconv.Itoa(len(line)), func(b *testing.B) {
			for range b.N {
				_, _ = ParseCommand("mail", 1, line)
			}
		})
	}
}
