package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestServeResendsDueMail: a reply a stopped daemon deferred, and whose
// retry is due, goes out when serve starts again, before IMAP is dialled,
// so also when the IMAP server is away and serve stops (issue 21 §8: each
// restart sends what is due); a reply deferred to later waits.
func TestServeResendsDueMail(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "pw", "alice": "pw", "bob": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "taflmail.db")
	ctx := context.Background()
	st, err := archive.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	raw := func(to, id string) []byte {
		return fmt.Appendf(nil, "From: games@taflmail.test\r\nTo: %s\r\nSubject: deferred\r\nMessage-ID: <%s>\r\n\r\nhello\r\n", to, id)
	}
	now := time.Now()
	err = st.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{
		{MessageID: "due@taflmail.test", From: "games@taflmail.test", To: []string{"alice@taflmail.test"}, Raw: raw("alice@taflmail.test", "due@taflmail.test")},
		{MessageID: "later@taflmail.test", From: "games@taflmail.test", To: []string{"bob@taflmail.test"}, Raw: raw("bob@taflmail.test", "later@taflmail.test")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	mails, err := st.Outbox(ctx, archive.Pending)
	if err != nil || len(mails) != 2 {
		t.Fatalf("outbox = %v, %v", mails, err)
	}
	// the stopped daemon had deferred both: one is due now, one in an hour
	if err := st.MarkRetry(ctx, mails[0].ID, now.Add(-time.Minute), "421 4.3.2 try later"); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkRetry(ctx, mails[1].ID, now.Add(time.Hour), "421 4.3.2 try later"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	conf := func(imapAddr string) string { return serveConfig(t, imapAddr, stack.SMTPAddr(), db) }
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	received := func(user string) int {
		msgs, err := stack.Messages(user)
		if err != nil {
			t.Fatal(err)
		}
		return len(msgs)
	}

	// The IMAP server is away at the restart: serve stops (status 1, so
	// that systemd tries again), but the due reply went out first.
	r := run(t, "serve", "--config", conf(fmt.Sprintf("127.0.0.1:%d", freePort(t))))
	if r.code != exitFailure {
		t.Errorf("serve without IMAP = code %d, stderr %q; want 1", r.code, r.stderr)
	}
	if n := received("alice"); n != 1 {
		t.Errorf("alice got %d mails from a start without IMAP, want the due one", n)
	}
	if n := received("bob"); n != 0 {
		t.Errorf("bob got %d mails: the mail deferred to later was sent", n)
	}

	// A second due reply, and a normal start: it goes out at once.
	st, err = archive.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{
		{MessageID: "due2@taflmail.test", From: "games@taflmail.test", To: []string{"alice@taflmail.test"}, Raw: raw("alice@taflmail.test", "due2@taflmail.test")},
	}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	cfg, err := loadConfig(nil, conf(stack.IMAPAddr()))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- serve(sctx, cfg, slog.New(slog.NewTextHandler(&logs, nil))) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve = %v", err)
		}
	}()
	for deadline := time.Now().Add(15 * time.Second); received("alice") != 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the due mail was not sent within 15 s of the start; log:\n%s", logs.String())
		}
	}
	if n := received("bob"); n != 0 {
		t.Errorf("bob got %d mails: the mail deferred to later was sent", n)
	}
}

// TestServeStopWhileDialling: a stop asked for while IMAP is still being
// dialled (an IMAP server that accepts and says nothing) is a clean stop,
// serve returns nil, not a start-up failure that systemd restarts after.
func TestServeStopWhileDialling(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c // held open, no greeting
		}
	}()
	defer func() {
		for len(accepted) > 0 {
			(<-accepted).Close()
		}
	}()
	db := filepath.Join(t.TempDir(), "taflmail.db")
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	cfg, err := loadConfig(nil, serveConfig(t, ln.Addr().String(), fmt.Sprintf("127.0.0.1:%d", freePort(t)), db))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	select {
	case c := <-accepted:
		defer c.Close()
	case err := <-done:
		t.Fatalf("serve returned %v before dialling IMAP", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not dial IMAP within 30 s")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve stopped while dialling = %v, want nil", err)
	}
}
