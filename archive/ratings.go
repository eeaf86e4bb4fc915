package archive

import (
	"context"
	"fmt"
	"time"
)

// RatingValue is a Glicko-2 rating on the Glicko scale (CORRESPONDENCE.md
// §7.1): R (1500 for a new player), the rating deviation RD in the same
// points (350 new) and the volatility (0.06 new).
type RatingValue struct {
	R, RD, Volatility float64
}

// Rating is a player's rating in one variant (Decision R1) after their
// last rated game. The RD has not grown for the idle time since LastEnd;
// whoever shows the rating applies that (tournament.Ratings.Current).
type Rating struct {
	Player, Variant string
	Value           RatingValue
	// Games is the number of rated games, LastEnd when the last one
	// ended.
	Games   int
	LastEnd time.Time
}

// RatingRecord is one rated game in a player's history: the N-th
// (1-based) rated game of the player in the variant.
type RatingRecord struct {
	Player, Variant string
	N               int
	GameID          string
	// End is when the game ended (the order of rating, Decision R1).
	End      time.Time
	Opponent string
	// Side is "attackers" or "defenders", the player's.
	Side string
	// Score is the player's: 1, 0.5 or 0.
	Score float64
	// IdlePeriods is how many RD growth steps came before the game.
	IdlePeriods int
	// Before is the rating the game was rated from (after the idle
	// growth), After the rating it gave.
	Before, After RatingValue
}

// RatedGame is a game as the ratings know it: rated in the order of Seq
// (assigned by Commit), which is the order the games ended except for a
// game that ended before one already rated (then the variant is rated
// again, games that ended at the same instant in Seq order).
type RatedGame struct {
	Seq                  int64
	GameID, Variant      string
	Attackers, Defenders string
	// Result is "attackers", "defenders" or "draw".
	Result string
	End    time.Time
}

// RatingUpdate is what rating games of one variant changes.
type RatingUpdate struct {
	Variant string
	// Games are the games rated now, in the order rated; Commit assigns
	// their Seq. Each game must exist or be in the change.
	Games []RatedGame
	// Replace: the variant was rated again from the start, and Ratings and
	// History replace every rating and history row of the variant.
	// Otherwise Ratings replace the named players' ratings and History
	// rows are added.
	Replace bool
	Ratings []Rating
	History []RatingRecord
}

func (u *RatingUpdate) validate() error {
	if u.Variant == "" {
		return invalid("rating update without variant")
	}
	for _, g := range u.Games {
		switch {
		case g.GameID == "" || g.Variant != u.Variant:
			return invalid("rated game %q of variant %q in the update of %q", g.GameID, g.Variant, u.Variant)
		case g.Result != "attackers" && g.Result != "defenders" && g.Result != "draw":
			return invalid("rated game %q: result %q", g.GameID, g.Result)
		case g.End.IsZero() || lower(g.Attackers) == "" || lower(g.Defenders) == "":
			return invalid("rated game %q: no end or player", g.GameID)
		}
	}
	for _, r := range u.Ratings {
		if r.Variant != u.Variant || lower(r.Player) == "" || r.Games < 1 {
			return invalid("rating of %q in %q in the update of %q", r.Player, r.Variant, u.Variant)
		}
	}
	for _, h := range u.History {
		if h.Variant != u.Variant || lower(h.Player) == "" || h.N < 1 || h.Side != "attackers" && h.Side != "defenders" {
			return invalid("rating history row %d of %q in %q", h.N, h.Player, h.Variant)
		}
	}
	return nil
}

// write applies one rating update.
func (u *RatingUpdate) write(ctx context.Context, tx *txn) error {
	for _, g := range u.Games {
		_, err := tx.ExecContext(ctx, `INSERT INTO rated_games (game_id, variant, attackers, defenders, result, ended_at)
VALUES (?, ?, ?, ?, ?, ?)`, g.GameID, g.Variant, lower(g.Attackers), lower(g.Defenders), g.Result, fmtTime(g.End))
		if isUniqueViolation(err) {
			return fmt.Errorf("rated game %q: rated before: %w", g.GameID, ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("rated game %q: %w", g.GameID, err)
		}
	}
	if u.Replace {
		for _, table := range []string{"ratings", "rating_history"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE variant = ?`, u.Variant); err != nil {
				return fmt.Errorf("ratings of %q: %w", u.Variant, err)
			}
		}
	}
	if len(u.Ratings) > 0 {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO ratings (player, variant, rating, rd, volatility, games, last_end)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (player, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,
	games = excluded.games, last_end = excluded.last_end`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, r := range u.Ratings {
			v := r.Value
			if _, err := stmt.ExecContext(ctx, lower(r.Player), r.Variant, v.R, v.RD, v.Volatility, r.Games, fmtTime(r.LastEnd)); err != nil {
				return fmt.Errorf("rating of %q in %q: %w", r.Player, r.Variant, err)
			}
		}
	}
	if len(u.History) > 0 {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO rating_history (player, variant, n, game_id, ended_at, opponent, side,
	score, idle_periods, rating_before, rd_before, volatility_before, rating, rd, volatility)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, h := range u.History {
			b, a := h.Before, h.After
			_, err := stmt.ExecContext(ctx, lower(h.Player), h.Variant, h.N, h.GameID, fmtTime(h.End), lower(h.Opponent), h.Side,
				h.Score, h.IdlePeriods, b.R, b.RD, b.Volatility, a.R, a.RD, a.Volatility)
			if isUniqueViolation(err) {
				err = ErrConflict
			}
			if err != nil {
				return fmt.Errorf("rating history %d of %q in %q: %w", h.N, h.Player, h.Variant, err)
			}
		}
	}
	return nil
}

// ratingColumns are the ratings columns in the order scanRating reads
// them.
const ratingColumns = `player, variant, rating, rd, volatility, games, last_end`

func scanRating(row scanner) (Rating, error) {
	var r Rating
	err := row.Scan(&r.Player, &r.Variant, &r.Value.R, &r.Value.RD, &r.Value.Volatility, &r.Games, scanTime(&r.LastEnd))
	return r, err
}

// Rating returns a player's rating (any case) in a variant; [ErrNotFound]
// when the player has no rated game in it.
func (s *Store) Rating(ctx context.Context, player, variant string) (Rating, error) {
	const op = "rating"
	var r Rating
	err := s.read(ctx, op, func(tx *txn) error {
		var err error
		r, err = scanRating(tx.QueryRowContext(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE player = ? AND variant = ?`,
			lower(player), variant))
		if isNoRows(err) {
			return notFound(op, fmt.Sprintf("rating of %q in %q", lower(player), variant))
		}
		return err
	})
	return r, err
}

// RatingsOf returns a player's ratings (any case) in every variant they
// have one in, by variant; none is not an error.
func (s *Store) RatingsOf(ctx context.Context, player string) ([]Rating, error) {
	return s.queryRatings(ctx, "ratings of", `SELECT `+ratingColumns+` FROM ratings WHERE player = ? ORDER BY variant`, lower(player))
}

// Ratings returns every rating in a variant, highest first, then by
// player; none is not an error.
func (s *Store) Ratings(ctx context.Context, variant string) ([]Rating, error) {
	return s.queryRatings(ctx, "ratings", `SELECT `+ratingColumns+` FROM ratings WHERE variant = ? ORDER BY rating DESC, player`, variant)
}

func (s *Store) queryRatings(ctx context.Context, op, query string, args ...any) ([]Rating, error) {
	return queryAll(ctx, s, op, scanRating, query, args...)
}

// RatingHistory returns a player's rated games (any case) in a variant,
// oldest first; none is not an error.
func (s *Store) RatingHistory(ctx context.Context, player, variant string) ([]RatingRecord, error) {
	return queryAll(ctx, s, "rating history", func(row scanner) (RatingRecord, error) {
		var h RatingRecord
		b, a := &h.Before, &h.After
		err := row.Scan(&h.Player, &h.Variant, &h.N, &h.GameID, scanTime(&h.End), &h.Opponent, &h.Side, &h.Score,
			&h.IdlePeriods, &b.R, &b.RD, &b.Volatility, &a.R, &a.RD, &a.Volatility)
		return h, err
	}, `SELECT player, variant, n, game_id, ended_at, opponent, side, score, idle_periods,
	rating_before, rd_before, volatility_before, rating, rd, volatility
FROM rating_history WHERE player = ? AND variant = ? ORDER BY n`, lower(player), variant)
}

// RatedGames returns the rated games of a variant in the order they were
// rated (Seq), for rating the variant again; none is not an error.
func (s *Store) RatedGames(ctx context.Context, variant string) ([]RatedGame, error) {
	return queryAll(ctx, s, "rated games", func(row scanner) (RatedGame, error) {
		var g RatedGame
		err := row.Scan(&g.Seq, &g.GameID, &g.Variant, &g.Attackers, &g.Defenders, &g.Result, scanTime(&g.End))
		return g, err
	}, `SELECT seq, game_id, variant, attackers, defenders, result, ended_at
FROM rated_games WHERE variant = ? ORDER BY seq`, variant)
}
