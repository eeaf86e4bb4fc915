package archive

import (
	"context"
	"fmt"
	"time"
)

// Consent (issue 18 §1, docs/security.md "Consent";
// migrations/012_consent.sql): the referee mails an address again and
// again only for what that address asked for from its own mailbox. A
// request that would ("watch", "notify digest" of an address that plays
// no game, "unblock") waits as a [Confirmation] until a mail from the
// address brings back the key that was mailed to it alone.

// Confirmation is one request waiting for its address to confirm it, or
// confirmed.
type Confirmation struct {
	// Address is who is asked (stored lower case).
	Address string
	// What names the request, one per address: "watch K7QX2M", "watch
	// cup-27", "notify", "unblock" (the referee's words; at most 100
	// bytes).
	What string
	// Request is the command line the confirmation carries out, as the
	// referee wrote it: "watch K7QX2M results" (at most 200 bytes).
	Request string
	// Key is the secret the confirmation must carry: ten characters, as
	// a game's key.
	Key string
	// AskedAt is when the request was mailed; Commit fills a zero value
	// with the store's clock.
	AskedAt time.Time
	// Expires is when the key stops working; it must be after AskedAt.
	Expires time.Time
	// ConfirmedAt is when the address confirmed it; zero while it waits.
	ConfirmedAt time.Time
}

// Waiting reports whether c still waits for its confirmation at now: it
// was not confirmed and has not expired.
func (c Confirmation) Waiting(now time.Time) bool {
	return c.ConfirmedAt.IsZero() && now.Before(c.Expires)
}

// validate checks what Commit relies on.
func (c Confirmation) validate() error {
	switch {
	case lower(c.Address) == "" || c.What == "" || len(c.What) > 100:
		return invalid("confirmation %q of %q: address and what are required, what at most 100 bytes", c.What, c.Address)
	case c.Request == "" || len(c.Request) > 200:
		return invalid("confirmation %q of %q: request of %d bytes, want 1 to 200", c.What, c.Address, len(c.Request))
	case c.Key == "":
		return invalid("confirmation %q of %q without key", c.What, c.Address)
	case c.Expires.IsZero() || !c.AskedAt.IsZero() && !c.Expires.After(c.AskedAt):
		return invalid("confirmation %q of %q: expires %v, asked %v", c.What, c.Address, c.Expires, c.AskedAt)
	}
	return nil
}

// writeConfirmations applies a [Confirmations] write: it deletes the
// requests past their expiry at now, then upserts cs.
func writeConfirmations(ctx context.Context, tx *txn, cs []Confirmation, now time.Time) error {
	if len(cs) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM confirmations WHERE expires_at <= ?`, fmtTime(now)); err != nil {
		return fmt.Errorf("expired confirmations: %w", err)
	}
	for _, c := range cs {
		_, err := tx.ExecContext(ctx, `INSERT INTO confirmations (address, what, request, key, asked_at, expires_at, confirmed_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (address, what) DO UPDATE SET request = excluded.request, key = excluded.key, asked_at = excluded.asked_at,
	expires_at = excluded.expires_at, confirmed_at = excluded.confirmed_at`,
			lower(c.Address), c.What, c.Request, c.Key, fmtTime(orNow(c.AskedAt, now)), fmtTime(c.Expires), nullTime(c.ConfirmedAt))
		if err != nil {
			return fmt.Errorf("confirmation %q of %q: %w", c.What, c.Address, err)
		}
	}
	return nil
}

// Confirmation returns address's (any case) request what, waiting,
// confirmed or expired but not yet deleted; [ErrNotFound] if there is
// none.
func (s *Store) Confirmation(ctx context.Context, address, what string) (Confirmation, error) {
	const op = "confirmation"
	c := Confirmation{What: what}
	err := s.read(ctx, op, func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT address, request, key, asked_at, expires_at, confirmed_at FROM confirmations
WHERE address = ? AND what = ?`, lower(address), what).Scan(&c.Address, &c.Request, &c.Key, scanTime(&c.AskedAt),
			scanTime(&c.Expires), scanTime(&c.ConfirmedAt))
		if isNoRows(err) {
			return notFound(op, fmt.Sprintf("%q of %q", what, lower(address)))
		}
		return err
	})
	return c, err
}

// ConfirmationMails returns how many mails of requests to confirm were
// sent to address (any case) at or after since, confirmed or not, as far
// as the rows are kept (until their expiry): the requests of one mail
// share their AskedAt, so it counts the distinct AskedAt.
func (s *Store) ConfirmationMails(ctx context.Context, address string, since time.Time) (int, error) {
	var n int
	err := s.read(ctx, "confirmation mails", func(tx *txn) error {
		return tx.QueryRowContext(ctx, `SELECT count(DISTINCT asked_at) FROM confirmations WHERE address = ? AND asked_at >= ?`,
			lower(address), fmtTime(since)).Scan(&n)
	})
	return n, err
}
