package archive

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// CommitEach writes the changes cs in one transaction, each under its
// own SQLite savepoint, in order: one fsync for all of them where
// [Store.Commit] takes one each. A change that meets [ErrConflict] (a
// game it writes changed since it was read, a new game's id is taken,
// …) or [ErrDuplicate] (its mail was recorded before, by another process
// or by an earlier change of cs) is rolled back to its savepoint, and
// the others are still written: its error, wrapped as Commit wraps it,
// is at its index of the returned slice, where a written change has nil.
// A later change sees what the earlier ones of cs wrote.
//
// Any other error — a change that breaks a rule ([ErrInvalid], checked
// for all of them before anything is written), [ErrNotFound],
// [ErrUnavailable], the COMMIT failing — rolls the whole transaction
// back and is returned as err with a nil slice: nothing of cs is
// written. Only once the transaction is committed are the written
// changes settled as Commit settles one (their games' versions and
// times); the games of the others are left as they were.
func (s *Store) CommitEach(ctx context.Context, cs []Change) ([]error, error) {
	const op = "commit"
	sets := make([]writeSet, len(cs))
	for i := range cs {
		ws, err := cs[i].validate()
		if err != nil {
			return nil, &Error{Op: op, Err: fmt.Errorf("change %d of %d: %w", i+1, len(cs), err)}
		}
		sets[i] = ws
	}
	now := s.now().UTC()
	var errs []error
	var ws []*written
	err := s.writeSaved(ctx, op, func(tx *txn) error {
		errs, ws = make([]error, len(cs)), make([]*written, len(cs))
		for i := range cs {
			w, err := commitSaved(ctx, tx, &cs[i], sets[i], now)
			switch {
			case err == nil:
				ws[i] = w
			case errors.Is(err, ErrConflict) || errors.Is(err, ErrDuplicate):
				errs[i] = &Error{Op: op, Err: err}
			default:
				return fmt.Errorf("change %d of %d: %w", i+1, len(cs), err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range cs {
		if ws[i] != nil {
			cs[i].settle(ws[i], now)
		}
	}
	return errs, nil
}

// commitSaved writes c in tx under a savepoint: released when c is
// written, rolled back to (and released) when writing it failed, so that
// tx holds nothing of c. It returns what settle needs, or the error of
// the write (the savepoint's own error, if that failed).
func commitSaved(ctx context.Context, tx *txn, c *Change, ws writeSet, now time.Time) (*written, error) {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT change"); err != nil {
		return nil, err
	}
	st := newStmts(tx)
	w, err := c.write(ctx, tx, st, ws, now)
	st.Close()
	if err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO change"); rerr != nil {
			return nil, fmt.Errorf("rolling back to the savepoint after %v: %w", err, rerr)
		}
	}
	if _, rerr := tx.ExecContext(ctx, "RELEASE change"); rerr != nil {
		return nil, rerr
	}
	return w, err
}
