package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// preparedQueries are the statements prepared once per Store: those the
// referee runs for every mail it decides and for every round of its
// outbox (docs/performance.md, "Mail loop"). The driver compiles the SQL
// text of any other statement each time it runs, which the profile of the
// mail loop showed as a sixth of its CPU. The driver steps a prepared
// statement in place, so it cannot run again while rows of it are open
// (it fails with "bad parameter or other API misuse"); a transaction
// therefore runs such a rerun unprepared (txn.stmt), and any query may
// join this list.
var preparedQueries = [...]string{
	// reading a mail's decision: Processed, Game, Player, Spectators
	sqlProcessed, sqlProcessedOrHash,
	sqlGame, sqlLeave, sqlEvents, sqlPlies, sqlTakenBack,
	sqlPlayer,
	sqlSpectators,
	// committing it: Commit
	sqlInsertMail, sqlUpdateGame, sqlPlyCount, sqlInsertPly, sqlAddPlies,
	sqlInsertPlayer, sqlInsertOutbox, sqlSetMailbox,
	sqlDeleteTimers, sqlDeleteTimersBefore, sqlInsertTimer,
	// the outbox's round: PendingOutbox, ClaimOutboxes, MarkSentAll
	sqlPendingOutbox, sqlClaim, sqlOutboxExists, sqlMarkSent, sqlUnclaim,
	// a poll's start: MailboxState
	sqlMailboxState,
}

// prepared is a Store's prepared statements of preparedQueries, by their
// SQL text. A query missing from it runs unprepared.
type prepared map[string]*sql.Stmt

// prepareQueries prepares preparedQueries on db once the schema is up to
// date. database/sql prepares each statement on one connection here and
// on any other connection the first time it runs there (Tx.StmtContext).
//
// Right after the migrations every query compiles
// (TestPreparedQueriesPrepare), so a statement that does not prepare
// means the file's schema is not the one its version says (a table
// dropped or changed by hand, a damaged file) or the database cannot be
// read now (I/O, a lock held past the busy timeout, ctx ended). Either
// should stop the Store where the operator sees it, at Open, not leave
// it running with a query that fails at the first mail needing it, so
// the error is returned, naming the query, with the statements prepared
// so far closed. Only with made-up migrations (Options.migrations,
// tests of older schemas) is a query that cannot be prepared left out,
// to run unprepared and fail as it would have: madeUp says so.
func prepareQueries(ctx context.Context, db *sql.DB, madeUp bool) (prepared, error) {
	p := make(prepared, len(preparedQueries))
	for _, q := range preparedQueries {
		st, err := db.PrepareContext(ctx, q)
		switch {
		case err == nil:
			p[q] = st
		case !madeUp:
			first, _, _ := strings.Cut(q, "\n")
			return nil, errors.Join(fmt.Errorf("preparing %q: %w", first, err), p.close())
		}
	}
	return p, nil
}

// close closes the statements; it runs in Store.Close once no call is
// under way, before the database closes.
func (p prepared) close() error {
	var errs []error
	for _, st := range p {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// txn is one transaction of a Store (Store.read, Store.write): database/sql's
// transaction, whose QueryContext, QueryRowContext and ExecContext run a
// query of preparedQueries through the Store's prepared statement, bound
// to the transaction on its first use, and any other SQL as sql.Tx does.
// Callers write SQL as for a plain transaction.
type txn struct {
	*sql.Tx
	prepared prepared
	bound    map[string]boundStmt // statements of prepared bound to Tx
}

// boundStmt is a prepared statement bound to a transaction, with the
// rows its last QueryContext handed out, which may still be open.
type boundStmt struct {
	st   *sql.Stmt
	rows *sql.Rows
}

// stmt returns the prepared statement of query bound to the transaction,
// or nil if query is not prepared or rows of the statement are still
// open: the driver would refuse to run it again before they are closed
// (TestPreparedRerunWhileRowsOpen), so that run goes unprepared. Rows
// are closed once read to the end, by Close, or on an error. A *sql.Row
// holds its rows only until its Scan, which every caller chains to the
// call. database/sql closes the statement with the transaction.
func (t *txn) stmt(ctx context.Context, query string) *sql.Stmt {
	p := t.prepared[query]
	if p == nil {
		return nil
	}
	if b, ok := t.bound[query]; ok {
		if b.rows != nil {
			if _, err := b.rows.Columns(); err == nil { // still open
				return nil
			}
		}
		return b.st
	}
	st := t.Tx.StmtContext(ctx, p)
	if t.bound == nil {
		t.bound = make(map[string]boundStmt, 8)
	}
	t.bound[query] = boundStmt{st: st}
	return st
}

// QueryContext is sql.Tx's, through the prepared statement if query has one.
func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(ctx, query); st != nil {
		rows, err := st.QueryContext(ctx, args...)
		t.bound[query] = boundStmt{st: st, rows: rows}
		return rows, err
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext is sql.Tx's, through the prepared statement if query has one.
func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// ExecContext is sql.Tx's, through the prepared statement if query has one.
func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

// querier runs a statement: a transaction (*txn), or the Store's
// database outside any transaction (alone).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// alone runs a statement on its own, in SQLite's autocommit mode: through
// the Store's prepared statement if the query has one, else as
// database/sql's DB runs it.
type alone struct {
	db       *sql.DB
	prepared prepared
}

// QueryContext is sql.DB's, through the prepared statement if query has one.
func (a alone) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := a.prepared[query]; st != nil {
		return st.QueryContext(ctx, args...)
	}
	return a.db.QueryContext(ctx, query, args...)
}

// QueryRowContext is sql.DB's, through the prepared statement if query has one.
func (a alone) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := a.prepared[query]; st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return a.db.QueryRowContext(ctx, query, args...)
}

// readOne is [Store.read] for a read of exactly one statement: fn runs
// it outside any transaction. One statement reads one snapshot by itself,
// so it needs no BEGIN and ROLLBACK around it, which the driver would
// compile and run for every read (most of the reads of a mail's decision
// are one statement: Processed, Player, Spectators). It counts as a call
// under way for Close, and its errors are as read's.
func (s *Store) readOne(ctx context.Context, op string, fn func(querier) error) error {
	s.calls.start()
	defer s.calls.end()
	return fail(op, fn(alone{s.db, s.prepared}))
}
