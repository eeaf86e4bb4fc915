package archive

import (
	"context"
	"database/sql"
)

// stmts prepares each statement of one transaction once: a Commit that
// writes thousands of games (a tournament's start: 9,900 games and 39,600
// timers) would otherwise have SQLite compile the same INSERT for every
// row. The statements close with Close, before the transaction ends. A
// query of preparedQueries is not prepared again: it comes from the
// Store's statements, bound to the transaction (txn.stmt).
type stmts struct {
	tx *txn
	m  map[string]*sql.Stmt
}

func newStmts(tx *txn) *stmts { return &stmts{tx: tx, m: map[string]*sql.Stmt{}} }

// exec runs query, prepared on its first use, with args.
func (s *stmts) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := s.prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// prepare returns query prepared, preparing it on its first use.
func (s *stmts) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := s.tx.stmt(ctx, query); st != nil {
		return st, nil // prepared once per Store, closed with the transaction
	}
	st, ok := s.m[query]
	if !ok {
		var err error
		if st, err = s.tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		s.m[query] = st
	}
	return st, nil
}

// Close closes the prepared statements.
func (s *stmts) Close() {
	for _, st := range s.m {
		st.Close()
	}
}
