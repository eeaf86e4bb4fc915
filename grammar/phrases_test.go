package grammar

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCommandPhrases: every phrase begins a command (the line of the
// phrase alone parses, or fails only after it, where an argument is
// missing), and every word that makes a line a command begins a phrase.
func TestCommandPhrases(t *testing.T) {
	first := map[string]bool{}
	for _, p := range CommandPhrases() {
		first[p[0]] = true
		line := strings.Join(p, " ")
		_, err := ParseCommand("mail", 1, line)
		var e *Error
		if errors.As(err, &e) && e.Col <= utf8.RuneCountInString(line) {
			t.Errorf("phrase %q: %v; it does not begin a command", line, err)
		}
	}
	for w := range commandWords {
		if !first[w] {
			t.Errorf("command word %q begins no phrase of CommandPhrases", w)
		}
	}
}

// TestSecondWordError (trial 2 report §5): a line whose first word only
// begins two-word commands is refused at its second word, naming the
// words that may stand there.
func TestSecondWordError(t *testing.T) {
	for _, c := range []struct {
		line          string
		col           int
		expected, fnd string
	}{
		{"remis anbiten", 7, `"anbieten" or "annehmen" or "ablehnen"`, `"anbiten"`},
		{"Remis   anbiten", 9, `"anbieten" or "annehmen" or "ablehnen"`, `"anbiten"`},
		{"offer", 6, `"draw"`, "end of input"},
		{"rücknahme annehmn", 11, `"annehmen" or "ablehnen"`, `"annehmn"`},
		{"cancel chall", 8, `"challenge" or "leave" or "urlaub" or "conditions"`, `"chall"`},
	} {
		_, err := ParseCommand("mail", 3, c.line)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: %v, want an *Error", c.line, err)
		}
		if e.Line != 3 || e.Col != c.col || e.Expected != c.expected || e.Found != c.fnd {
			t.Errorf("%q: %d:%d expected %s, found %s; want 3:%d expected %s, found %s",
				c.line, e.Line, e.Col, e.Expected, e.Found, c.col, c.expected, c.fnd)
		}
	}
	// a line that fails at its first word for another reason keeps its error
	_, err := ParseCommand("mail", 1, "zz9")
	if e := (*Error)(nil); !errors.As(err, &e) || e.Col != 1 && e.Col != 2 && e.Col != 3 {
		t.Errorf("zz9: %v", err)
	}
}

// TestAddressLength (trial 2 report §1): an address longer than RFC 5321
// allows is refused at the address, quoted cut short.
func TestAddressLength(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for _, c := range []struct{ line, want string }{
		{"new brandubh with " + long[:900] + "@a.test", "has 900 characters before the @, more than 64"},
		{"new brandubh with <" + strings.Repeat("x", 65) + "@a.test>", "has 65 characters before the @, more than 64"},
		{"new brandubh with x@" + strings.Repeat("y", 250) + ".test", "has 257 characters, more than 254"},
	} {
		_, err := ParseCommand("mail", 1, c.line)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, c.want) || e.Col != 19 {
			t.Errorf("%.40q…: %v, want column 19 and %q", c.line, err, c.want)
			continue
		}
		if len(e.Message) > 200 {
			t.Errorf("%.40q…: the message has %d bytes; it quotes the address whole", c.line, len(e.Message))
		}
	}
	for _, ok := range []string{
		"new brandubh with " + strings.Repeat("x", 64) + "@a.test",
		"new brandubh with x@" + strings.Repeat("y", 247) + ".test", // 254
	} {
		if _, err := ParseCommand("mail", 1, ok); err != nil {
			t.Errorf("%.40q…: %v", ok, err)
		}
	}
}
