package archive

import (
	"context"
	"fmt"
	"time"
)

// The daily digest (issue 12, "one mail a day"; migrations/005_digest.sql):
// a player who chose "notify digest" gets one mail a day listing the games
// where it is his move. Its timer is the player's row: digest_due is when
// the next digest is due. The referee finds the due ones with
// [Store.DueDigests] and commits each digest mail with a [DigestsSent] write,
// which moves digest_due on only if it still holds the instant that was
// due: a digest is committed once, and a restart neither loses nor
// repeats it.

// minutesPerDay bounds Player.DigestAt: 0 (00:00) to 1439 (23:59).
const minutesPerDay = 24 * 60

// maxZoneName bounds Player.DigestZone in bytes; the longest IANA name
// ("America/Argentina/ComodRivadavia") has 32.
const maxZoneName = 64

// DigestDue is one player's pending digest ([Store.DueDigests]).
type DigestDue struct {
	Address string    // the player (lower case)
	Due     time.Time // when the digest is due (UTC)
}

// DigestSent moves one player's digest timer on ([DigestsSent]): the
// digest due at Due was composed, the next one is due at Next (after Due).
type DigestSent struct {
	Address string
	Due     time.Time
	Next    time.Time
}

// digestColumns returns p's digest_at and digest_due: both NULL without
// Digest.
func (p *Player) digestColumns() (at, due any) {
	if !p.Digest {
		return nil, nil
	}
	return p.DigestAt, fmtTime(p.DigestDue)
}

// validateDigest checks the rule documented on Player.Digest.
func (p *Player) validateDigest() error {
	switch {
	case !p.Digest && (p.DigestAt != 0 || p.DigestZone != "" || !p.DigestDue.IsZero()):
		return invalid("player %q: digest time without digest", p.Address)
	case len(p.DigestZone) > maxZoneName:
		return invalid("player %q: digest time zone of %d bytes", p.Address, len(p.DigestZone))
	case p.Digest && (p.DigestAt < 0 || p.DigestAt >= minutesPerDay):
		return invalid("player %q: digest at minute %d of the day", p.Address, p.DigestAt)
	case p.Digest && p.DigestDue.IsZero():
		return invalid("player %q: digest without due time", p.Address)
	}
	return nil
}

// fireDigest moves a player's digest timer from d.Due to d.Next:
// ErrDuplicate when the stored due time is later than d.Due (this digest
// was committed before), ErrConflict when the player is gone, left the
// digest or has another due time.
func fireDigest(ctx context.Context, tx *txn, d DigestSent) error {
	addr := lower(d.Address)
	res, err := tx.ExecContext(ctx, `UPDATE players SET digest_due = ? WHERE address = ? AND digest_due = ?`,
		fmtTime(d.Next), addr, fmtTime(d.Due))
	if err != nil {
		return fmt.Errorf("digest of %q: %w", addr, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var stored time.Time
	err = tx.QueryRowContext(ctx, `SELECT digest_due FROM players WHERE address = ?`, addr).Scan(scanTime(&stored))
	switch {
	case isNoRows(err):
		return fmt.Errorf("digest of %q: no such player: %w", addr, ErrConflict)
	case err != nil:
		return fmt.Errorf("digest of %q: %w", addr, err)
	case stored.After(d.Due):
		return fmt.Errorf("digest of %q due %s: sent before: %w", addr, fmtTime(d.Due), ErrDuplicate)
	}
	return fmt.Errorf("digest of %q due %s: not pending: %w", addr, fmtTime(d.Due), ErrConflict)
}

// DueDigests returns at most limit players' digests due at or before now,
// earliest first (then by address). It reads the index of pending
// digests by due time, so it costs O(due digests). limit ≤ 0 means no
// limit.
func (s *Store) DueDigests(ctx context.Context, now time.Time, limit int) ([]DigestDue, error) {
	if limit <= 0 {
		limit = -1
	}
	return queryAll(ctx, s, "due digests", func(row scanner) (DigestDue, error) {
		var d DigestDue
		err := row.Scan(&d.Address, scanTime(&d.Due))
		return d, err
	}, `SELECT address, digest_due FROM players INDEXED BY players_digest_due
WHERE digest_due IS NOT NULL AND digest_due <= ? ORDER BY digest_due, address LIMIT ?`, fmtTime(now), limit)
}

// nextDigest returns when the earliest pending digest is due, inside tx.
func nextDigest(ctx context.Context, tx *txn) (time.Time, bool, error) {
	var due time.Time
	err := tx.QueryRowContext(ctx, `SELECT digest_due FROM players INDEXED BY players_digest_due
WHERE digest_due IS NOT NULL ORDER BY digest_due LIMIT 1`).Scan(scanTime(&due))
	if isNoRows(err) {
		return time.Time{}, false, nil
	}
	return due, err == nil, err
}
