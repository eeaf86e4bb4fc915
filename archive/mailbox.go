package archive

import (
	"context"
	"time"
)

// sqlMailboxState reads one mailbox_state row.
const sqlMailboxState = `SELECT uid_validity, last_uid FROM mailbox_state WHERE mailbox = ?`

// MailboxState returns the UIDVALIDITY and the highest UID handled of an
// IMAP mailbox, as last saved; 0, 0 for a mailbox never saved. When the
// server's UIDVALIDITY differs from the saved one, the saved UID means
// nothing (RFC 9051 section 2.3.1.1) and the mailbox is read from the start;
// Processed then keeps mails from being handled twice.
func (s *Store) MailboxState(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error) {
	err = s.readOne(ctx, "mailbox state", func(tx querier) error {
		err := tx.QueryRowContext(ctx, sqlMailboxState,
			mailbox).Scan(&uidValidity, &lastUID)
		if isNoRows(err) {
			return nil
		}
		return err
	})
	return uidValidity, lastUID, err
}

// SetMailboxState saves the UIDVALIDITY and the highest UID handled of an
// IMAP mailbox. [Change.Mailbox] saves it together with a mail instead.
func (s *Store) SetMailboxState(ctx context.Context, mailbox string, uidValidity, lastUID uint32) error {
	const op = "set mailbox state"
	if mailbox == "" {
		return &Error{Op: op, Err: invalid("empty mailbox name")}
	}
	return s.write(ctx, op, func(tx *txn) error {
		return setMailboxState(ctx, tx, MailboxState{Mailbox: mailbox, UIDValidity: uidValidity, LastUID: lastUID}, s.now())
	})
}

// sqlSetMailbox upserts one mailbox_state row.
const sqlSetMailbox = `INSERT INTO mailbox_state (mailbox, uid_validity, last_uid, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid, updated_at = excluded.updated_at`

// setMailboxState upserts one mailbox_state row.
func setMailboxState(ctx context.Context, tx *txn, m MailboxState, now time.Time) error {
	_, err := tx.ExecContext(ctx, sqlSetMailbox,
		m.Mailbox, int64(m.UIDValidity), int64(m.LastUID), fmtTime(now))
	return err
}
