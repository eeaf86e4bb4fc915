package server

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// brokenLines are command lines that do not parse, one for each kind of
// complaint the grammar makes about a mail command.
var brokenLines = []string{
	"1... d3-f3 please", "neu brandubh", "new", "new x with", "new x with y", "offer", "d1", "d1-", "d1-e",
	"12.", "d1-d33", "z1-a1", "d1–e1", "d1—e1", "12345678901234567890. d1-d3", "d1-d3\x01", "D1-D3!",
	"d1xd3", "d1-d3/", "d6 - d9", "d1- d3",
	// trial 2 report §8: these reached German players in English
	"notify digest 25:00", "notify digest 7:3", "notify 07:00", "watch", "watch !",
	"new brandubh with bob@x.test level 1 level 2", "new brandubh with bob@x.test as a as b",
	"new brandubh with bob@x.test time 10d+1d max 5d", "new brandubh with bob@x.test time 1d3d+1d",
	"new brandubh with bob@x.test time 3d/move max 5d",
	"new brandubh with " + strings.Repeat("x", 65) + "@x.test",
	"new brandubh with x@" + strings.Repeat("x", 250) + ".test",
	"clock " + strings.Repeat("1.", 5000), // issue 18: longer than grammar.MaxCommandLine
}

// TestSyntaxEnglish: in English the referee says exactly what the grammar
// says, so English syntax errors read as they always have.
func TestSyntaxEnglish(t *testing.T) {
	for _, line := range brokenLines {
		_, err := grammar.ParseCommand("mail", 1, line)
		var ge *grammar.Error
		if !errors.As(err, &ge) {
			t.Fatalf("%q parses (%v); the table needs a broken line", line, err)
		}
		if got := referee.ExpectedText(referee.English, ge.Expected); got != ge.Expected {
			t.Errorf("%q: expected %q, the grammar says %q", line, got, ge.Expected)
		}
		if got := referee.SyntaxPhrase(referee.English, ge.Found); got != ge.Found {
			t.Errorf("%q: found %q, the grammar says %q", line, got, ge.Found)
		}
		if got := referee.SyntaxMessage(referee.English, ge.Message); got != ge.Message {
			t.Errorf("%q: message %q, the grammar says %q", line, got, ge.Message)
		}
	}
}

// quoted matches the text a syntax error quotes from the line or the
// grammar's keywords ("with"), which are no sentence.
var quoted = regexp.MustCompile(`"[^"]*"|'[^']*'|U\+[0-9A-F]+`)

// TestSyntaxGerman: a German player's syntax errors are German throughout:
// every phrase the grammar uses for these lines has a translation.
func TestSyntaxGerman(t *testing.T) {
	ss := &referee.Session{Lang: referee.German}
	for _, line := range brokenLines {
		_, err := grammar.ParseCommand("mail", 1, line)
		text := ss.SyntaxError(referee.CommandLine{N: 1, Text: line, Err: err})
		body := text[strings.Index(text, "^\n")+2:]
		for _, f := range englishIn(quoted.ReplaceAllString(body, " ")) {
			t.Errorf("%q: English word %s", line, f)
		}
		if !strings.HasSuffix(text, referee.Tr(referee.German, "err.nothing")) {
			t.Errorf("%q: %s", line, text)
		}
	}
	mustContain(t, "expected", referee.ExpectedText(referee.German, `"with" or "mit" or end of line`), `"with" oder "mit" oder Zeilenende`)
}

// TestLongLineRefusedRestDone (issue 18): a mail line over
// grammar.MaxCommandLine bytes is not read as a command (alone, the mail
// gets the reply to a mail without commands, which does not quote it
// whole); beside a valid command it is passed over as prose is, and the
// command is carried out. TestSyntaxGerman checks the refusal's words.
func TestLongLineRefusedRestDone(t *testing.T) {
	h := newHarness(t)
	long := "clock " + strings.Repeat("1.", 5000)
	text := to(t, h.deliver(alice, "x", long, nil), alice).Text
	mustContain(t, "long line", text, referee.Tr(referee.English, "err.nocommand"))
	if len(text) > 4000 {
		t.Errorf("the reply has %d bytes; it quotes the long line whole", len(text))
	}
	text = to(t, h.deliver(alice, "y", long+"\nvariants", nil), alice).Text
	mustContain(t, "long line and variants", text, "copenhagen", "brandubh")
}
