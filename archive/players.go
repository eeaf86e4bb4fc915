package archive

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// What correspondence players expect (issue 12): spectators, conditional
// moves, takebacks. The referee owns their meaning; the archive keeps them
// with the game they belong to (migrations/004_players.sql).

// Conditions are one player's conditional moves in one game: lines of
// plies, each starting with a ply of the opponent, then the player's
// answer, then the opponent's next ply and so on ("if h6-h9 then h3-h4 if
// c5-c6 then d4-d5" is the line h6-h9 h3-h4 c5-c6 d4-d5). The zero value
// (no lines) is "none"; it is stored as "".
type Conditions struct {
	// AtPly is the number of plies the game had when the lines were set
	// or last advanced: the opponent was to play ply AtPly+1, which every
	// line starts with.
	AtPly int `json:"at_ply"`
	// Lines are the lines, each of at least two plies as OTN move text
	// ("h6-h9"), in the order they were received.
	Lines [][]string `json:"lines"`
}

// Empty reports whether c holds no line.
func (c Conditions) Empty() bool { return len(c.Lines) == 0 }

// conditionsText is how c is stored: "" when empty, else JSON.
func conditionsText(c Conditions) (string, error) {
	if c.Empty() {
		return "", nil
	}
	b, err := json.Marshal(c)
	return string(b), err
}

// parseConditions reads a stored conditions column.
func parseConditions(s string) (Conditions, error) {
	var c Conditions
	if s == "" {
		return c, nil
	}
	err := json.Unmarshal([]byte(s), &c)
	return c, err
}

// validate checks the shape the referee relies on: every line has at
// least two plies and no empty one.
func (c Conditions) validate(game, side string) error {
	if c.AtPly < 0 {
		return invalid("game %q: %s conditions at ply %d", game, side, c.AtPly)
	}
	for i, l := range c.Lines {
		if len(l) < 2 {
			return invalid("game %q: %s condition %d has %d plies, want at least 2", game, side, i+1, len(l))
		}
		for _, p := range l {
			if p == "" {
				return invalid("game %q: %s condition %d has an empty ply", game, side, i+1)
			}
		}
	}
	return nil
}

// TakenBack is a ply undone by agreement of both players (a takeback,
// issue 12). It is no longer one of the game's plies; the record names it
// in a comment after the ply before it (Game.Replay).
type TakenBack struct {
	// Ply is the ply as it was played: N its number then (the game has N-1
	// plies after the takeback), Move, At and MessageID as stored.
	Ply
	// UndoneAt is when the takeback was agreed; Commit fills a zero value
	// with the store's clock.
	UndoneAt time.Time
	// UndoneBy is the Message-ID of the mail that agreed to it; "" if none.
	UndoneBy string
}

// Spectator is an address that follows a game it does not play in
// (issue 12, "watch"). Spectators never get a player's key.
type Spectator struct {
	GameID string // the game watched; "" for a tournament's spectator
	// TournamentID, instead of GameID, makes the address a spectator of
	// every game of that tournament, present and future ("watch ID").
	TournamentID string
	Address      string // the spectator (stored lower case)
	// ResultsOnly says the spectator wants only the result ("watch GAME
	// results"), not every move.
	ResultsOnly bool
	// Thread is the Message-ID of the spectator's own mail that made it
	// one (the confirmation of "watch"), for In-Reply-To of the
	// spectator's mails; "" if it had none that can be written.
	Thread string
	// CreatedAt is when the spectator started watching; Commit fills a
	// zero value with the store's clock.
	CreatedAt time.Time
}

// sqlSpectators reads the spectators of one game.
const sqlSpectators = `SELECT game_id, '', address, results_only, thread, created_at
FROM spectators WHERE game_id = ? ORDER BY created_at, address`

// Spectators returns the spectators of a game, in the order they came.
// No spectators is not an error, nor is an unknown game.
func (s *Store) Spectators(ctx context.Context, gameID string) ([]Spectator, error) {
	return s.querySpectators(ctx, "spectators", sqlSpectators, gameID)
}

// Watching returns the running (invited or active) games address watches,
// as spectator rows, oldest first.
func (s *Store) Watching(ctx context.Context, address string) ([]Spectator, error) {
	return s.querySpectators(ctx, "watching", `SELECT s.game_id, '', s.address, s.results_only, s.thread, s.created_at
FROM spectators AS s JOIN games AS g ON g.id = s.game_id
WHERE s.address = ? AND g.status IN ('invited', 'active') ORDER BY s.created_at, s.game_id`, lower(address))
}

// TournamentSpectators returns the spectators of every game of a
// tournament ("watch ID"), in the order they came. None is not an
// error, nor is an unknown tournament.
func (s *Store) TournamentSpectators(ctx context.Context, tournamentID string) ([]Spectator, error) {
	return s.querySpectators(ctx, "tournament spectators", `SELECT '', tournament_id, address, results_only, thread, created_at
FROM tournament_spectators WHERE tournament_id = ? ORDER BY created_at, address`, tournamentID)
}

// WatchingTournaments returns the tournaments address follows that have
// not finished (created or running), as spectator rows, oldest first.
func (s *Store) WatchingTournaments(ctx context.Context, address string) ([]Spectator, error) {
	return s.querySpectators(ctx, "watching tournaments", `SELECT '', s.tournament_id, s.address, s.results_only, s.thread, s.created_at
FROM tournament_spectators AS s JOIN tournaments AS t ON t.id = s.tournament_id
WHERE s.address = ? AND t.status IN ('created', 'running') ORDER BY s.created_at, s.tournament_id`, lower(address))
}

// querySpectators runs a spectators query.
func (s *Store) querySpectators(ctx context.Context, op, query string, args ...any) ([]Spectator, error) {
	return queryAll(ctx, s, op, scanSpectator, query, args...)
}

// scanSpectator reads a spectators row: game_id, tournament_id (” in
// the spectators table), address, results_only, thread, created_at.
func scanSpectator(row scanner) (Spectator, error) {
	var sp Spectator
	err := row.Scan(&sp.GameID, &sp.TournamentID, &sp.Address, &sp.ResultsOnly, &sp.Thread, scanTime(&sp.CreatedAt))
	return sp, err
}

// writeSpectators applies a [Watching] write; a Spectator
// with a TournamentID is a tournament's.
func writeSpectators(ctx context.Context, tx *txn, watch, unwatch []Spectator, now time.Time) error {
	for _, sp := range unwatch {
		if sp.TournamentID != "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM tournament_spectators WHERE tournament_id = ? AND address = ?`,
				sp.TournamentID, lower(sp.Address)); err != nil {
				return fmt.Errorf("spectator %q of tournament %q: %w", sp.Address, sp.TournamentID, err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM spectators WHERE game_id = ? AND address = ?`,
			sp.GameID, lower(sp.Address)); err != nil {
			return fmt.Errorf("spectator %q of game %q: %w", sp.Address, sp.GameID, err)
		}
	}
	for _, sp := range watch {
		if sp.TournamentID != "" {
			_, err := tx.ExecContext(ctx, `INSERT INTO tournament_spectators (tournament_id, address, results_only, thread, created_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (tournament_id, address) DO UPDATE SET results_only = excluded.results_only, thread = excluded.thread`,
				sp.TournamentID, lower(sp.Address), sp.ResultsOnly, sp.Thread, fmtTime(orNow(sp.CreatedAt, now)))
			if isForeignKeyViolation(err) {
				return fmt.Errorf("spectator %q of tournament %q: %w", sp.Address, sp.TournamentID, ErrNotFound)
			}
			if err != nil {
				return fmt.Errorf("spectator %q of tournament %q: %w", sp.Address, sp.TournamentID, err)
			}
			continue
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO spectators (game_id, address, results_only, thread, created_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (game_id, address) DO UPDATE SET results_only = excluded.results_only, thread = excluded.thread`,
			sp.GameID, lower(sp.Address), sp.ResultsOnly, sp.Thread, fmtTime(orNow(sp.CreatedAt, now)))
		if isForeignKeyViolation(err) {
			return fmt.Errorf("spectator %q of game %q: %w", sp.Address, sp.GameID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("spectator %q of game %q: %w", sp.Address, sp.GameID, err)
		}
	}
	return nil
}

// takeBack moves the last ply of game id, which must be tb's, from plies
// to taken_back and returns the game's ply count after it. bump says
// whether the takeback alone bumps the game's version.
func takeBack(ctx context.Context, tx *txn, id string, tb TakenBack, bump bool, now time.Time) (int, error) {
	var count int
	err := tx.QueryRowContext(ctx, sqlPlyCount, id).Scan(&count)
	switch {
	case isNoRows(err):
		return 0, fmt.Errorf("takeback in game %q: %w", id, ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("takeback in game %q: %w", id, err)
	}
	if tb.N != count || count == 0 {
		return 0, fmt.Errorf("takeback in game %q: ply %d is not the last of %d: %w", id, tb.N, count, ErrConflict)
	}
	var p Ply
	err = tx.QueryRowContext(ctx, `DELETE FROM plies WHERE game_id = ? AND n = ? RETURNING n, move, at, message_id`,
		id, tb.N).Scan(&p.N, &p.Move, scanTime(&p.At), &p.MessageID)
	if err != nil {
		return 0, fmt.Errorf("takeback in game %q: %w", id, err)
	}
	if p.Move != tb.Move {
		return 0, fmt.Errorf("takeback in game %q: ply %d is %s, not %s: %w", id, tb.N, p.Move, tb.Move, ErrConflict)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO taken_back (game_id, n, move, at, message_id, undone_at, undone_by) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, p.N, p.Move, fmtTime(p.At), p.MessageID, fmtTime(orNow(tb.UndoneAt, now)), tb.UndoneBy)
	if err != nil {
		return 0, fmt.Errorf("takeback in game %q: %w", id, err)
	}
	bumpBy := 0
	if bump {
		bumpBy = 1
	}
	err = tx.QueryRowContext(ctx, `UPDATE games SET ply_count = ply_count - 1, version = version + ?, updated_at = ? WHERE id = ?
RETURNING ply_count`, bumpBy, fmtTime(now), id).Scan(&count)
	if err != nil {
		return 0, fmt.Errorf("takeback in game %q: %w", id, err)
	}
	return count, nil
}

// sqlTakenBack reads the plies taken back in the games of a JSON list of ids.
const sqlTakenBack = `SELECT game_id, n, move, at, message_id, undone_at, undone_by FROM taken_back
WHERE game_id IN (SELECT value FROM json_each(?))
ORDER BY game_id, id`

// loadTakenBack fills the TakenBack of games (by id) with one query.
func loadTakenBack(ctx context.Context, tx *txn, byID map[string]*Game, list string) error {
	rows, err := tx.QueryContext(ctx, sqlTakenBack, list)
	if err != nil {
		return err
	}
	defer rows.Close()
	var id string
	for rows.Next() {
		var tb TakenBack
		if err := rows.Scan(&id, &tb.N, &tb.Move, scanTime(&tb.At), &tb.MessageID, scanTime(&tb.UndoneAt), &tb.UndoneBy); err != nil {
			return err
		}
		g := byID[id]
		g.TakenBack = append(g.TakenBack, tb)
	}
	return rows.Err()
}
