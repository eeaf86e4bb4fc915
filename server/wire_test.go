package server

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// maxMailLine is the longest line, in characters, a mail the referee sends
// may show a player (RFC 5322 §2.1.1 recommends 78).
const maxMailLine = 78

// wireText returns the text part of a raw mail as a client that knows
// nothing of format=flowed shows it: the transfer encoding undone, the
// lines as sent, LF line ends. In a multipart mail it is the first
// text/plain part.
func wireText(raw []byte) (string, error) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "", err
	}
	return partText(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
}

func partText(ctype, cte string, body io.Reader) (string, error) {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err != nil {
				return "", fmt.Errorf("no text/plain part: %w", err)
			}
			if t, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); t == "text/plain" {
				return partText(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
			}
		}
	}
	if strings.EqualFold(cte, "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, err := io.ReadAll(body)
	return strings.ReplaceAll(string(b), "\r\n", "\n"), err
}

// longLines returns the lines of text longer than maxMailLine characters.
func longLines(text string) []string {
	var long []string
	for line := range strings.SplitSeq(text, "\n") {
		if utf8.RuneCountInString(line) > maxMailLine {
			long = append(long, line)
		}
	}
	return long
}

// checkLineLength fails t when the mail raw to addr is not format=flowed
// or shows a line longer than maxMailLine characters, but for the named
// exceptions of lineExempt.
func checkLineLength(t testing.TB, addr string, raw []byte) {
	t.Helper()
	text, err := wireText(raw)
	if err != nil {
		t.Errorf("mail to %s: %v", addr, err)
		return
	}
	if !bytes.Contains(raw, []byte("format=flowed")) {
		t.Errorf("mail to %s is not format=flowed (mailer.Outgoing.Flowed)", addr)
	}
	for _, l := range longLines(text) {
		if !lineExempt(l) {
			t.Errorf("mail to %s has a line of %d characters (at most %d; server/wire_test.go):\n%s", addr, utf8.RuneCountInString(l), maxMailLine, l)
		}
	}
}

// lineExempt reports the long lines a mail may show: a quoted line of
// the player's own mail ("> …", space-stuffed, up to maxQuoteRunes
// characters and its length, never wrapped) and the caret under it, and a
// line of one word that no wrapping can shorten (a URL, a long address).
func lineExempt(l string) bool {
	s := strings.TrimPrefix(l, " ")
	switch {
	case strings.HasPrefix(s, "> "):
		return true
	case strings.TrimLeft(s, " ") == "^":
		return true
	}
	return !strings.Contains(strings.TrimSpace(s), " ")
}

// unstuffed returns the wire text of a flowed mail with the
// space-stuffing undone (RFC 3676 §4.4) but the lines as sent: what the
// reply goldens show, so that their diffs show where lines break.
func unstuffed(raw []byte) string {
	text, err := wireText(raw)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, " ")
	}
	return strings.Join(lines, "\n")
}

// logLongLines appends the long lines of a sent mail to the file named by
// TAFLMAIL_LONGLINES, when set, after a line naming the mail's test (test,
// "" when the sender has no t): how the corpus of every mail the tests
// send was measured (docs/commands.md, "Line length").
func logLongLines(raw []byte, test string) {
	path := os.Getenv("TAFLMAIL_LONGLINES")
	if path == "" {
		return
	}
	text, err := wireText(raw)
	if err != nil {
		text = "unreadable: " + err.Error()
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "MAIL %d %s\n", len(strings.Split(text, "\n")), test)
	for _, l := range longLines(text) {
		fmt.Fprintf(f, "LONG %d %s\n", utf8.RuneCountInString(l), l)
	}
}

// TestTableRow: a row that fits is only marked; a longer one wraps at
// spaces under its first column, marked too, never cutting a word.
func TestTableRow(t *testing.T) {
	short := "  G00001  brandubh   vs bob@player.test"
	if got := referee.TableRow(short, 10); got != mailer.Preformatted(short) {
		t.Errorf("tableRow(%q) = %q, want it only marked", short, got)
	}
	long := "  G00001  attackers  vs " + strings.Repeat("y", 50) + "@player.test  you move first"
	got := mailer.Unmark(referee.TableRow(long, 10))
	want := "  G00001  attackers  vs\n          " + strings.Repeat("y", 50) + "@player.test\n          you move first"
	if got != want {
		t.Errorf("tableRow(long) =\n%s\nwant\n%s", got, want)
	}
	if strings.Count(referee.TableRow(long, 10), "\x1e") != 3 {
		t.Errorf("not every line of a wrapped row is marked: %q", referee.TableRow(long, 10))
	}
}

// TestBigBoardFits: the largest board, Alea Evangelii's 19×19, is sent as
// it is drawn and fits in 78 columns with its space-stuffing, so it needs
// no exception (the harness fails any mail with a longer line).
func TestBigBoardFits(t *testing.T) {
	h := newHarness(t)
	startGame(t, h, "alea", referee.English)
	m := h.last(alice)
	text, err := wireText(m.raw)
	if err != nil {
		t.Fatal(err)
	}
	files := "a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s"
	longest := 0
	for line := range strings.SplitSeq(text, "\n") {
		if strings.Contains(line, files) {
			longest = max(longest, utf8.RuneCountInString(line))
		}
	}
	if longest == 0 {
		t.Fatalf("no 19×19 board in the mail:\n%s", text)
	}
	if longest > maxMailLine {
		t.Errorf("the 19×19 board's files line is %d characters", longest)
	}
	// space-stuffed on the wire, as drawn for a flowed-aware reader
	row := " 19  .  .  A  .  .  A  .  .  .  .  .  .  .  A  .  .  A  .  .  19\n"
	mustContain(t, "the mail as sent", text, "\n "+row)
	mustContain(t, "the mail as read", m.msg.Text, "\n"+row)
}
