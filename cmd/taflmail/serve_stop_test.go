package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer/devstack"
)

// TestServeStopLeavesWholeArchive: when serve has returned after a stop,
// the archive file alone holds everything the referee committed (the
// store is closed only when no call holds a connection, and SQLite folds
// the -wal file into the file at the last connection's close): no -wal
// file with content is left, and a copy of taflmail.db without it knows
// every mail that was answered.
func TestServeStopLeavesWholeArchive(t *testing.T) {
	stack, err := devstack.Start("taflmail.test", map[string]string{"games": "pw", "alice": "pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	db := filepath.Join(t.TempDir(), "taflmail.db")
	t.Setenv("TAFLMAIL_IMAP_PASSWORD", "pw")
	cfg, err := loadConfig(nil, serveConfig(t, stack.IMAPAddr(), stack.SMTPAddr(), db))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil))) }()

	const mails = 3
	for n := 1; n <= mails; n++ {
		mail := fmt.Sprintf("From: alice@taflmail.test\r\nTo: games@taflmail.test\r\nSubject: help\r\nMessage-ID: <stop-%d@taflmail.test>\r\n\r\nhelp\r\n", n)
		if err := stack.Deliver("games", []byte(mail)); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		msgs, err := stack.Messages("alice")
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) == mails {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice has %d replies after 20 s, want %d; log:\n%s", len(msgs), mails, logs.String())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve = %v", err)
	}

	// at once, as a backup taken right after the stop would
	if fi, err := os.Stat(db + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("%s-wal has %d bytes after serve stopped, want none", filepath.Base(db), fi.Size())
	}
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := archive.Open(context.Background(), copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for n := 1; n <= mails; n++ {
		id := fmt.Sprintf("stop-%d@taflmail.test", n)
		if ok, err := st.Processed(context.Background(), id, ""); err != nil || !ok {
			t.Errorf("the copy of the file knows %s processed = %v, %v; want true", id, ok, err)
		}
	}
}
