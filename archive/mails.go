package archive

import (
	"context"
	"strings"
)

// mailColumns are the processed_mails columns in the order scanMail reads
// them.
const mailColumns = `message_id, COALESCE(content_hash, ''), sender, game_id, disposition, at, authenticated, replies, reason, subject, budget, sender_domain`

// where turns f into an SQL condition and its arguments.
func (f MailFilter) where() (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, arg ...any) {
		conds = append(conds, cond)
		args = append(args, arg...)
	}
	if f.From != "" {
		add("sender = ?", lower(f.From))
	}
	if f.GameID != "" {
		add("game_id = ?", f.GameID)
	}
	if f.Disposition != "" {
		add("disposition = ?", f.Disposition)
	}
	switch f.Auth {
	case OnlyAuthenticated:
		add("authenticated = 1")
	case OnlyUnauthenticated:
		add("authenticated = 0")
	}
	if f.AnsweredOnly {
		add("replies > 0")
	}
	if !f.Since.IsZero() {
		add("at >= ?", fmtTime(f.Since))
	}
	if f.Budget != NoBudget {
		add("budget = ?", string(f.Budget))
	}
	if f.Domain != "" {
		add("sender_domain = ?", lower(f.Domain))
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Mails returns the processed mails that pass f, most recently handled
// first (at most f.Limit of them when it is positive). It is the operator's
// answer to "where is my mail?" (`taflmail mails`). No mails is not an
// error. Errors: [ErrInvalid] for an unknown disposition, [ErrUnavailable].
func (s *Store) Mails(ctx context.Context, f MailFilter) ([]ProcessedMail, error) {
	const op = "mails"
	if f.Disposition != "" && !dispositions[f.Disposition] {
		return nil, &Error{Op: op, Err: invalid("disposition %q", f.Disposition)}
	}
	where, args := f.where()
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return queryAll(ctx, s, op, func(row scanner) (ProcessedMail, error) {
		var m ProcessedMail
		err := row.Scan(&m.MessageID, &m.ContentHash, &m.From, &m.GameID, &m.Disposition, scanTime(&m.At),
			&m.Authenticated, &m.Replies, &m.Reason, &m.Subject, &m.Budget, &m.Domain)
		return m, err
	}, `SELECT `+mailColumns+` FROM processed_mails`+where+`
ORDER BY at DESC, message_id LIMIT ?`, append(args, limit)...)
}

// Mail returns the processed mail with this Message-ID; [ErrNotFound] if
// none was recorded.
func (s *Store) Mail(ctx context.Context, messageID string) (ProcessedMail, error) {
	const op = "mail"
	var m ProcessedMail
	err := s.read(ctx, op, func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT `+mailColumns+` FROM processed_mails WHERE message_id = ?`, messageID).Scan(
			&m.MessageID, &m.ContentHash, &m.From, &m.GameID, &m.Disposition, scanTime(&m.At),
			&m.Authenticated, &m.Replies, &m.Reason, &m.Subject, &m.Budget, &m.Domain)
		if isNoRows(err) {
			return notFound(op, "mail "+messageID)
		}
		return err
	})
	return m, err
}

// CountMails returns how many processed mails pass f (f.Limit is
// ignored). The referee counts its replies with it: per sender and overall
// for mails that did not authenticate, per hour (docs/security.md).
// Errors: [ErrInvalid] for an unknown disposition, [ErrUnavailable].
func (s *Store) CountMails(ctx context.Context, f MailFilter) (int, error) {
	const op = "count mails"
	if f.Disposition != "" && !dispositions[f.Disposition] {
		return 0, &Error{Op: op, Err: invalid("disposition %q", f.Disposition)}
	}
	where, args := f.where()
	var n int
	err := s.read(ctx, op, func(tx *txn) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM processed_mails`+where, args...).Scan(&n)
	})
	return n, err
}
