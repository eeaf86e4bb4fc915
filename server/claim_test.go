package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// countingSender counts the mails handed to it by Message-ID (the raw
// mail is "Message-ID: <id>"), slowly, from any goroutine.
type countingSender struct {
	mu    sync.Mutex
	count map[string]int
}

func (c *countingSender) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	time.Sleep(2 * time.Millisecond) // let the other process race us
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count[string(raw)]++
	return nil
}

// Two referees that share an archive (two processes that slipped past the
// daemon's lock: two Stores on one file) flush the same outbox at the same
// time: the outbox claims make every mail go out exactly once (issue 8 §3;
// before the claims, 28 % of replies went out twice).
func TestTwoProcessesSendEachMailOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	open := func() *archive.Store {
		st, err := archive.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	first := open()
	const mails = 60
	var c archive.Change
	for i := range mails {
		c.Outbox = append(c.Outbox, archive.OutboxMail{
			GameID: fmt.Sprintf("G%02d", i%7), MessageID: fmt.Sprintf("r%d@game.test", i), From: "tafl@game.test",
			To: []string{fmt.Sprintf("p%d@player.test", i%5)}, Raw: []byte(fmt.Sprintf("Message-ID: <r%d@game.test>", i)),
		})
	}
	if err := first.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	sender := &countingSender{count: map[string]int{}}
	var wg sync.WaitGroup
	for _, st := range []*archive.Store{first, open()} {
		srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: st, Sender: sender,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.FlushOutbox(ctx)
		}()
	}
	wg.Wait()
	for i := range mails {
		id := fmt.Sprintf("Message-ID: <r%d@game.test>", i)
		if n := sender.count[id]; n != 1 {
			t.Errorf("mail r%d was sent %d times, want once", i, n)
		}
	}
	pending, err := first.PendingOutbox(ctx, time.Now(), 0)
	if err != nil || len(pending) != 0 {
		t.Errorf("after both flushes %d mails are pending (%v), want none", len(pending), err)
	}
}
