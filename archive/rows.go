package archive

import (
	"context"
)

// scanner is what a scan function reads one row from: *sql.Rows or
// *sql.Row.
type scanner interface{ Scan(dest ...any) error }

// queryAll runs query with args, one statement on its own
// ([Store.readOne]), and returns every row as scan reads it, in the
// query's order; no row is an empty result, not an error. op names the
// operation in errors (see fail).
func queryAll[T any](ctx context.Context, s *Store, op string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := s.readOne(ctx, op, func(tx querier) error {
		var err error
		out, err = scanAll(ctx, tx, scan, query, args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanAll runs query with args in tx (or alone) and returns every row as scan reads
// it, with the rows closed, so that the caller may query tx again (for a
// game's plies, say). No row is an empty result, not an error.
func scanAll[T any](ctx context.Context, tx querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
