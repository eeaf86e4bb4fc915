package archive

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
	"unicode/utf8"
)

// Public names (issue 20, migrations/011_public_names.sql): the name a
// player chose for the club's web pages, and the key from which the
// pages derive a pseudonym for everyone else. The referee checks a
// name's form (club.CheckPublicName); the archive keeps names unique.

// maxPublicName is the longest public name the archive stores, in bytes;
// the referee's own limit is lower.
const maxPublicName = 200

// PublicFold is the form in which two public names are the same: lower
// case, blanks collapsed to one space, none at the ends. The archive
// refuses a name whose fold another player's name has.
func PublicFold(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// writePublicNames sets the public name of each address of names (its
// key, any case) to the value, "" clearing it; a player not stored yet
// is added. A name another player holds is ErrConflict.
func writePublicNames(ctx context.Context, tx *txn, names map[string]string, now time.Time) error {
	for _, addr := range sortedKeys(names) {
		name := strings.Join(strings.Fields(names[addr]), " ")
		fold := PublicFold(name)
		_, err := tx.ExecContext(ctx, `INSERT INTO players (address, public_name, public_fold, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT (address) DO UPDATE SET public_name = excluded.public_name, public_fold = excluded.public_fold`,
			lower(addr), name, fold, fmtTime(now))
		if isUniqueViolation(err) {
			return fmt.Errorf("public name %q of %q: another player has it: %w", name, lower(addr), ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("public name of %q: %w", lower(addr), err)
		}
	}
	return nil
}

// validatePublicNames checks a [PublicNames] write.
func validatePublicNames(names map[string]string) error {
	for addr, name := range names {
		switch {
		case lower(addr) == "":
			return invalid("public name without address")
		case len(name) > maxPublicName || !utf8.ValidString(name):
			return invalid("public name of %q: not UTF-8 or longer than %d bytes", lower(addr), maxPublicName)
		}
	}
	return nil
}

// PublicNames returns every public name a player chose, by address
// (lower case); players without one are not in the map.
func (s *Store) PublicNames(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := s.read(ctx, "public names", func(tx *txn) error {
		rows, err := tx.QueryContext(ctx, `SELECT address, public_name FROM players WHERE public_name <> ''`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a, n string
			if err := rows.Scan(&a, &n); err != nil {
				return err
			}
			out[a] = n
		}
		return rows.Err()
	})
	return out, err
}

// PublicName returns the public name the player (any case) chose, ""
// when none (or no such player).
func (s *Store) PublicName(ctx context.Context, address string) (string, error) {
	var name string
	err := s.read(ctx, "public name", func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT public_name FROM players WHERE address = ?`, lower(address)).Scan(&name)
		if isNoRows(err) {
			return nil
		}
		return err
	})
	return name, err
}

// PublicNameOwner returns the address (lower case) of the player whose
// public name has the fold of name (PublicFold), "" when nobody's has.
func (s *Store) PublicNameOwner(ctx context.Context, name string) (string, error) {
	var addr string
	fold := PublicFold(name)
	if fold == "" {
		return "", nil
	}
	err := s.read(ctx, "public name owner", func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT address FROM players WHERE public_fold = ?`, fold).Scan(&addr)
		if isNoRows(err) {
			return nil
		}
		return err
	})
	return addr, err
}

// PseudonymKey returns the archive's secret key for pseudonyms (at least
// 16 random bytes, made when the archive was created or migrated). It
// must never be shown: with it, anyone could test guessed addresses
// against the pseudonyms on the pages.
func (s *Store) PseudonymKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := s.read(ctx, "pseudonym key", func(tx *txn) error {
		return tx.QueryRowContext(ctx, `SELECT key FROM site_keys WHERE name = 'pseudonym'`).Scan(&key)
	})
	return key, err
}

// ChangeStamp returns a short text that changes whenever what the web
// pages show changes: a game written (its version, its last change),
// a tournament written, an entry made or withdrawn, a rating stored, a
// public name chosen. Equal stamps mean the pages need not be read
// again; it is a few aggregate queries, cheap next to reading the club.
func (s *Store) ChangeStamp(ctx context.Context) (string, error) {
	var stamp string
	err := s.read(ctx, "change stamp", func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT
	(SELECT COUNT(*) || ':' || COALESCE(SUM(version), 0) || ':' || COALESCE(MAX(updated_at), '') FROM games) || '/' ||
	(SELECT COUNT(*) || ':' || COALESCE(SUM(version), 0) FROM tournaments) || '/' ||
	(SELECT COUNT(*) || ':' || COALESCE(MAX(joined_at), '') || ':' || COALESCE(MAX(withdrawn_at), '') || ':' || COALESCE(SUM(annulled), 0) FROM entries) || '/' ||
	(SELECT COUNT(*) || ':' || COALESCE(SUM(games), 0) || ':' || COALESCE(MAX(last_end), '') FROM ratings)`).Scan(&stamp)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT address, public_name FROM players WHERE public_name <> '' ORDER BY address`)
		if err != nil {
			return err
		}
		defer rows.Close()
		h := fnv.New64a()
		for rows.Next() {
			var a, n string
			if err := rows.Scan(&a, &n); err != nil {
				return err
			}
			h.Write([]byte(a + "\x00" + n + "\x00"))
		}
		stamp += fmt.Sprintf("/%x", h.Sum64())
		return rows.Err()
	})
	return stamp, err
}
