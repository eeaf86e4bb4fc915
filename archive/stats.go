package archive

import (
	"context"
	"database/sql"
	"time"
)

// OutboxStats returns how many mails wait in the outbox (status pending,
// due or waiting for a retry) and when the oldest of them was queued;
// the zero time when none waits. It is read at every scrape of /metrics
// (issue 21), one COUNT over the outbox.
func (s *Store) OutboxStats(ctx context.Context) (pending int, oldest time.Time, err error) {
	err = s.read(ctx, "outbox stats", func(tx *txn) error {
		var first sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(created_at) FROM outbox WHERE status = 'pending'`).Scan(&pending, &first); err != nil {
			return err
		}
		if first.Valid {
			return scanTime(&oldest).Scan(first.String)
		}
		return nil
	})
	return pending, oldest, err
}

// TimerStats returns how many pending timers (a game's reminders,
// deadlines and engine turns) are due at now, and how many of them were
// due before now−late: the scheduler is behind with those. It reads the
// pending timers' index by due time.
func (s *Store) TimerStats(ctx context.Context, now time.Time, late time.Duration) (due, behind int, err error) {
	err = s.read(ctx, "timer stats", func(tx *txn) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(CASE WHEN due < ?2 THEN 1 END) FROM timers INDEXED BY timers_due
WHERE done IS NULL AND due <= ?1`, fmtTime(now), fmtTime(now.Add(-late))).Scan(&due, &behind)
	})
	return due, behind, err
}
