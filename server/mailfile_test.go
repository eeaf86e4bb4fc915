package server

// Helpers for the tests that feed realistic raw mails
// (testdata/mail/*.eml) through mailer.Parse into Server.HandleMail:
// placeholders filled from the live game, the game's state before and
// after, the log.

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"log/slog"
	"mime"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// mailDir holds the raw test mails. Their placeholders are listed at
// mailVars.
const mailDir = "testdata/mail"

// mailVars returns the placeholder values for a mail that addr writes about
// game id, answering the last mail the server sent to addr:
//
//	{{GAME}}          the game id
//	{{KEY}}           addr's key for the game
//	{{MSGID}}         Message-ID of the server's last mail to addr, no brackets
//	{{REFS}}          References for a reply to it, with brackets
//	{{SUBJECT}}       its subject as a mail header carries it (RFC 2047)
//	{{SUBJECT_TEXT}}  its subject decoded, for quoted header blocks
//	{{QUOTED}}        its text, every line quoted with "> " (">" when blank)
//	{{ORIGINAL}}      its text as it is, for history pasted without marks
//	{{ORIGINAL_HTML}} its text as HTML (escaped, <br> per line)
//	{{DATE}}          the harness clock, RFC 5322 date
//	{{FROM}}          addr
//
// The multi-line values get the line ends of the file they go into.
func (h *harness) mailVars(addr, id string) map[string]string {
	h.t.Helper()
	v := map[string]string{
		"{{GAME}}": id,
		"{{DATE}}": h.now.Format(time.RFC1123Z),
		"{{FROM}}": addr,
	}
	if id != "" {
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			h.t.Fatalf("mailVars: %v", err)
		}
		v["{{KEY}}"] = referee.TokenOf(g, addr)
	}
	var last *mailer.Message
	for i := len(h.sender.sent) - 1; i >= 0; i-- {
		if h.sender.sent[i].to == addr {
			last = h.sender.sent[i].msg
			break
		}
	}
	if last != nil {
		v["{{MSGID}}"] = last.MessageID
		refs := append(append([]string(nil), last.References...), last.MessageID)
		v["{{REFS}}"] = "<" + strings.Join(refs, ">\n <") + ">"
		v["{{SUBJECT}}"] = mime.QEncoding.Encode("utf-8", last.Subject)
		v["{{SUBJECT_TEXT}}"] = last.Subject
		lines := strings.Split(last.Text, "\n")
		q := make([]string, len(lines))
		for i, l := range lines {
			if l == "" {
				q[i] = ">"
			} else {
				q[i] = "> " + l
			}
		}
		v["{{QUOTED}}"] = strings.Join(q, "\n")
		v["{{ORIGINAL}}"] = last.Text
		v["{{ORIGINAL_HTML}}"] = strings.ReplaceAll(html.EscapeString(last.Text), "\n", "<br>\n")
	}
	return v
}

// loadMail reads testdata/mail/name and fills in the placeholders. It fails
// the test when a placeholder of the file has no value.
func (h *harness) loadMail(name string, vars map[string]string) []byte {
	h.t.Helper()
	raw, err := os.ReadFile(filepath.Join(mailDir, name))
	if err != nil {
		h.t.Fatal(err)
	}
	crlf := bytes.Contains(raw, []byte("\r\n"))
	for k, val := range vars {
		if crlf {
			val = strings.ReplaceAll(val, "\n", "\r\n")
		}
		raw = bytes.ReplaceAll(raw, []byte(k), []byte(val))
	}
	if i := bytes.Index(raw, []byte("{{")); i >= 0 {
		end := min(i+20, len(raw))
		h.t.Fatalf("%s: placeholder without a value: %q", name, raw[i:end])
	}
	return raw
}

// parseRaw parses raw as the inbox does, with the server's size limit.
func (h *harness) parseRaw(r io.Reader) *mailer.Message {
	h.t.Helper()
	m, err := mailer.Parse(r, h.srv.Opts.MaxMailBytes)
	if err != nil {
		h.t.Fatalf("mailer.Parse: %v", err)
	}
	h.seq++
	m.UID, m.UIDValidity = uint32(h.seq), 1
	return m
}

// handle gives m to HandleMail and flushes the outbox. It returns the mails
// sent because of it and HandleMail's error.
func (h *harness) handle(m *mailer.Message) ([]sentMail, error) {
	before := len(h.sender.sent)
	h.refused = nil
	err := h.srv.HandleMail(context.Background(), m)
	h.srv.FlushOutbox(context.Background())
	return h.sender.sent[before:], err
}

// deliverRaw parses and handles a raw mail; HandleMail must succeed.
func (h *harness) deliverRaw(raw []byte) []sentMail {
	h.t.Helper()
	sent, err := h.handle(h.parseRaw(bytes.NewReader(raw)))
	if err != nil {
		h.t.Fatalf("HandleMail: %v", err)
	}
	return sent
}

// deliverFile loads a test mail written by addr about game id and delivers
// it.
func (h *harness) deliverFile(name, addr, id string) []sentMail {
	h.t.Helper()
	return h.deliverRaw(h.loadMail(name, h.mailVars(addr, id)))
}

// gameState is what a mail may change about a game, for before/after
// comparisons (the reply threads and Version are left out: every mail
// about a game moves its thread on).
type gameState struct {
	Status                       archive.GameStatus
	Result, Reason, DrawOfferBy  string
	Plies                        []string
	AttackerToken, DefenderToken string
}

func (s gameState) String() string {
	return fmt.Sprintf("%s %s %s draw=%q plies=%v", s.Status, s.Result, s.Reason, s.DrawOfferBy, s.Plies)
}

func (h *harness) state(id string) gameState {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatalf("game %s: %v", id, err)
	}
	s := gameState{Status: g.Status, Result: g.Result, Reason: g.Reason, DrawOfferBy: g.DrawOfferBy,
		AttackerToken: g.AttackerToken, DefenderToken: g.DefenderToken, Plies: []string{}}
	for i, p := range g.Plies {
		if p.N != i+1 {
			h.t.Fatalf("game %s: ply %d is numbered %d", id, i+1, p.N)
		}
		s.Plies = append(s.Plies, p.Move)
	}
	if len(s.Plies) != g.PlyCount {
		h.t.Fatalf("game %s: %d plies loaded, PlyCount %d", id, len(s.Plies), g.PlyCount)
	}
	return s
}

// unchanged fails unless game id is still in state want.
func (h *harness) unchanged(what, id string, want gameState) {
	h.t.Helper()
	if got := h.state(id); !equalState(got, want) {
		h.t.Errorf("%s changed game %s:\n was %v\n now %v", what, id, want, got)
	}
}

func equalState(a, b gameState) bool {
	return a.Status == b.Status && a.Result == b.Result && a.Reason == b.Reason &&
		a.DrawOfferBy == b.DrawOfferBy && slices.Equal(a.Plies, b.Plies) &&
		a.AttackerToken == b.AttackerToken && a.DefenderToken == b.DefenderToken
}

// play makes the plies moves, alternating from whoever is to move, by
// plain replies; each must be applied.
func (h *harness) play(id string, moves ...string) {
	h.t.Helper()
	for _, mv := range moves {
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			h.t.Fatal(err)
		}
		t, err := referee.Load(g)
		if err != nil {
			h.t.Fatal(err)
		}
		who := referee.AddressOf(g, t.ToMove())
		n := len(g.Plies)
		h.reply(who, mv)
		if got := len(h.state(id).Plies); got != n+1 {
			h.t.Fatalf("setting up: %s's move %s was not applied:\n%s", who, mv, h.last(who).msg.Text)
		}
	}
}

// count returns how many mails from addr were recorded with disposition
// (any when "") in the archive.
func (h *harness) count(addr, disposition string) int {
	h.t.Helper()
	n, err := h.store.CountMails(context.Background(), archive.MailFilter{From: addr, Disposition: disposition})
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// outbox returns the archive's outbox, all statuses.
func (h *harness) outbox() []archive.OutboxMail {
	h.t.Helper()
	out, err := h.store.Outbox(context.Background(), "")
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// logBuffer collects the server's log for assertions.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// captureLog sends the server's log to a buffer and returns it.
func (h *harness) captureLog() *logBuffer {
	lb := &logBuffer{}
	h.srv.Log = slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h.srv.Opts.Logger = h.srv.Log
	return lb
}

// texts joins the text of the mails, for error messages.
func texts(ms []sentMail) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "--- to %s: %s\n%s\n", m.to, m.msg.Subject, m.msg.Text)
	}
	return b.String()
}

// otherMailFiles are the mail files used outside the case tables.
var otherMailFiles = []string{
	"too-large.eml",         // TestRealMailTooLarge
	"subject-only-help.eml", // TestRealMailSubjectOnlyHelp
	"auto-submitted-no.eml", // TestMachineMailAutoSubmittedNo
	"games-command.eml",     // TestFaultStore
}

// TestMailFilesUsed: every file of testdata/mail is delivered by some test
// and every file a test names exists.
func TestMailFilesUsed(t *testing.T) {
	used := map[string]bool{}
	for _, f := range otherMailFiles {
		used[f] = true
	}
	for _, c := range realMailCases {
		used[c.file] = true
	}
	for _, c := range machineMailCases {
		used[c.file] = true
	}
	for _, c := range hostileMailFiles {
		used[c] = true
	}
	ents, err := os.ReadDir(mailDir)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range ents {
		have[e.Name()] = true
		if !used[e.Name()] {
			t.Errorf("testdata/mail/%s is used by no test", e.Name())
		}
	}
	for f := range used {
		if !have[f] {
			t.Errorf("testdata/mail/%s is missing", f)
		}
	}
}
