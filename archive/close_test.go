package archive

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestCloseWaitsForCallsInUse: Close returns only when no call of the
// Store holds a connection. database/sql's DB.Close closes the idle
// connections and leaves one in use to be closed when it is returned, so
// a write in flight would commit, and SQLite's checkpoint at the last
// connection's close would run, after Close returned: a copy of the
// archive file taken right after the referee stopped would then miss
// that write. Here a write transaction and two read snapshots are under
// way when Close begins, and go on (the write adds rows) until Close is
// waiting: when Close returns, no connection is open, the -wal file is
// gone or empty, and a copy of the main file alone holds every row.
func TestCloseWaitsForCallsInUse(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 200
	var wg sync.WaitGroup
	in := make(chan struct{}, 3)
	var writeErr, readErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		writeErr = s.write(ctx, "test write", func(tx *txn) error {
			in <- struct{}{}
			<-s.calls.closing // Close has begun
			for i := range rows {
				if _, err := tx.ExecContext(ctx, `INSERT INTO players (address, created_at) VALUES (?, ?)`,
					fmt.Sprintf("p%d@example.org", i), fmtTime(time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC))); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.read(ctx, "test read", func(tx *txn) error {
				in <- struct{}{}
				<-s.calls.closing
				var n int
				return tx.QueryRowContext(ctx, `SELECT count(*) FROM players`).Scan(&n)
			})
			mu.Lock()
			readErr = cmp.Or(readErr, err)
			mu.Unlock()
		}()
	}
	for range 3 {
		<-in
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	// at once, before anything else runs: what Close left behind
	open := s.db.Stats().OpenConnections
	wal, walErr := os.Stat(path + "-wal")
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	wg.Wait()

	if open != 0 {
		t.Errorf("connections open when Close returned = %d, want 0", open)
	}
	if walErr == nil && wal.Size() > 0 {
		t.Errorf("-wal file when Close returned: %d bytes, want none (not checkpointed)", wal.Size())
	}
	if writeErr != nil || readErr != nil {
		t.Errorf("calls under way at Close: write = %v, read = %v; want both to finish", writeErr, readErr)
	}
	c, err := Open(ctx, copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.db.QueryRowContext(ctx, `SELECT count(*) FROM players`).Scan(&n); err != nil || n != rows {
		t.Errorf("players in a copy of the file taken when Close returned = %d, %v; want %d", n, err, rows)
	}
}
