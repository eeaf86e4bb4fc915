package server

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestOutboxWatchSendsOtherProcessMail: a mail another process queues in
// the outbox (as `taflmail tournament start` does, through a store of its
// own on the same file) while Run waits for mail, with a WaitCap of an
// hour, is sent by the outbox watch without Run's wait being broken off:
// the inbox is not fetched again (issue 22 §10).
func TestOutboxWatchSendsOtherProcessMail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "taflmail.db")
	ctx := context.Background()
	daemon, err := archive.OpenWith(ctx, path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer daemon.Close()
	in, sender := newFakeInbox(), &fakeSender{}
	srv, err := referee.New(referee.Options{
		Address: "tafl@game.test", Store: daemon, Inbox: in, Sender: sender, Now: time.Now,
		Rand: rand.NewChaCha8([32]byte{4}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		WaitCap: time.Hour, OutboxPoll: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(rctx) }()
	for rctx.Err() == nil && fetches(in) == 0 {
		time.Sleep(5 * time.Millisecond) // Run has read the (empty) inbox and waits
	}

	cli, err := archive.OpenWith(ctx, path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	raw := "From: tafl@game.test\r\nTo: alice@example.org\r\nSubject: the cup starts\r\nMessage-ID: <cup@game.test>\r\n" +
		"Date: Sun, 29 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nYour games.\r\n"
	if err := cli.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{{
		MessageID: "cup@game.test", From: "tafl@game.test", To: []string{"alice@example.org"}, Raw: []byte(raw),
	}}}); err != nil {
		t.Fatal(err)
	}
	for rctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
		if out, _ := cli.Outbox(ctx, archive.Sent); len(out) > 0 {
			break
		}
	}
	fetched := fetches(in)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(sender.sent) != 1 || sender.sent[0].to != "alice@example.org" {
		t.Fatalf("sent %d mails within 30 s, want the one another process queued", len(sender.sent))
	}
	if fetched != 1 {
		t.Errorf("the inbox was fetched %d times, want once: the watch must not break off the wait", fetched)
	}
}

// fetches returns how often in was fetched.
func fetches(in *fakeInbox) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.fetches
}

// TestOutboxDue: the watch sends when a due mail is claimed by nobody, or
// its claim is older than archive.ClaimLease; not for a mail another
// sender holds a live claim on, nor for one not due yet.
func TestOutboxDue(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if h.srv.OutboxDue(ctx) {
		t.Fatal("an empty outbox is due")
	}
	raw := []byte("From: tafl@game.test\r\nTo: bob@example.org\r\nSubject: x\r\nMessage-ID: <x@game.test>\r\n\r\nx\r\n")
	later := archive.OutboxMail{MessageID: "later@game.test", From: "tafl@game.test", To: []string{"bob@example.org"}, Raw: raw,
		NextAttempt: h.now.Add(time.Hour)}
	if err := h.store.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{later}}); err != nil {
		t.Fatal(err)
	}
	if h.srv.OutboxDue(ctx) {
		t.Error("a mail due in an hour is due now")
	}
	now := archive.OutboxMail{MessageID: "x@game.test", From: "tafl@game.test", To: []string{"carol@example.org"}, Raw: raw}
	if err := h.store.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{now}}); err != nil {
		t.Fatal(err)
	}
	if !h.srv.OutboxDue(ctx) {
		t.Error("a due mail nobody claimed is not due")
	}
	pending, err := h.store.PendingOutbox(ctx, h.now, 0)
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending %v, %v", pending, err)
	}
	if ok, err := h.store.ClaimOutbox(ctx, pending[0].ID, "other-process", h.now); !ok || err != nil {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	if h.srv.OutboxDue(ctx) {
		t.Error("a mail another sender is sending is due")
	}
	h.now = h.now.Add(archive.ClaimLease + time.Second)
	if !h.srv.OutboxDue(ctx) {
		t.Error("a mail whose claim lapsed is not due")
	}
}
