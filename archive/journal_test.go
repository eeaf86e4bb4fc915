package archive

import (
	"context"
	"path/filepath"
	"testing"
)

// TestWriteSavedJournalInMemory: a transaction of writeSaved (CommitEach's)
// runs with temp_store=MEMORY (2), so that its savepoints' statement
// journal is not spilled to a file; one of write runs with the default
// (0), and the connection is back at the default after writeSaved, so
// that the transactions after it keep their temporary files on file. The
// Store gets one connection, so every statement runs on the same one.
func TestWriteSavedJournalInMemory(t *testing.T) {
	ctx := context.Background()
	s, err := OpenWith(ctx, filepath.Join(t.TempDir(), "j.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.db.SetMaxOpenConns(1)
	inTx := func(saved bool) int {
		var got int
		fn := func(tx *txn) error {
			return tx.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&got)
		}
		write := s.write
		if saved {
			write = s.writeSaved
		}
		if err := write(ctx, "test", fn); err != nil {
			t.Fatalf("write (saved %v) = %v", saved, err)
		}
		return got
	}
	if got := inTx(false); got != 0 {
		t.Errorf("temp_store in write's transaction = %d, want 0", got)
	}
	if got := inTx(true); got != 2 {
		t.Errorf("temp_store in writeSaved's transaction = %d, want 2 (MEMORY)", got)
	}
	var after int
	if err := s.db.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != 0 {
		t.Errorf("temp_store after writeSaved = %d, want 0", after)
	}
	if got := inTx(false); got != 0 {
		t.Errorf("temp_store in write's transaction after writeSaved = %d, want 0", got)
	}
}
