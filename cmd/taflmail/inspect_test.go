package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestInspectShowsReplies: the text output shows each reply's text, so the
// reason for a refusal is there and not only in --json (trial report
// §11); control characters of the mail are shown escaped, never sent to
// the terminal.
func TestInspectShowsReplies(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "none.db")
	mail := filepath.Join(dir, "m.eml")
	raw := "From: a@example.org\r\nSubject: =?utf-8?q?red=1B[31m_alert?=\r\nMessage-ID: <m@example.org>\r\n\r\n1. d1-d3\r\n\x1b[2Jcleared\r\n"
	if err := os.WriteFile(mail, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "inspect", mail, "--archive-path", db)
	if r.code != exitOK {
		t.Fatalf("inspect = code %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{
		"Reply to    a@example.org: your mail to taflmail\n",
		"This command needs a game, but your mail names none.",
		`Subject     red\x1b[31m alert`,
		`  | \x1b[2Jcleared`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, r.stdout)
		}
	}
	checkTerminalSafe(t, "inspect", r.stdout+r.stderr)
}

// TestInspectGarbage: a file of random bytes is refused with an error that
// names what is wrong without printing the bytes raw.
func TestInspectGarbage(t *testing.T) {
	dir := t.TempDir()
	mail := filepath.Join(dir, "garbage.eml")
	junk := []byte("\x8f\xd2\x01\x1b[5m\xff\xfe:\x07 binary\x00junk\r\n\r\nbody")
	if err := os.WriteFile(mail, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "inspect", mail, "--archive-path", filepath.Join(dir, "none.db"))
	if r.code != exitFailure || !strings.Contains(r.stderr, "garbage.eml: mailer: parse: malformed message: in header") {
		t.Errorf("inspect garbage = code %d, stderr %q", r.code, r.stderr)
	}
	checkTerminalSafe(t, "inspect garbage", r.stdout+r.stderr)
}

// checkTerminalSafe fails when out holds invalid UTF-8 or a control
// character other than a line feed or tab.
func checkTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s printed invalid UTF-8: %q", what, out)
	}
	for _, r := range out {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			t.Errorf("%s printed the control character %U: %q", what, r, out)
			break
		}
	}
}
