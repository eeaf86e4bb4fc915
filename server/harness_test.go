package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// sentMail is one mail the fake sender was given, parsed back.
type sentMail struct {
	to  string
	raw []byte
	msg *mailer.Message
}

// fakeSender records what the server sends; fail, when set, decides an
// error per attempt.
type fakeSender struct {
	sent []sentMail
	fail func(to string) error
	// t, when set, is failed by a mail with a line longer than
	// maxMailLine (checkLineLength).
	t testing.TB
}

func (f *fakeSender) Send(_ context.Context, from string, to []string, raw []byte) error {
	if f.fail != nil {
		if err := f.fail(to[0]); err != nil {
			return err
		}
	}
	m, err := mailer.Parse(bytes.NewReader(raw), 0)
	if err != nil {
		return fmt.Errorf("fake sender: server sent an unreadable mail: %v", err)
	}
	name := ""
	if f.t != nil {
		name = f.t.Name()
	}
	logLongLines(raw, name)
	if f.t != nil {
		checkLineLength(f.t, to[0], raw)
	}
	f.sent = append(f.sent, sentMail{to: to[0], raw: raw, msg: m})
	return nil
}

// harness drives a Server over a real archive with a fake sender and a
// fake clock; mails are handed to HandleMail directly.
type harness struct {
	t      *testing.T
	srv    *referee.Server
	store  *archive.Store
	sender *fakeSender
	now    time.Time
	seq    int
	// step is how far the clock moves before each delivered mail; 0 means
	// an hour.
	step time.Duration
	// arrival, when set, is the INTERNALDATE of the next delivered mail
	// (then reset); otherwise a mail arrives at the harness's now.
	arrival time.Time
	// mutate, when set, changes the next delivered mail as the mailer
	// would have read it (then reset), e.g. Message.TextCut.
	mutate func(*mailer.Message)
	// refused are the refusal keys of the last delivered mail
	// (session.refusals, of the run that was committed), nil when
	// nothing was refused.
	refused []string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, sender: &fakeSender{t: t}, now: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	clock := func() time.Time { return h.now }
	st, err := archive.OpenWith(context.Background(), t.TempDir()+"/taflmail.db", archive.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.store = st
	h.srv, err = referee.New(referee.Options{
		Address: "tafl@game.test", Store: st, Sender: h.sender,
		Now:    clock,
		Rand:   rand.NewChaCha8([32]byte{1, 2, 3}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		// a conflict's rerun tells again: the last run is the one kept
		Refused: func(keys []string) { h.refused = slices.Clone(keys) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// deliver builds a raw mail, parses it as the mailer would, hands it to
// the server and sends the outbox. It returns the mails sent because of it.
func (h *harness) deliver(from, subject, body string, hdr map[string]string) []sentMail {
	h.t.Helper()
	h.seq++
	if h.step == 0 {
		h.now = h.now.Add(time.Hour)
	} else {
		h.now = h.now.Add(h.step)
	}
	var raw strings.Builder
	fmt.Fprintf(&raw, "From: %s\r\nTo: tafl@game.test\r\nSubject: %s\r\n", from, subject)
	if _, ok := hdr["Date"]; !ok {
		fmt.Fprintf(&raw, "Date: %s\r\n", h.now.Format(time.RFC1123Z))
	}
	if _, ok := hdr["Message-ID"]; !ok {
		fmt.Fprintf(&raw, "Message-ID: <m%d@player.test>\r\n", h.seq)
	}
	for k, v := range hdr {
		fmt.Fprintf(&raw, "%s: %s\r\n", k, v)
	}
	raw.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n")
	raw.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
	m, err := mailer.Parse(strings.NewReader(raw.String()), 0)
	if err != nil {
		h.t.Fatalf("parse test mail: %v", err)
	}
	m.UID = uint32(h.seq)
	m.UIDValidity = 1
	m.Arrived = h.now
	if !h.arrival.IsZero() {
		m.Arrived, h.arrival = h.arrival, time.Time{}
	}
	if h.mutate != nil {
		h.mutate(m)
		h.mutate = nil
	}
	before := len(h.sender.sent)
	h.refused = nil
	if err := h.srv.HandleMail(context.Background(), m); err != nil {
		h.t.Fatalf("HandleMail: %v", err)
	}
	h.srv.FlushOutbox(context.Background())
	return h.sender.sent[before:]
}

// reply answers the last mail sent to addr, as a mail client would:
// "Re: " subject, In-Reply-To and References, the old text quoted.
func (h *harness) reply(addr, body string) []sentMail {
	h.t.Helper()
	last := h.last(addr)
	quoted := "> " + strings.ReplaceAll(last.msg.Text, "\n", "\n> ")
	refs := strings.Join(append(append([]string{}, last.msg.References...), last.msg.MessageID), "> <")
	return h.deliver(addr, "Re: "+last.msg.Subject, body+"\n\nOn Sunday the server wrote:\n"+quoted, map[string]string{
		"In-Reply-To": "<" + last.msg.MessageID + ">",
		"References":  "<" + refs + ">",
	})
}

// last returns the last mail sent to addr.
func (h *harness) last(addr string) sentMail {
	h.t.Helper()
	for i := len(h.sender.sent) - 1; i >= 0; i-- {
		if h.sender.sent[i].to == addr {
			return h.sender.sent[i]
		}
	}
	h.t.Fatalf("no mail was sent to %s", addr)
	return sentMail{}
}

// to returns the mail in ms sent to addr, failing when there is none.
func to(t *testing.T, ms []sentMail, addr string) *mailer.Message {
	t.Helper()
	for _, m := range ms {
		if m.to == addr {
			return m.msg
		}
	}
	t.Fatalf("no mail to %s among %d sent", addr, len(ms))
	return nil
}

// mustRefuse fails unless the refusals of the last delivered mail had
// exactly the keys want, in order (session.refusals): what was refused,
// whatever the words; the catalogue tests check those.
func (h *harness) mustRefuse(want ...string) {
	h.t.Helper()
	if !slices.Equal(h.refused, want) {
		h.t.Errorf("the last mail's refusals are %q, want %q", h.refused, want)
	}
}

// refusal returns the reply to addr among sent, failing unless what the
// mail refused were keys (mustRefuse) and the reply says in lang that
// nothing was changed.
func (h *harness) refusal(sent []sentMail, addr, lang string, keys ...string) *mailer.Message {
	h.t.Helper()
	m := to(h.t, sent, addr)
	h.mustRefuse(keys...)
	mustContain(h.t, "refusal", m.Text, referee.Tr(lang, "err.nothing"))
	return m
}

// mustContain fails unless text contains every want.
func mustContain(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, text)
		}
	}
}

// mustContainWrapped fails unless text contains every want with runs of
// white space (line breaks and the indent after them) read as one space:
// for an entry of a list or a table that a reply wraps inside its column
// (help, variants, games), whose words must be there in order whatever
// the breaks.
func mustContainWrapped(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, w := range wants {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("%s does not contain %q, line breaks aside:\n%s", what, w, text)
		}
	}
}

// mustNotContain fails if text contains any of unwanted.
func mustNotContain(t *testing.T, what, text string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(text, w) {
			t.Errorf("%s contains %q:\n%s", what, w, text)
		}
	}
}

const (
	alice = "alice@player.test"
	bob   = "bob@player.test"
)

// startBrandubh has alice challenge bob to Brandubh (alice attacks) and
// bob accept; it returns the game id.
func startBrandubh(t *testing.T, h *harness) string {
	t.Helper()
	sent := h.deliver(alice, "a game?", "Hi!\nnew brandubh with bob@player.test\nCheers, Alice", nil)
	if len(sent) != 2 {
		t.Fatalf("new game sent %d mails, want 2 (confirmation and invitation)", len(sent))
	}
	inv := to(t, sent, bob)
	mustContain(t, "invitation", inv.Text, "alice@player.test challenges you", "Brandubh", "accept")
	mustContain(t, "invitation subject", inv.Subject, "[taflmail ")
	id := referee.FindGame(inv.Subject, "", nil).ID
	if id == "" {
		t.Fatalf("invitation subject %q names no game", inv.Subject)
	}
	sent = h.reply(bob, "accept")
	if len(sent) != 2 {
		t.Fatalf("accept sent %d mails, want 2", len(sent))
	}
	mustContain(t, "alice's start mail", to(t, sent, alice).Text, "it is your move", "1. ")
	mustContain(t, "bob's start mail", to(t, sent, bob).Text, "attackers to move")
	return id
}

// startGame has alice challenge bob to variant (alice attacks) and bob
// accept, both with the command words of lang, so that both get their
// replies in lang from then on; it returns the game id.
func startGame(t *testing.T, h *harness, variant, lang string) string {
	t.Helper()
	challenge, accept := "new %s with bob@player.test", "accept"
	if lang == referee.German {
		challenge, accept = "neu %s mit bob@player.test", "annehmen"
	}
	sent := h.deliver(alice, "x", fmt.Sprintf(challenge, variant), nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	if id == "" {
		t.Fatalf("no invitation:\n%s", texts(sent))
	}
	if sent = h.reply(bob, accept); len(sent) != 2 {
		t.Fatalf("accept sent %d mails, want 2:\n%s", len(sent), texts(sent))
	}
	return id
}
