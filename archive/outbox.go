package archive

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// outboxColumns are the outbox columns in the order scanOutbox reads them.
const outboxColumns = `id, game_id, message_id, sender, recipients, raw, status, attempts, next_attempt, last_error, created_at, sent_at,
	claimed_by, claimed_at, held_for, carry`

// scanOutbox reads one row of outboxColumns.
func scanOutbox(rows scanner) (OutboxMail, error) {
	var m OutboxMail
	var to string
	err := rows.Scan(&m.ID, &m.GameID, &m.MessageID, &m.From, &to, &m.Raw, &m.Status, &m.Attempts,
		scanTime(&m.NextAttempt), &m.LastError, scanTime(&m.CreatedAt), scanTime(&m.SentAt),
		&m.ClaimedBy, scanTime(&m.ClaimedAt), &m.HeldFor, &m.Carry)
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
	return queryAll(ctx, s, op, scanOutbox, query, args...)
}

// sqlPendingOutbox reads the pending outbox mails due at ?1, at most ?2.
const sqlPendingOutbox = `SELECT ` + outboxColumns + ` FROM outbox AS o
WHERE o.status = 'pending' AND o.next_attempt <= ?1
	AND NOT (o.game_id <> '' AND EXISTS (
		SELECT 1 FROM outbox AS e
		WHERE e.game_id = o.game_id AND e.status = 'pending' AND e.recipients = o.recipients
			AND e.next_attempt > ?1 AND (e.created_at, e.id) < (o.created_at, o.id)))
ORDER BY o.created_at, o.id
LIMIT ?2`

// PendingOutbox returns up to limit Pending mails due at now (NextAttempt
// ≤ now), ordered by creation, then id: in the order they were queued, so
// the mails of one game come out in that order, and so do the mails of
// one change, whatever game they are about (a game's result before the
// mail about no game that it caused, such as a tournament's final
// standings); limit ≤ 0 means all. A sender must claim each mail ([Store.ClaimOutbox])
// before sending it: a mail another process is sending is listed too, and
// its claim fails.
//
// A mail is held back while an earlier mail of the same game to the same
// recipients waits for its retry, so one player's mails never overtake
// each other; mails to the other player are not held up. When sending a
// batch, the caller stops sending a game's later mails to the same
// recipients once one of them fails or cannot be claimed.
func (s *Store) PendingOutbox(ctx context.Context, now time.Time, limit int) ([]OutboxMail, error) {
	if limit <= 0 {
		limit = -1
	}
	return s.queryOutbox(ctx, "pending outbox", sqlPendingOutbox, fmtTime(now), limit)
}

// HeldOutbox returns the latest Pending mail of game gameID held for
// heldFor ([OutboxMail.HeldFor]), claimed or not: the caller may take
// its place ([Change.Replace]) only while ClaimedBy is "". [ErrNotFound]
// when there is none (it was sent, replaced, or never held); an empty
// gameID or heldFor is [ErrInvalid].
func (s *Store) HeldOutbox(ctx context.Context, gameID, heldFor string) (OutboxMail, error) {
	const op = "held outbox"
	if gameID == "" || heldFor == "" {
		return OutboxMail{}, &Error{Op: op, Err: invalid("held outbox mail without game or key")}
	}
	ms, err := s.queryOutbox(ctx, op, `SELECT `+outboxColumns+` FROM outbox
WHERE game_id = ? AND held_for = ? AND status = 'pending' ORDER BY id DESC LIMIT 1`, gameID, heldFor)
	if err != nil {
		return OutboxMail{}, err
	}
	if len(ms) == 0 {
		return OutboxMail{}, notFound(op, fmt.Sprintf("outbox mail of game %s held for %q", gameID, heldFor))
	}
	return ms[0], nil
}

// ClaimLease is how long a claim of [Store.ClaimOutbox] holds: a claim
// older than this is taken to belong to a sender that died, and the mail
// may be claimed again. It is far longer than one SMTP transaction (the
// mailer's timeouts end one within minutes).
const ClaimLease = 10 * time.Minute

// ClaimOutbox claims Pending mail id for the sender owner (a per-process
// id) at instant at, before the mail is handed to SMTP. It reports false,
// without error, when the mail is no longer Pending or someone else holds
// a claim younger than [ClaimLease]: then the caller must not send it. A
// claim ends with MarkSent, MarkRetry or MarkFailed, or with
// [Store.ReleaseClaims]. Two processes that share an archive therefore
// never both send one mail. [ErrNotFound] if there is no such mail.
func (s *Store) ClaimOutbox(ctx context.Context, id int64, owner string, at time.Time) (bool, error) {
	states, err := s.ClaimOutboxes(ctx, []int64{id}, owner, at)
	if err != nil {
		return false, err
	}
	if states[0] == ClaimGone {
		return false, notFound("claim outbox", fmt.Sprintf("outbox mail %d", id))
	}
	return states[0] == ClaimTaken, nil
}

// ClaimState is what [Store.ClaimOutboxes] found for one mail.
type ClaimState int

const (
	// ClaimTaken: the caller holds the claim now and may send the mail.
	ClaimTaken ClaimState = iota
	// ClaimRefused: the mail is no longer Pending, or another sender holds
	// a claim younger than [ClaimLease]; the caller must not send it
	// (ClaimOutbox's false).
	ClaimRefused
	// ClaimGone: there is no such mail (ClaimOutbox's [ErrNotFound]), e.g.
	// another mail took its place ([Change.Replace]).
	ClaimGone
)

// sqlClaim claims one pending outbox mail.
const sqlClaim = `UPDATE outbox SET claimed_by = ?1, claimed_at = ?2
WHERE id = ?3 AND status = 'pending' AND (claimed_by = '' OR claimed_by = ?1 OR claimed_at < ?4)`

// sqlOutboxExists reads whether an outbox mail exists.
const sqlOutboxExists = `SELECT EXISTS (SELECT 1 FROM outbox WHERE id = ?)`

// ClaimOutboxes claims the Pending mails ids for the sender owner at
// instant at, as [Store.ClaimOutbox] claims one, but all in one write
// transaction: one fsync for a batch of mails instead of one each
// (docs/performance.md, issue 19 §8). It returns one [ClaimState] per id,
// in the order of ids. A mail claimed here and then not sent must have
// its claim dropped ([Store.MarkSentAll]'s release) or its
// result recorded (MarkSent, MarkRetry, MarkFailed), or it waits for
// [ClaimLease] before another sender takes it; the caller claiming again
// under the same owner always succeeds. An empty ids writes nothing.
func (s *Store) ClaimOutboxes(ctx context.Context, ids []int64, owner string, at time.Time) ([]ClaimState, error) {
	const op = "claim outboxes"
	if owner == "" {
		return nil, &Error{Op: op, Err: invalid("empty claim owner")}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	states := make([]ClaimState, len(ids))
	err := s.write(ctx, op, func(tx *txn) error {
		for i, id := range ids {
			res, err := tx.ExecContext(ctx, sqlClaim, owner, fmtTime(at), id, fmtTime(at.Add(-ClaimLease)))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if n == 1 {
				states[i] = ClaimTaken
				continue
			}
			var found bool
			if err := tx.QueryRowContext(ctx, sqlOutboxExists, id).Scan(&found); err != nil {
				return err
			}
			states[i] = ClaimRefused
			if !found {
				states[i] = ClaimGone
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return states, nil
}

// ReleaseClaims drops every claim on Pending mails. The daemon calls it at
// start, holding the archive's exclusive lock ([Options.Exclusive]): no
// other sender can be alive then, so the claims are those of a process
// that died, and their mails (perhaps sent, perhaps not: the crash came
// between claim and MarkSent) are sent again at once rather than after
// [ClaimLease]. It returns how many claims it dropped.
func (s *Store) ReleaseClaims(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, "release claims", func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET claimed_by = '', claimed_at = NULL WHERE status = 'pending' AND claimed_by <> ''`)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
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

// sqlMarkSent marks one outbox mail sent.
const sqlMarkSent = `UPDATE outbox SET status = 'sent', sent_at = ?, claimed_by = '', claimed_at = NULL WHERE id = ?`

// MarkSent records that mail id was handed to the SMTP server at at.
// [ErrNotFound] if there is no such mail.
func (s *Store) MarkSent(ctx context.Context, id int64, at time.Time) error {
	return s.updateOutbox(ctx, "mark sent", id,
		sqlMarkSent, fmtTime(at), id)
}

// sqlUnclaim drops one owner's claim on a pending outbox mail.
const sqlUnclaim = `UPDATE outbox SET claimed_by = '', claimed_at = NULL WHERE id = ? AND status = 'pending' AND claimed_by = ?`

// MarkSentAll records, in one write transaction, that the mails sent
// were handed to the SMTP server at at, as [Store.MarkSent] records one,
// and drops owner's claims on the mails release (claimed by
// [Store.ClaimOutboxes] but not sent: they stay Pending, due as before,
// for the next sender). A mail of release that owner no longer claims is
// left alone. One fsync for a batch of sent mails instead of one each;
// the price is the crash window: a process that dies after handing k
// mails of a batch to SMTP and before this commit sends those k again
// after restart (after [Store.ReleaseClaims]), with the same bytes and
// Message-IDs, where MarkSent after every mail resends at most one.
// docs/architecture.md ("The mail loop's transactions") says what is
// promised. A mail of sent that does not exist changes nothing: the
// others are recorded all the same, and the error, wrapping
// [ErrNotFound], names the missing ids. Empty sent and release write
// nothing.
func (s *Store) MarkSentAll(ctx context.Context, sent []int64, at time.Time, owner string, release []int64) error {
	const op = "mark sent all"
	if len(sent) == 0 && len(release) == 0 {
		return nil
	}
	var missing []int64
	err := s.write(ctx, op, func(tx *txn) error {
		for _, id := range sent {
			res, err := tx.ExecContext(ctx, sqlMarkSent, fmtTime(at), id)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				missing = append(missing, id)
			}
		}
		if len(release) == 0 {
			return nil
		}
		for _, id := range release {
			if _, err := tx.ExecContext(ctx, sqlUnclaim, id, owner); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && len(missing) > 0 {
		return notFound(op, fmt.Sprintf("outbox mails %v", missing))
	}
	return err
}

// MarkRetry records a failed attempt to send mail id that may succeed
// later: Attempts goes up by one, the error text is kept, and the mail is
// due again at next. It stays Pending. [ErrNotFound] if there is no such
// mail.
func (s *Store) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	return s.updateOutbox(ctx, "mark retry", id,
		`UPDATE outbox SET status = 'pending', attempts = attempts + 1, next_attempt = ?, last_error = ?, claimed_by = '', claimed_at = NULL
WHERE id = ?`,
		fmtTime(next), errText, id)
}

// MarkFailed records a final failed attempt to send mail id: Attempts goes
// up by one, the error text is kept and the mail becomes Failed, to be
// looked at by the operator. [ErrNotFound] if there is no such mail.
func (s *Store) MarkFailed(ctx context.Context, id int64, errText string) error {
	return s.updateOutbox(ctx, "mark failed", id,
		`UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, claimed_by = '', claimed_at = NULL
WHERE id = ?`, errText, id)
}

// Requeue makes a Failed or Pending mail id Pending again, due at next,
// for the operator's "send it again". Attempts and the last error are
// kept. [ErrNotFound] if there is no such mail, [ErrConflict] if it was
// sent already.
func (s *Store) Requeue(ctx context.Context, id int64, next time.Time) error {
	const op = "requeue"
	return s.write(ctx, op, func(tx *txn) error {
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
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET status = 'pending', next_attempt = ?, claimed_by = '', claimed_at = NULL WHERE id = ?`, fmtTime(next), id)
		return err
	})
}

// updateOutbox runs one UPDATE of outbox row id and reports ErrNotFound if
// it changed no row.
func (s *Store) updateOutbox(ctx context.Context, op string, id int64, query string, args ...any) error {
	return s.write(ctx, op, func(tx *txn) error {
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
