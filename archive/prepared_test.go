package archive

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// openPrepared opens a new archive file for the tests of prepared.go.
func openPrepared(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "taflmail.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestPreparedQueriesPrepare: every query of the list compiles against
// the current schema and is prepared once, for a file and for ":memory:",
// so that none of them runs unprepared, unnoticed, after a change of its
// text or of the schema.
func TestPreparedQueriesPrepare(t *testing.T) {
	seen := map[string]bool{}
	for _, q := range preparedQueries {
		if seen[q] {
			t.Errorf("listed twice: %q", q)
		}
		seen[q] = true
	}
	mem, err := Open(context.Background(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	for name, s := range map[string]*Store{"file": openPrepared(t), ":memory:": mem} {
		for _, q := range preparedQueries {
			if s.prepared[q] == nil {
				t.Errorf("%s: not prepared: %q", name, q)
			}
		}
		if len(s.prepared) != len(seen) {
			t.Errorf("%s: %d statements prepared, want %d", name, len(s.prepared), len(seen))
		}
	}
}

// TestTxnBindsPreparedStatements: inside a transaction a listed query
// runs through the Store's statement, bound to the transaction once and
// reused; any other SQL runs as sql.Tx runs it.
func TestTxnBindsPreparedStatements(t *testing.T) {
	ctx := context.Background()
	s := openPrepared(t)
	err := s.read(ctx, "test", func(tx *txn) error {
		var found bool
		for range 2 {
			if err := tx.QueryRowContext(ctx, sqlProcessed, "<none>").Scan(&found); err != nil {
				return err
			}
		}
		first := tx.bound[sqlProcessed].st
		if first == nil {
			t.Fatal("the listed query is not bound to the transaction")
		}
		if err := tx.QueryRowContext(ctx, sqlProcessed, "<none>").Scan(&found); err != nil {
			return err
		}
		if tx.bound[sqlProcessed].st != first || len(tx.bound) != 1 {
			t.Errorf("bound = %v; want the one statement, bound once", tx.bound)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&n); err != nil {
			return err
		}
		if len(tx.bound) != 1 {
			t.Errorf("a query not listed was bound: %v", tx.bound)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPreparedAfterConflict: a write whose prepared UPDATE finds the
// game at another version fails with ErrConflict and is rolled back; the
// retry, as the referee makes it (read the game again, decide, commit),
// runs the same prepared statements in a new transaction and commits,
// and each ply is stored once.
func TestPreparedAfterConflict(t *testing.T) {
	ctx := context.Background()
	s := openPrepared(t)
	at := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	g := &Game{ID: "G1", Variant: "copenhagen", Attackers: "a@example.org", Defenders: "d@example.org",
		Challenger: "a@example.org", Status: Active, AttackerToken: "ta", DefenderToken: "td"}
	mailOf := func(id string) ProcessedMail {
		return ProcessedMail{MessageID: id, From: "a@example.org", GameID: "G1", Disposition: "applied", At: at}
	}
	if err := s.Commit(ctx, Change{Mail: mailOf("<m1>"), Games: []*Game{g}}); err != nil {
		t.Fatal(err)
	}
	// Two deciders read version 1; the first commits a ply.
	first, err := s.Game(ctx, "G1")
	if err != nil {
		t.Fatal(err)
	}
	stale := *first
	if err := s.Commit(ctx, Change{Mail: mailOf("<m2>"), Games: []*Game{first},
		NewPlies: map[string][]Ply{"G1": {{N: 1, Move: "d1-d3", At: at}}}}); err != nil {
		t.Fatal(err)
	}
	// The second is refused,
	err = s.Commit(ctx, Change{Mail: mailOf("<m3>"), Games: []*Game{&stale},
		NewPlies: map[string][]Ply{"G1": {{N: 1, Move: "a4-a2", At: at}}}})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("Commit(stale) = %v, want ErrConflict", err)
	}
	// and retried on what is stored now.
	again, err := s.Game(ctx, "G1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, Change{Mail: mailOf("<m3>"), Games: []*Game{again},
		NewPlies: map[string][]Ply{"G1": {{N: 2, Move: "e1-e2", At: at}}}}); err != nil {
		t.Fatalf("Commit(retry) = %v", err)
	}
	got, err := s.Game(ctx, "G1")
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, p := range got.Plies {
		moves = append(moves, p.Move)
	}
	if strings.Join(moves, " ") != "d1-d3 e1-e2" || got.PlyCount != 2 || got.Version != 3 {
		t.Errorf("game after the retry: plies %q, ply count %d, version %d; want d1-d3 e1-e2, 2, 3",
			moves, got.PlyCount, got.Version)
	}
	for _, id := range []string{"<m1>", "<m2>", "<m3>"} {
		if ok, err := s.Processed(ctx, id, ""); err != nil || !ok {
			t.Errorf("Processed(%s) = %v, %v; want true", id, ok, err)
		}
	}
}

// TestPreparedOnEveryConnection: readers on the Store's four connections
// at once, beside a writer, all run the prepared statements; database/sql
// prepares each on a connection the first time it runs there.
func TestPreparedOnEveryConnection(t *testing.T) {
	ctx := context.Background()
	s := openPrepared(t)
	var wg sync.WaitGroup
	errs := make(chan error, 9)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := s.Player(ctx, "nobody@example.org"); !errors.Is(err, ErrNotFound) {
					errs <- err
					return
				}
			}
			if i == 0 {
				errs <- s.SetMailboxState(ctx, "INBOX", 7, 42)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if v, uid, err := s.MailboxState(ctx, "INBOX"); err != nil || v != 7 || uid != 42 {
		t.Errorf("MailboxState = %d, %d, %v; want 7, 42", v, uid, err)
	}
}

// TestCloseClosesPrepared: Close closes the prepared statements (they
// refuse to run afterwards), and a call on the closed Store fails with
// an *Error naming the call, as before there were prepared statements.
func TestCloseClosesPrepared(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "taflmail.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Player(ctx, "nobody@example.org"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Player = %v, want ErrNotFound", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	for q, st := range s.prepared {
		if _, err := st.ExecContext(ctx); err == nil || !strings.Contains(err.Error(), "statement is closed") {
			t.Errorf("after Close, %q runs: %v", q, err)
		}
	}
	_, err = s.Player(ctx, "nobody@example.org")
	var ae *Error
	if !errors.As(err, &ae) || ae.Op != "player" || errors.Is(err, ErrNotFound) {
		t.Errorf("Player after Close = %v; want an *Error of op \"player\", not ErrNotFound", err)
	}
}

// TestCloseWaitsForReadOne: a read of one statement outside a
// transaction (readOne) counts as a call under way, so Close returns only
// after it has run and given back its connection, as for read.
func TestCloseWaitsForReadOne(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "taflmail.db"))
	if err != nil {
		t.Fatal(err)
	}
	in := make(chan struct{})
	var ran atomic.Bool
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		readErr = s.readOne(ctx, "test read", func(q querier) error {
			close(in)
			<-s.calls.closing // Close has begun
			var found bool
			err := q.QueryRowContext(ctx, sqlProcessed, "<none>").Scan(&found)
			ran.Store(true)
			return err
		})
	}()
	<-in
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if !ran.Load() {
		t.Error("Close returned before the read under way had run")
	}
	<-done
	if readErr != nil {
		t.Errorf("the read under way = %v", readErr)
	}
}

// TestOpenFailsOnUnpreparedQuery: an archive whose schema lacks what a
// prepared query reads (a table dropped behind the program's back, its
// version unchanged) is refused at Open with an error naming the query
// and the cause, and nothing stays open: the lock is free again and the
// file can be repaired and opened.
func TestOpenFailsOnUnpreparedQuery(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taflmail.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `ALTER TABLE mailbox_state RENAME TO mailbox_state_aside`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = OpenWith(ctx, path, Options{Exclusive: true})
	var ae *Error
	if !errors.As(err, &ae) || ae.Op != "open" ||
		!strings.Contains(err.Error(), `preparing "`) || !strings.Contains(err.Error(), "no such table") {
		t.Fatalf("OpenWith(table missing) = %v; want an *Error of op \"open\" naming the query and the missing table", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.ExecContext(ctx, `ALTER TABLE mailbox_state_aside RENAME TO mailbox_state`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err = OpenWith(ctx, path, Options{Exclusive: true})
	if err != nil {
		t.Fatalf("OpenWith(repaired) = %v", err)
	}
	s.Close()
}

// TestPreparedRerunWhileRowsOpen: a listed query run again in the same
// transaction while rows of its first run are still being read (a loop
// over a game's plies that reads plies inside it) gives both runs all
// their rows. The driver steps a prepared statement in place, so the
// second run goes unprepared while the first one's rows are open, and
// through the statement again once they are closed.
func TestPreparedRerunWhileRowsOpen(t *testing.T) {
	ctx := context.Background()
	s := openPrepared(t)
	at := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	g := &Game{ID: "G1", Variant: "copenhagen", Attackers: "a@example.org", Defenders: "d@example.org",
		Challenger: "a@example.org", Status: Active, AttackerToken: "ta", DefenderToken: "td"}
	if err := s.Commit(ctx, Change{Mail: ProcessedMail{MessageID: "<m1>", Disposition: "applied", At: at},
		Games: []*Game{g}}); err != nil {
		t.Fatal(err)
	}
	stored, err := s.Game(ctx, "G1")
	if err != nil {
		t.Fatal(err)
	}
	plies := []Ply{{N: 1, Move: "d1-d3", At: at}, {N: 2, Move: "e1-e2", At: at}, {N: 3, Move: "a4-a2", At: at}}
	if err := s.Commit(ctx, Change{Mail: ProcessedMail{MessageID: "<m2>", Disposition: "applied", At: at},
		Games: []*Game{stored}, NewPlies: map[string][]Ply{"G1": plies}}); err != nil {
		t.Fatal(err)
	}
	movesOf := func(tx *txn, inner func()) ([]string, error) {
		rows, err := tx.QueryContext(ctx, sqlPlies, `["G1"]`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var moves []string
		for rows.Next() {
			var id, move, msg string
			var n int
			var when, avail any
			if err := rows.Scan(&id, &n, &move, &when, &avail, &msg); err != nil {
				return nil, err
			}
			moves = append(moves, move)
			inner()
		}
		return moves, rows.Err()
	}
	err = s.read(ctx, "test", func(tx *txn) error {
		outer, err := movesOf(tx, func() {
			if tx.stmt(ctx, sqlPlies) != nil {
				t.Error("while its rows are open, the statement is handed out again")
			}
			inner, err := movesOf(tx, func() {})
			if err != nil || strings.Join(inner, " ") != "d1-d3 e1-e2 a4-a2" {
				t.Errorf("inner run = %q, %v; want d1-d3 e1-e2 a4-a2", inner, err)
			}
		})
		if err != nil || strings.Join(outer, " ") != "d1-d3 e1-e2 a4-a2" {
			t.Errorf("outer run = %q, %v; want d1-d3 e1-e2 a4-a2", outer, err)
		}
		if tx.stmt(ctx, sqlPlies) == nil {
			t.Error("once its rows are closed, the query no longer runs through its statement")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
