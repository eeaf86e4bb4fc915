package server

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestDebugDecision: at level debug the referee logs what it made of each
// mail it answers: the command words, the new plies, who gets a reply;
// never the player's key (issue 21 §7).
func TestDebugDecision(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	id := startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	var line string
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, `msg="mail decided"`) && strings.Contains(l, "commands=[d1-e1]") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no debug line for the move:\n%s", log.String())
	}
	mustContain(t, "decision", line, "level=DEBUG", "game="+id, "authenticated=true", "disposition=applied", "new_plies=1",
		"replies_to=", "bob@player.test", "alice@player.test")
	g := h.state(id)
	for _, key := range []string{g.AttackerToken, g.DefenderToken} {
		if strings.Contains(log.String(), key) {
			t.Errorf("the log shows a player's key %q", key)
		}
	}
}

// TestResendLogged: a reply that goes out after failed attempts is logged
// with the attempts and the earlier error, so the operator sees the
// trouble has passed (issue 21 §7).
func TestResendLogged(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	refuse := true
	h.sender.fail = func(string) error {
		if refuse {
			return &mailer.SendError{Temporary: true, Code: 421, Err: errors.New("421 4.3.2 try later")}
		}
		return nil
	}
	h.deliver(alice, "help", "help", nil)
	mustContain(t, "log", log.String(), `msg="sending deferred"`)
	refuse = false
	h.now = h.now.Add(time.Hour)
	h.srv.FlushOutbox(context.Background())
	mustContain(t, "log", log.String(), `msg="sending succeeded after a retry"`, "attempts=2", "421 4.3.2 try later")
}

// TestReconnectedDownFor: "IMAP reconnected" counts the time down from
// the failure that broke the session, the pause before the first attempt
// included (issue 21 §7: it counted from the first attempt, "0s" after a
// short outage).
func TestReconnectedDownFor(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	h.srv.Opts.Now = time.Now
	in := &downInbox{fakeInbox: newFakeInbox(), back: true}
	srv := h.restart(h.store, in)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(log.String(), `msg="IMAP reconnected"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	var downFor string
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, `msg="IMAP reconnected"`) {
			_, downFor, _ = strings.Cut(l, "down_for=")
		}
	}
	// Run waits its backoff, at least a second, before it reconnects
	if d, err := time.ParseDuration(strings.Fields(downFor + " x")[0]); err != nil || d < time.Second {
		t.Errorf("IMAP reconnected down_for=%q, want at least the 1 s backoff; log:\n%s", downFor, log.String())
	}
}

// TestMailProcessedNames: the "mail processed" line names what the mail
// was about: a challenge the game it starts, a join, its confirmation and
// a withdrawal the tournament, and leaves out a game it has none of
// rather than logging game="" (issue 22 §11).
func TestMailProcessedNames(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	seen := 0
	processed := func(what string) string { // the line of the mail delivered last
		t.Helper()
		all := log.String()
		lines := strings.Split(all[seen:], "\n")
		seen = len(all)
		for _, l := range lines {
			if strings.Contains(l, `msg="mail processed"`) {
				return l
			}
		}
		t.Fatalf("%s: no \"mail processed\" line", what)
		return ""
	}
	sent := h.deliver(alice, "a game?", "new brandubh with bob@player.test", nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	line := processed("challenge")
	mustContain(t, "challenge", line, "game="+id)
	mustNotContain(t, "challenge", line, "tournament=")

	h.createEvent("open", nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	})
	sent = h.deliver(carol, "entering", "join open", nil)
	line = processed("join")
	mustContain(t, "join", line, "tournament=open")
	mustNotContain(t, "join", line, "game=")
	h.deliver(carol, "entering", joinConfirmLine.FindString(to(t, sent, carol).Text), nil)
	line = processed("join confirmed")
	mustContain(t, "join confirmed", line, "tournament=open")
	mustNotContain(t, "join confirmed", line, "game=")
	sent = h.deliver(carol, "leaving", "withdraw open", nil)
	processed("withdrawal asked")
	h.deliver(carol, "leaving", confirmLine.FindStringSubmatch(to(t, sent, carol).Text)[0], nil)
	line = processed("withdrawal")
	mustContain(t, "withdrawal", line, "tournament=open")
	mustNotContain(t, "withdrawal", line, "game=")

	h.deliver(alice, "help", "help", nil)
	mustNotContain(t, "help", processed("help"), "game=", "tournament=")
}
