package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

func TestInspectChangesNothing(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	last := h.last(alice).msg
	raw := "From: alice@player.test\r\nTo: tafl@game.test\r\nSubject: Re: " + last.Subject +
		"\r\nMessage-ID: <look@player.test>\r\nIn-Reply-To: <" + last.MessageID + ">\r\n\r\nHi\r\nd1-e1\r\nboard please\r\n"
	m, err := mailer.Parse(strings.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	sentBefore := len(h.sender.sent)
	in, err := h.srv.Inspect(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if in.Game != id || !in.KeyOK || in.Player != "attackers" || in.Action != "answer" {
		t.Errorf("Inspect = game %q key %v player %q action %q; want %s true attackers answer", in.Game, in.KeyOK, in.Player, in.Action, id)
	}
	if len(in.Commands) != 2 || in.Commands[0].Command != "move" || in.Commands[1].Error != "mail:3:7: expected end of line, found \"please\"" {
		t.Errorf("Inspect commands = %+v", in.Commands)
	}
	if len(in.Replies) != 2 {
		t.Errorf("Inspect replies = %d, want 2 (both players)", len(in.Replies))
	}
	g, _ := h.store.Game(context.Background(), id)
	if len(g.Plies) != 0 || len(h.sender.sent) != sentBefore {
		t.Fatalf("Inspect changed something: %d plies, %d mails sent", len(g.Plies), len(h.sender.sent)-sentBefore)
	}
	if done, _ := h.store.Processed(context.Background(), "look@player.test", ""); done {
		t.Fatal("Inspect recorded the mail as processed")
	}
}

func TestRequireAuthResultsDropsForgery(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.RequireAuthResults, h.srv.Opts.AuthservID = true, "mx.test"
	sent := h.deliver(alice, "x", "board", map[string]string{"Authentication-Results": "mx.test; dkim=pass header.d=evil.test"})
	if len(sent) != 0 {
		t.Fatalf("unauthenticated mail got %d replies, want none (a silent, logged drop)", len(sent))
	}
	sent = h.deliver(alice, "x", "variants", map[string]string{"Authentication-Results": "mx.test; dkim=pass header.d=player.test"})
	if len(sent) != 1 {
		t.Fatalf("authenticated mail got %d replies, want 1", len(sent))
	}
	sent = h.deliver(alice, "x", "variants", map[string]string{"Authentication-Results": "mx.evil.test; dkim=pass header.d=player.test"})
	if len(sent) != 0 {
		t.Fatalf("a pass by another authserv-id got %d replies, want none", len(sent))
	}
}

// Inspect says why a mail would not be answered (the stranger budget is
// spent), and, for a mail already handled, what was decided and why, from
// the archive (issue 8 §1: "where is my move?").
func TestInspectSaysWhy(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.JunkReplies = 1
	h.step = time.Minute
	h.deliver("first@strangers.test", "hi", "help", nil)
	raw := "From: second@strangers.test\r\nTo: tafl@game.test\r\nSubject: hi\r\nMessage-ID: <second@strangers.test>\r\n\r\nhelp\r\n"
	m, err := mailer.Parse(strings.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	in, err := h.srv.Inspect(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if in.Action != "ignore" || !strings.Contains(in.Why, "reply budget for mails without a key or a valid command spent") {
		t.Errorf("Inspect over the budget = %s (%s), want ignore with the budget as the reason", in.Action, in.Why)
	}
	if sent := h.deliverRaw([]byte(raw)); len(sent) != 0 {
		t.Fatalf("the mail over the budget got %d replies", len(sent))
	}
	in, err = h.srv.Inspect(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if in.Action != "ignore" || !strings.Contains(in.Why, "already processed at ") || !strings.Contains(in.Why, ": ignored (reply budget") {
		t.Errorf("Inspect after handling = %s (%s), want the recorded decision and its reason", in.Action, in.Why)
	}
}
