package grammar

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
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

// TestCommandLexersAgree: the lexer for lines without "@" has the same
// symbols as the one for lines with it, and gives the same tokens for
// such lines, so which one reads a line changes nothing but its cost.
func TestCommandLexersAgree(t *testing.T) {
	with, without := commandLexer.with.Symbols(), commandLexer.without.Symbols()
	if len(with) != len(without) {
		t.Fatalf("symbols: %d with the Email rule, %d without", len(with), len(without))
	}
	for name, tt := range with {
		if without[name] != tt {
			t.Errorf("symbol %s: %d with the Email rule, %d without", name, tt, without[name])
		}
	}
	lines := []string{
		"1. d1-d3", "clock 1.1.1.1.1", "new copenhagen 3d+1d", "urlaub 24.12.–2.1.",
		"watch K7QX2M", "d6 - d9", "name Åsa_Berg-2", "leave 2026-12-24 to 2027-01-02", "x%y+z.w",
		"challenge tablut 10m+5s", "Kf6-c6!", "…",
	}
	for _, line := range lines {
		a, err := tokens(commandLexer.with, line)
		if err != nil {
			t.Fatalf("%q with the Email rule: %v", line, err)
		}
		b, err := tokens(commandLexer.without, line)
		if err != nil {
			t.Fatalf("%q without it: %v", line, err)
		}
		if !slices.Equal(a, b) {
			t.Errorf("%q: tokens %v with the Email rule, %v without", line, a, b)
		}
	}
	// and a line with an address is read with the Email rule
	toks, err := tokens(commandLexer, "watch a.b@example.org")
	if err != nil || !slices.ContainsFunc(toks, func(tok lexer.Token) bool {
		return tok.Type == with["Email"] && tok.Value == "a.b@example.org"
	}) {
		t.Errorf("address line: tokens %v (%v), want an Email token", toks, err)
	}
}

// tokens lexes line with d, up to its end.
func tokens(d interface {
	LexString(string, string) (lexer.Lexer, error)
}, line string) ([]lexer.Token, error) {
	lx, err := d.LexString("mail", line)
	if err != nil {
		return nil, err
	}
	var out []lexer.Token
	for {
		tok, err := lx.Next()
		if err != nil {
			return nil, err
		}
		out = append(out, tok)
		if tok.EOF() {
			return out, nil
		}
	}
}

// BenchmarkParseCommandLong parses lines of "1.1.1…" up to the limit,
// without an "@" (linear, addressLexer) and with one at the end (the
// Email rule is tried at every token: the square of the length, which
// MaxCommandLine bounds).
func BenchmarkParseCommandLong(b *testing.B) {
	for _, at := range []string{"", " a@b.org"} {
		for _, n := range []int{250, 500, 994 - len(at)} {
			line := "clock " + strings.Repeat("1.", n/2) + at
			name := strconv.Itoa(len(line))
			if at != "" {
				name += "-with-@"
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					_, _ = ParseCommand("mail", 1, line)
				}
			})
		}
	}
}
