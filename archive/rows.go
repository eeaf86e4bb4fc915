package archive

import (
	"context"
	"database/sql"
)

// scanner is what a scan function reads one row from: *sql.Rows or
// *sql.Row.
type scanner interface{ Scan(dest ...any) error }

// queryAll runs query with args in a read transaction of s and returns
// every row as scan reads it, in the query's order; no row is an empty
// result, not an error. op names the operation in errors (see fail).
func queryAll[T any](ctx context.Context, s *Store, op string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := s.read(ctx, op, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
