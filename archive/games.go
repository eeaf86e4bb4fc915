package archive

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"time"
)

// gameColumns are the games columns in the order scanGame reads them.
const gameColumns = `id, variant, attackers, defenders, challenger, status, result, reason, draw_offer_by,
	attacker_token, defender_token, attackers_thread, defenders_thread, start_position, time_control,
	COALESCE(tournament_id, ''), ply_count, version, created_at, updated_at, started_at, ended_at,
	attackers_private, defenders_private, message_to_attackers, message_to_defenders,
	attackers_conditions, defenders_conditions, takeback_by, engine_level, rated`

// scanGame reads one row of gameColumns.
func scanGame(row scanner) (*Game, error) {
	g := &Game{}
	var ac, dc string
	err := row.Scan(&g.ID, &g.Variant, &g.Attackers, &g.Defenders, &g.Challenger, &g.Status, &g.Result, &g.Reason, &g.DrawOfferBy,
		&g.AttackerToken, &g.DefenderToken, &g.AttackersThread, &g.DefendersThread, &g.StartPosition, &g.TimeControl,
		&g.TournamentID, &g.PlyCount, &g.Version, scanTime(&g.CreatedAt), scanTime(&g.UpdatedAt),
		scanTime(&g.StartedAt), scanTime(&g.EndedAt),
		&g.AttackersPrivate, &g.DefendersPrivate, &g.MessageToAttackers, &g.MessageToDefenders, &ac, &dc, &g.TakebackBy, &g.EngineLevel, &g.Rated)
	if err != nil {
		return nil, err
	}
	if g.AttackersConditions, err = parseConditions(ac); err != nil {
		return nil, fmt.Errorf("game %q: attackers' conditions: %w", g.ID, err)
	}
	if g.DefendersConditions, err = parseConditions(dc); err != nil {
		return nil, fmt.Errorf("game %q: defenders' conditions: %w", g.ID, err)
	}
	return g, nil
}

// sqlProcessed reads whether a mail of this Message-ID was committed.
const sqlProcessed = `SELECT EXISTS (SELECT 1 FROM processed_mails WHERE message_id = ?)`

// sqlProcessedOrHash reads whether a mail of this Message-ID or content hash was committed.
const sqlProcessedOrHash = `SELECT EXISTS (SELECT 1 FROM processed_mails WHERE message_id = ? OR content_hash = ?)`

// Processed reports whether a mail with this Message-ID, or with this
// content hash if it is not empty, was committed before. It only reads:
// [Store.Commit] is what reliably refuses a duplicate.
func (s *Store) Processed(ctx context.Context, messageID, contentHash string) (bool, error) {
	var found bool
	err := s.readOne(ctx, "processed", func(tx querier) error {
		if contentHash == "" {
			return tx.QueryRowContext(ctx, sqlProcessed,
				messageID).Scan(&found)
		}
		return tx.QueryRowContext(ctx, sqlProcessedOrHash,
			messageID, contentHash).Scan(&found)
	})
	return found, err
}

// sqlGame reads one game by id.
const sqlGame = `SELECT ` + gameColumns + ` FROM games WHERE id = ?`

// Game returns the game with this id, plies and both players' leave
// (Game.Leave) included; [ErrNotFound] if there is none.
func (s *Store) Game(ctx context.Context, id string) (*Game, error) {
	const op = "game"
	var g *Game
	err := s.read(ctx, op, func(tx *txn) error {
		var err error
		g, err = scanGame(tx.QueryRowContext(ctx, sqlGame, id))
		if isNoRows(err) {
			return notFound(op, fmt.Sprintf("game %q", id))
		}
		if err != nil {
			return err
		}
		for side, addr := range []string{g.Attackers, g.Defenders} {
			if g.Leave[side], err = readLeave(ctx, tx, addr); err != nil {
				return err
			}
		}
		if err := loadEvents(ctx, tx, []*Game{g}); err != nil {
			return err
		}
		return loadPlies(ctx, tx, []*Game{g})
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// GameIDTaken reports whether a game with this id is stored: a new
// game's id is drawn until it is not (server: game ids unique by
// construction). Commit still refuses a taken id with [ErrConflict], for
// a game another writer stored meanwhile.
func (s *Store) GameIDTaken(ctx context.Context, id string) (bool, error) {
	var taken bool
	err := s.read(ctx, "game id taken", func(tx *txn) error {
		return tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = ?)`, id).Scan(&taken)
	})
	return taken, err
}

// GamesOf returns the games in which address plays either side: active and
// invited games first, then finished and declined ones, each group most
// recently updated first. Plies are not loaded (PlyCount is set); read a
// game with [Store.Game] to get them. No games is not an error.
func (s *Store) GamesOf(ctx context.Context, address string) ([]*Game, error) {
	addr := lower(address)
	return s.queryGames(ctx, "games of", false, `SELECT `+gameColumns+` FROM games
WHERE attackers = ?1 OR defenders = ?1
ORDER BY CASE status WHEN 'active' THEN 0 WHEN 'invited' THEN 0 ELSE 1 END, updated_at DESC, id`, addr)
}

// Games returns the games that pass f, most recently updated first. Plies
// are loaded only with f.WithPlies.
func (s *Store) Games(ctx context.Context, f GameFilter) ([]*Game, error) {
	if f.Status != "" && !f.Status.Valid() {
		return nil, &Error{Op: "games", Err: invalid("status %q", f.Status)}
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	where, args := "", []any{limit, max(f.Offset, 0)}
	if f.Status != "" {
		where, args = "WHERE status = ?3", append(args, string(f.Status))
	}
	return s.queryGames(ctx, "games", f.WithPlies, `SELECT `+gameColumns+` FROM games `+where+`
ORDER BY updated_at DESC, id
LIMIT ?1 OFFSET ?2`, args...)
}

// queryGames runs a games query and, if withPlies, loads their plies, all
// in one snapshot.
func (s *Store) queryGames(ctx context.Context, op string, withPlies bool, query string, args ...any) ([]*Game, error) {
	var games []*Game
	err := s.read(ctx, op, func(tx *txn) error {
		var err error
		if games, err = scanAll(ctx, tx, scanGame, query, args...); err != nil {
			return err
		}
		if withPlies {
			return loadPlies(ctx, tx, games)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// sqlPlies reads the plies of the games in a JSON list of ids.
const sqlPlies = `SELECT game_id, n, move, at, avail, message_id FROM plies
WHERE game_id IN (SELECT value FROM json_each(?))
ORDER BY game_id, n`

// loadPlies fills the Plies of games with one query, and their
// TakenBack with another.
func loadPlies(ctx context.Context, tx *txn, games []*Game) error {
	if len(games) == 0 {
		return nil
	}
	byID := make(map[string]*Game, len(games))
	ids := make([]string, 0, len(games))
	for _, g := range games {
		byID[g.ID] = g
		ids = append(ids, g.ID)
		g.Plies = make([]Ply, 0, g.PlyCount)
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, sqlPlies, string(list))
	if err != nil {
		return err
	}
	defer rows.Close()
	var id string
	for rows.Next() {
		var p Ply
		if err := rows.Scan(&id, &p.N, &p.Move, scanTime(&p.At), scanTime(&p.Avail), &p.MessageID); err != nil {
			return err
		}
		g := byID[id]
		g.Plies = append(g.Plies, p)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	return loadTakenBack(ctx, tx, byID, string(list))
}

// sqlPlayer reads one player by lower-case address.
const sqlPlayer = `SELECT address, name, language, messages_off, digest_at, digest_zone, digest_due,
	blocked, proved_at, created_at
FROM players WHERE address = ?`

// Player returns the player with this address (any case); [ErrNotFound] if
// there is none.
func (s *Store) Player(ctx context.Context, address string) (*Player, error) {
	const op = "player"
	p := &Player{}
	err := s.readOne(ctx, op, func(tx querier) error {
		var at sql.NullInt64
		err := tx.QueryRowContext(ctx, sqlPlayer,
			lower(address)).Scan(&p.Address, &p.Name, &p.Language, &p.MessagesOff, &at, &p.DigestZone, scanTime(&p.DigestDue),
			&p.Blocked, scanTime(&p.ProvedAt), scanTime(&p.CreatedAt))
		if isNoRows(err) {
			return notFound(op, fmt.Sprintf("player %q", lower(address)))
		}
		p.Digest, p.DigestAt = at.Valid, int(at.Int64)
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// CountRecent returns how many mails from this sender (any case) with this
// disposition were processed at or after since; disposition "" counts every
// disposition. The referee uses it to cap error replies per sender and
// hour.
func (s *Store) CountRecent(ctx context.Context, from, disposition string, since time.Time) (int, error) {
	var n int
	err := s.read(ctx, "count recent", func(tx *txn) error {
		if disposition == "" {
			return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM processed_mails WHERE sender = ? AND at >= ?`,
				lower(from), fmtTime(since)).Scan(&n)
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM processed_mails WHERE sender = ? AND disposition = ? AND at >= ?`,
			lower(from), disposition, fmtTime(since)).Scan(&n)
	})
	return n, err
}

// EngineGames returns how many running games ([Active]) the engine
// opponent plays at each level: level (Game.EngineLevel, 1 to 5) → games.
// Games between people (level 0) are not counted; no running game
// against the engine is an empty map. The referee caps the engine's games
// by it (issue 18 §3, docs/engine.md). It reads the games_status index.
func (s *Store) EngineGames(ctx context.Context) (map[int]int, error) {
	levels := map[int]int{}
	err := s.read(ctx, "engine games", func(tx *txn) error {
		rows, err := tx.QueryContext(ctx, `SELECT engine_level, COUNT(*) FROM games
WHERE status = 'active' AND engine_level > 0 GROUP BY engine_level`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var level, n int
			if err := rows.Scan(&level, &n); err != nil {
				return err
			}
			levels[level] = n
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return levels, nil
}
