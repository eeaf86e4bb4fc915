package archive

import (
	"context"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// dayLayout is how leave days are stored: ISO 8601 dates, which sort as
// text.
const dayLayout = "2006-01-02"

// replaceLeave writes the whole leave of one player.
func replaceLeave(ctx context.Context, tx *txn, addr string, ls []notation.Leave) error {
	addr = lower(addr)
	if _, err := tx.ExecContext(ctx, `DELETE FROM leave WHERE address = ?`, addr); err != nil {
		return fmt.Errorf("leave of %q: %w", addr, err)
	}
	for _, l := range ls {
		_, err := tx.ExecContext(ctx, `INSERT INTO leave (address, first_day, last_day) VALUES (?, ?, ?)`,
			addr, l.First.UTC().Format(dayLayout), l.Last.UTC().Format(dayLayout))
		if err != nil {
			return fmt.Errorf("leave of %q: %s: %w", addr, l, err)
		}
	}
	return nil
}

// fireTimer marks a pending timer done at now: ErrDuplicate when it is
// done already, ErrConflict when there is no such timer.
func fireTimer(ctx context.Context, tx *txn, f TimerRef, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE timers SET done = ? WHERE game_id = ? AND key = ? AND done IS NULL`,
		fmtTime(now), f.GameID, f.Key)
	if err != nil {
		return fmt.Errorf("timer %q of game %q: %w", f.Key, f.GameID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var done bool
	err = tx.QueryRowContext(ctx, `SELECT done IS NOT NULL FROM timers WHERE game_id = ? AND key = ?`, f.GameID, f.Key).Scan(&done)
	switch {
	case isNoRows(err):
		return fmt.Errorf("timer %q of game %q: not pending: %w", f.Key, f.GameID, ErrConflict)
	case err != nil:
		return fmt.Errorf("timer %q of game %q: %w", f.Key, f.GameID, err)
	}
	return fmt.Errorf("timer %q of game %q: fired before: %w", f.Key, f.GameID, ErrDuplicate)
}

// sqlDeleteTimers deletes all of a game's timers.
const sqlDeleteTimers = `DELETE FROM timers WHERE game_id = ?`

// sqlDeleteTimersBefore deletes a game's pending timers and the done marks of earlier plies.
const sqlDeleteTimersBefore = `DELETE FROM timers WHERE game_id = ? AND (done IS NULL OR ply < ?)`

// sqlInsertTimer adds one timer unless it is there.
const sqlInsertTimer = `INSERT INTO timers (game_id, key, kind, ply, due) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (game_id, key) DO NOTHING`

// replaceTimers writes game id's timer plan: the pending timers and the
// done marks of earlier plies go, the plan's timers come in unless they
// are done already.
func replaceTimers(ctx context.Context, st *stmts, id string, p TimerPlan) error {
	var err error
	if p.Ply == 0 {
		_, err = st.exec(ctx, sqlDeleteTimers, id)
	} else {
		_, err = st.exec(ctx, sqlDeleteTimersBefore, id, p.Ply)
	}
	if err != nil {
		return fmt.Errorf("timers of game %q: %w", id, err)
	}
	if len(p.Timers) == 0 {
		return nil
	}
	for _, t := range p.Timers {
		if _, err := st.exec(ctx, sqlInsertTimer, id, t.Key, string(t.Kind), t.Ply, fmtTime(t.Due)); err != nil {
			return fmt.Errorf("timer %q of game %q: %w", t.Key, id, err)
		}
	}
	return nil
}

// timerColumns are the timers columns in the order scanTimer reads them.
const timerColumns = `game_id, key, kind, ply, due, done`

// scanTimer reads one row of timerColumns.
func scanTimer(row scanner) (Timer, error) {
	var t Timer
	err := row.Scan(&t.GameID, &t.Key, &t.Kind, &t.Ply, scanTime(&t.Due), scanTime(&t.Done))
	return t, err
}

// DueTimers returns at most limit pending timers due at or before now,
// earliest first (then by game and key). It reads the pending timers'
// index by due time, so it costs O(due timers), whatever the number of
// games and timers (docs/performance.md). limit ≤ 0 means no limit.
func (s *Store) DueTimers(ctx context.Context, now time.Time, limit int) ([]Timer, error) {
	if limit <= 0 {
		limit = -1
	}
	return s.queryTimers(ctx, "due timers", `SELECT `+timerColumns+` FROM timers INDEXED BY timers_due
WHERE done IS NULL AND due <= ? ORDER BY due, game_id, key LIMIT ?`, fmtTime(now), limit)
}

// NextTimer returns when the earliest pending timer is due — a game's
// timer or a player's daily digest (digest.go) — and false when none is
// pending. It costs one step into each of the two pending indexes.
func (s *Store) NextTimer(ctx context.Context) (time.Time, bool, error) {
	var due time.Time
	var found bool
	err := s.read(ctx, "next timer", func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT due FROM timers INDEXED BY timers_due WHERE done IS NULL ORDER BY due LIMIT 1`).Scan(scanTime(&due))
		switch {
		case isNoRows(err):
		case err != nil:
			return err
		default:
			found = true
		}
		d, ok, err := nextDigest(ctx, tx)
		if ok && (!found || d.Before(due)) {
			due, found = d, true
		}
		return err
	})
	return due, found, err
}

// GameTimers returns every timer of one game, pending and done, in due
// order; none is not an error.
func (s *Store) GameTimers(ctx context.Context, gameID string) ([]Timer, error) {
	return s.queryTimers(ctx, "game timers", `SELECT `+timerColumns+` FROM timers WHERE game_id = ? ORDER BY due, key`, gameID)
}

// Deadlines returns the due time of every pending deadline timer, by
// game id: when the side to move of each running timed game loses on time
// unless it moves, and when an invited game's invitation expires (for
// `taflmail games`).
func (s *Store) Deadlines(ctx context.Context) (map[string]time.Time, error) {
	ts, err := s.queryTimers(ctx, "deadlines", `SELECT `+timerColumns+` FROM timers WHERE done IS NULL AND kind = 'deadline'`)
	if err != nil {
		return nil, err
	}
	out := make(map[string]time.Time, len(ts))
	for _, t := range ts {
		out[t.GameID] = t.Due
	}
	return out, nil
}

// queryTimers runs a timers query.
func (s *Store) queryTimers(ctx context.Context, op, query string, args ...any) ([]Timer, error) {
	return queryAll(ctx, s, op, scanTimer, query, args...)
}

// Leave returns the leave of the player at address (any case), earliest
// first; none is not an error.
func (s *Store) Leave(ctx context.Context, address string) ([]notation.Leave, error) {
	var out []notation.Leave
	err := s.read(ctx, "leave", func(tx *txn) error {
		var err error
		out, err = readLeave(ctx, tx, address)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sqlLeave reads one player's leave.
const sqlLeave = `SELECT first_day, last_day FROM leave WHERE address = ? ORDER BY first_day`

// readLeave reads one player's leave inside tx.
func readLeave(ctx context.Context, tx *txn, address string) ([]notation.Leave, error) {
	rows, err := tx.QueryContext(ctx, sqlLeave, lower(address))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []notation.Leave
	for rows.Next() {
		var first, last string
		if err := rows.Scan(&first, &last); err != nil {
			return nil, err
		}
		f, err1 := time.Parse(dayLayout, first)
		l, err2 := time.Parse(dayLayout, last)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("leave of %q: %q/%q is not a pair of dates", address, first, last)
		}
		out = append(out, notation.Leave{First: f, Last: l})
	}
	return out, rows.Err()
}
