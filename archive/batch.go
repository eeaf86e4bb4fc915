package archive

import (
	"context"
	"fmt"
	"time"
)

// batchCacheKiB is the page cache of a batch's connection while it runs,
// in KiB (SQLite's default is 2,000).
const batchCacheKiB = 64 << 10

// Batch is one write transaction through which a change too large to
// hold in memory at once is written in parts ([Store.WriteBatch]): a
// tournament's start, which creates up to a million games with their
// keys, timers and pairings and a start list for every player
// (server.StartTournament, docs/performance.md). What its parts write is
// visible to its later calls and committed together, or not at all. A
// Batch is valid only inside the function given to WriteBatch and is not
// safe for concurrent use.
type Batch struct {
	ctx context.Context
	tx  *txn
	st  *stmts
	now time.Time
}

// WriteBatch runs fn with a [Batch] in one write transaction and commits
// it if fn returns nil; an error of fn, or of any part fn wrote, rolls
// everything back. While fn runs it holds the archive's write lock: other
// writers wait, readers of other connections see the state before it.
// fn must read the archive only through the Batch: a ":memory:" store
// has one connection, which the transaction holds.
//
// Errors: those of fn, of [Batch.Write] (Commit's), and [ErrUnavailable]
// when the database is locked, full or read-only.
func (s *Store) WriteBatch(ctx context.Context, fn func(b *Batch) error) error {
	const op = "batch"
	b := &Batch{ctx: ctx, now: s.now().UTC()}
	err := s.write(ctx, op, func(tx *txn) error {
		b.tx, b.st = tx, newStmts(tx)
		defer b.st.Close()
		// A larger page cache while the batch runs: the pages a batch
		// changes stay in memory longer before they spill to the WAL,
		// which a start of 999,000 games otherwise writes many times
		// over (docs/performance.md). The default is restored after.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", batchCacheKiB)); err != nil {
			return err
		}
		defer tx.ExecContext(ctx, "PRAGMA cache_size = -2000")
		return fn(b)
	})
	return err
}

// Write writes c as part of the batch, checked and written as
// [Store.Commit] does (the same errors), but committed only with the
// whole batch. A part may name what earlier parts wrote (a game's
// pairing). c's games and tournaments get what Commit sets (Version,
// PlyCount, the times, lower-case addresses) at once, as they will be
// once the batch is committed; the batch keeps nothing of c, so its
// memory is the caller's to drop.
func (b *Batch) Write(c Change) error {
	ws, err := c.validate()
	if err != nil {
		return &Error{Op: "batch write", Err: err}
	}
	w, err := c.write(b.ctx, b.tx, b.st, ws, b.now)
	if err != nil {
		return fail("batch write", err)
	}
	c.settle(w, b.now)
	return nil
}

// GameIDTaken reports whether a game with this id is stored, those the
// batch wrote included: a new game's id is drawn until it is not
// (server: game ids unique by construction).
func (b *Batch) GameIDTaken(id string) (bool, error) {
	var taken bool
	st, err := b.st.prepare(b.ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = ?)`)
	if err == nil {
		err = st.QueryRowContext(b.ctx, id).Scan(&taken)
	}
	return taken, fail("game id taken", err)
}

// TournamentGamesOf calls fn with each game of the tournament in which
// player plays either side, as written so far (the batch's own games
// included), in schedule order (section, round, board, match game): what
// a start list says of a game, and only that, is read: ID, Variant,
// Attackers, Defenders, the two tokens, Rated, TournamentID and
// Event.Pairing; the other fields are zero. fn's error ends the walk and
// is returned. The games are read through the players' indexes, one
// player's at a time.
func (b *Batch) TournamentGamesOf(tournamentID, player string, fn func(g *Game) error) error {
	const op = "tournament games of"
	const cols = `g.id, g.variant, g.attackers, g.defenders, g.attacker_token, g.defender_token, g.rated,
	p.section, p.round, p.board, p.match_game FROM games g JOIN pairings p ON p.game_id = g.id`
	st, err := b.st.prepare(b.ctx, `SELECT `+cols+` WHERE g.attackers = ?1 AND +g.tournament_id = ?2
UNION ALL SELECT `+cols+` WHERE g.defenders = ?1 AND +g.tournament_id = ?2
ORDER BY 8, 9, 10, 11`)
	if err != nil {
		return fail(op, err)
	}
	rows, err := st.QueryContext(b.ctx, lower(player), tournamentID)
	if err != nil {
		return fail(op, err)
	}
	defer rows.Close()
	for rows.Next() {
		g := &Game{TournamentID: tournamentID, Event: &GameEvent{Pairing: Pairing{TournamentID: tournamentID}}}
		p := &g.Event.Pairing
		if err := rows.Scan(&g.ID, &g.Variant, &g.Attackers, &g.Defenders, &g.AttackerToken, &g.DefenderToken, &g.Rated,
			&p.Section, &p.Round, &p.Board, &p.MatchGame); err != nil {
			return fail(op, err)
		}
		p.GameID = g.ID
		if err := fn(g); err != nil {
			return err
		}
	}
	return fail(op, rows.Err())
}
