package archive

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// outboxColumns are the outbox columns in the order scanOutbox reads them.
const outboxColumns = `id, game_id, message_id, sender, recipients, raw, status, attempts, next_attempt, last_error, created_at, sent_at`

// scanOutbox reads one row of outboxColumns.
func scanOutbox(rows *sql.Rows) (OutboxMail, error) {
	var m OutboxMail
	var to string
	err := rows.Scan(&m.ID, &m.GameID, &m.MessageID, &m.From, &to, &m.Raw, &m.Status, &m.Attempts,
		scanTime(&m.NextAttempt), &m.LastError, scanTime(&m.CreatedAt), scanTime(&m.SentAt))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal([]byte(to), &m.To); err != nil {
		return m, fmt.Errorf("outbox mail %d: recipients: %w", m.ID, err)
	}
	return m, nil
}

// queryOutbox runs an outbox query.
func (s *Store) queryOutbox(ctx context.Context, op, query string, args ...any) ([]OutboxMail, error) {
	var out []OutboxMail
	err := s.read(ctx, op, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m, err := scanOutbox(rows)
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PendingOutbox returns up to limit Pending mails due at now (NextAttempt
// ≤ now), ordered by game, then creation, so the mails of one game come
// out in the order they were queued; limit ≤ 0 means all. Mails about no
// game come first.
//
// A mail is held back while an earlier mail of the same game to the same
// recipients waits for its retry, so one player's mails never overtake
// each other; mails to the other player are not held up. When sending a
// batch, the caller stops sending a game's later mails to the same
// recipients once one of them fails.
func (s *Store) PendingOutbox(ctx context.Context, now time.Time, limit int) ([]OutboxMail, error) {
	if limit <= 0 {
		limit = -1
	}
	return s.queryOutbox(ctx, "pending outbox", `SELECT `+outboxColumns+` FROM outbox AS o
WHERE o.status = 'pending' AND o.next_attempt <= ?1
	AND NOT (o.game_id <> '' AND EXISTS (
		SELECT 1 FROM outbox AS e
		WHERE e.game_id = o.game_id AND e.status = 'pending' AND e.recipients = o.recipients
			AND e.next_attempt > ?1 AND (e.created_at, e.id) < (o.created_at, o.id)))
ORDER BY o.game_id, o.created_at, o.id
LIMIT ?2`, fmtTime(now), limit)
}

// Outbox returns the mails with this status, oldest first; status "" for
// every mail. It is for the operator's command line.
func (s *Store) Outbox(ctx context.Context, status OutboxStatus) ([]OutboxMail, error) {
	if status == "" {
		return s.queryOutbox(ctx, "outbox", `SELECT `+outboxColumns+` FROM outbox ORDER BY id`)
	}
	if !status.Valid() {
		return nil, &Error{Op: "outbox", Err: invalid("status %q", status)}
	}
	return s.queryOutbox(ctx, "outbox", `SELECT `+outboxColumns+` FROM outbox WHERE status = ? ORDER BY id`, string(status))
}

// MarkSent records that mail id was handed to the SMTP server at at.
// [ErrNotFound] if there is no such mail.
func (s *Store) MarkSent(ctx context.Context, id int64, at time.Time) error {
	return s.updateOutbox(ctx, "mark sent", id,
		`UPDATE outbox SET status = 'sent', sent_at = ? WHERE id = ?`, fmtTime(at), id)
}

// MarkRetry records a failed attempt to send mail id that may succeed
// later: Attempts goes up by one, the error text is kept, and the mail is
// due again at next. It stays Pending. [ErrNotFound] if there is no such
// mail.
func (s *Store) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	return s.updateOutbox(ctx, "mark retry", id,
		`UPDATE outbox SET status = 'pending', attempts = attempts + 1, next_attempt = ?, last_error = ? WHERE id = ?`,
		fmtTime(next), errText, id)
}

// MarkFailed records a final failed attempt to send mail id: Attempts goes
// up by one, the error text is kept and the mail becomes Failed, to be
// looked at by the operator. [ErrNotFound] if there is no such mail.
func (s *Store) MarkFailed(ctx context.Context, id int64, errText string) error {
	return s.updateOutbox(ctx, "mark failed", id,
		`UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?`, errText, id)
}

// Requeue makes a Failed or Pending mail id Pending again, due at next,
// for the operator's "send it again". Attempts and the last error are
// kept. [ErrNotFound] if there is no such mail, [ErrConflict] if it was
// sent already.
func (s *Store) Requeue(ctx context.Context, id int64, next time.Time) error {
	const op = "requeue"
	return s.write(ctx, op, func(tx *sql.Tx) error {
		var status OutboxStatus
		err := tx.QueryRowContext(ctx, `SELECT status FROM outbox WHERE id = ?`, id).Scan(&status)
		switch {
		case isNoRows(err):
			return notFound(op, fmt.Sprintf("outbox mail %d", id))
		case err != nil:
			return err
		case status == Sent:
			return fmt.Errorf("outbox mail %d: sent already: %w", id, ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET status = 'pending', next_attempt = ? WHERE id = ?`, fmtTime(next), id)
		return err
	})
}

// updateOutbox runs one UPDATE of outbox row id and reports ErrNotFound if
// it changed no row.
func (s *Store) updateOutbox(ctx context.Context, op string, id int64, query string, args ...any) error {
	return s.write(ctx, op, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return notFound(op, fmt.Sprintf("outbox mail %d", id))
		}
		return nil
	})
}
