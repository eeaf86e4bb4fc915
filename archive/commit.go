package archive

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taflmail/taflmail/notation"
)

// Change is everything one incoming mail (or one timer event) changes,
// written by [Store.Commit] in one transaction: the core in its fields,
// each feature's part as a typed [Write] in Writes.
type Change struct {
	// Mail records the mail that caused the change. A zero MessageID means
	// the change has no mail (a timeout, an operator's command); then the
	// other fields of Mail must be zero too.
	Mail ProcessedMail

	// Games are inserted (Version 0) or updated (Version as read). Commit
	// sets each one's Version, PlyCount, CreatedAt and UpdatedAt, and lower-
	// cases its addresses, to what is stored, once the transaction is
	// committed; on error the games are left as they were.
	Games []*Game

	// NewPlies are appended to the games named by the keys, which must
	// exist or be in Games. Each list continues the stored plies: its first
	// N is the stored ply count + 1, and the numbers go up by one. A game
	// that gets plies but is not in Games still has its Version bumped.
	NewPlies map[string][]Ply

	// Players are inserted, or replace the stored name, language and
	// preferences, Blocked included (CreatedAt of a stored player is
	// kept, and so is a stored ProvedAt).
	Players []Player

	// Outbox mails are queued; their ID is assigned by the archive.
	Outbox []OutboxMail

	// Replace deletes the outbox mails with these ids, which this change's
	// mails take the place of ([OutboxMail.HeldFor]): each must be Pending
	// and claimed by nobody, or Commit fails with [ErrConflict] (a sender
	// holds it or it was sent meanwhile: decide again, and say less).
	Replace []int64

	// Mailbox, if not nil, records the IMAP position after this mail, so
	// the mail and the position are saved together.
	Mailbox *MailboxState

	// Writes are the features' writes ([Write]): at most one of each
	// kind, each checked and written at its kind's place in Commit,
	// whatever its place in the list.
	Writes []Write
}

// Commit writes c in one transaction: the processed mail, the games, the
// plies, the tournaments and ratings, the players, the digests sent, the
// leave, the fired timers, the timer plans, the outbox mails and the
// mailbox position. Either all of it is written or
// none.
//
// Errors: [ErrDuplicate] if the mail's Message-ID, or its non-empty content
// hash, is already recorded, or a fired timer is already done;
// [ErrConflict] if a game's Version is not the stored one, a new game's ID
// is taken, plies do not continue the stored ones, a fired timer does
// not exist, or a mail to replace is no longer Pending and unclaimed;
// [ErrNotFound] if an updated game or a game getting plies does not
// exist; [ErrInvalid] if c breaks a rule documented on its fields or on
// its writes' types, or has two writes of one kind or a nil one;
// [ErrUnavailable] if the database is locked, full or read-only.
//
// Timestamps: a zero Mail.At, Ply.At, Player.CreatedAt, Game.CreatedAt or
// OutboxMail.CreatedAt becomes the store's clock; a zero NextAttempt becomes
// CreatedAt; every game written gets UpdatedAt = the store's clock.
func (s *Store) Commit(ctx context.Context, c Change) error {
	const op = "commit"
	ws, err := c.validate()
	if err != nil {
		return &Error{Op: op, Err: err}
	}
	now := s.now().UTC()
	var w *written
	err = s.write(ctx, op, func(tx *txn) error {
		st := newStmts(tx)
		defer st.Close()
		var err error
		w, err = c.write(ctx, tx, st, ws, now)
		return err
	})
	if err != nil {
		return err
	}
	c.settle(w, now)
	return nil
}

// written is what a change's write gave its games, by id, and what its
// writes set once it is committed, for settle.
type written struct {
	games   map[string]*writtenGame
	settles []func()
}

type writtenGame struct {
	version   int64
	plyCount  int
	createdAt time.Time
}

// write writes c in tx, as Commit documents, and returns what settle
// needs once it is committed. It stops at the first error, of the
// database or one of Commit's, leaving tx to be rolled back.
func (c *Change) write(ctx context.Context, tx *txn, st *stmts, ws writeSet, now time.Time) (*written, error) {
	if err := c.writeMail(ctx, tx, now); err != nil {
		return nil, err
	}
	a := &applying{tx: tx, st: st, now: now}
	if err := c.writeGames(ctx, a); err != nil {
		return nil, err
	}
	if err := ws.apply(ctx, a, slotTakeBacks); err != nil {
		return nil, err
	}
	if err := c.writePlies(ctx, a); err != nil {
		return nil, err
	}
	if err := ws.apply(ctx, a, slotTournament); err != nil {
		return nil, err
	}
	if err := c.writePlayers(ctx, a, ws); err != nil {
		return nil, err
	}
	for _, k := range []slot{slotFired, slotTimerPlans, slotWatching} {
		if err := ws.apply(ctx, a, k); err != nil {
			return nil, err
		}
	}
	if err := c.writeOutbox(ctx, tx, now); err != nil {
		return nil, err
	}
	if mb := c.Mailbox; mb != nil {
		if err := setMailboxState(ctx, tx, *mb, now); err != nil {
			return nil, err
		}
	}
	return &written{games: a.games, settles: a.settles}, nil
}

// sqlInsertMail records a processed mail.
const sqlInsertMail = `INSERT INTO processed_mails (message_id, content_hash, sender, game_id, disposition, at,
	authenticated, replies, reason, subject, budget, sender_domain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// writeMail records c.Mail as processed, if it has a Message-ID, with the
// number of outbox mails as its replies. Errors: [ErrDuplicate] when its
// Message-ID or content hash is already recorded.
func (c *Change) writeMail(ctx context.Context, tx *txn, now time.Time) error {
	m := c.Mail
	if m.MessageID == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, sqlInsertMail,
		m.MessageID, nullString(m.ContentHash), lower(m.From), m.GameID, m.Disposition, fmtTime(orNow(m.At, now)),
		m.Authenticated, len(c.Outbox), m.Reason, cut(m.Subject, maxSubject), string(m.Budget), lower(m.Domain))
	if isUniqueViolation(err) {
		return fmt.Errorf("mail %q: %w", m.MessageID, ErrDuplicate)
	}
	return err
}

// writeGames inserts or updates c.Games and sets a.games to what was
// written of each by ID. Errors: those of insertGame and updateGame
// ([ErrConflict], [ErrNotFound]).
func (c *Change) writeGames(ctx context.Context, a *applying) error {
	tx, st, now := a.tx, a.st, a.now
	games := make(map[string]*writtenGame, len(c.Games))
	for _, g := range c.Games {
		w := &writtenGame{}
		var err error
		if g.Version == 0 {
			w.version, w.createdAt = 1, orNow(g.CreatedAt, now)
			err = insertGame(ctx, st, g, w.createdAt, now)
		} else {
			w.version, w.plyCount, w.createdAt, err = updateGame(ctx, tx, g, now)
		}
		if err != nil {
			return err
		}
		games[g.ID] = w
	}
	a.games = games
	return nil
}

// writePlies appends c.NewPlies, in the order of their game IDs, after
// the games and the takebacks, and updates the ply count of a game in
// c.Games. A game not in c.Games has its version bumped, unless a
// takeback of the change bumped it already ([applying.bump]). Errors:
// those of appendPlies ([ErrConflict], [ErrNotFound]).
func (c *Change) writePlies(ctx context.Context, a *applying) error {
	for _, id := range sortedKeys(c.NewPlies) {
		count, err := appendPlies(ctx, a.tx, id, c.NewPlies[id], a.bump(id), a.now)
		if err != nil {
			return err
		}
		if w, inGames := a.games[id]; inGames {
			w.plyCount = count
		}
	}
	return nil
}

// sqlInsertPlayer inserts or updates one player.
const sqlInsertPlayer = `INSERT INTO players (address, name, language, messages_off, digest_at, digest_zone, digest_due,
	blocked, proved_at, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (address) DO UPDATE SET name = excluded.name, language = excluded.language, messages_off = excluded.messages_off,
	digest_due = CASE WHEN excluded.digest_at IS players.digest_at AND excluded.digest_zone = players.digest_zone
		THEN players.digest_due ELSE excluded.digest_due END,
	digest_at = excluded.digest_at, digest_zone = excluded.digest_zone,
	blocked = excluded.blocked, proved_at = COALESCE(players.proved_at, excluded.proved_at)`

// writePlayers writes what c says about players, in this order: the
// players (inserted or updated; a proof time, once set, is kept, and so is
// the next digest time unless the digest setting changed), their public
// names, the confirmations, the digests sent and the leave, each player's
// in address order. The error of a player names its address.
func (c *Change) writePlayers(ctx context.Context, a *applying, ws writeSet) error {
	tx, now := a.tx, a.now
	for _, p := range c.Players {
		at, due := p.digestColumns()
		_, err := tx.ExecContext(ctx, sqlInsertPlayer,
			lower(p.Address), p.Name, p.Language, p.MessagesOff, at, p.DigestZone, due, p.Blocked, nullTime(p.ProvedAt),
			fmtTime(orNow(p.CreatedAt, now)))
		if err != nil {
			return fmt.Errorf("player %q: %w", p.Address, err)
		}
	}
	if err := ws.apply(ctx, a, slotPublicNames); err != nil {
		return err
	}
	if err := ws.apply(ctx, a, slotConfirmations); err != nil {
		return err
	}
	if err := ws.apply(ctx, a, slotDigests); err != nil {
		return err
	}
	return ws.apply(ctx, a, slotLeave)
}

// writeOutbox deletes the mails of c.Replace, then queues c.Outbox.
// Errors: [ErrConflict] when a mail to replace is no longer pending and
// unclaimed.
func (c *Change) writeOutbox(ctx context.Context, tx *txn, now time.Time) error {
	for _, id := range c.Replace {
		if err := replaceOutbox(ctx, tx, id); err != nil {
			return err
		}
	}
	for _, m := range c.Outbox {
		if err := insertOutbox(ctx, tx, m, now); err != nil {
			return err
		}
	}
	return nil
}

// settle sets what the archive stored of c's games (versions, ply
// counts, times, lower-case addresses) once the write w is committed,
// then runs what c's writes set then (a tournament's Version).
func (c *Change) settle(w *written, now time.Time) {
	for _, g := range c.Games {
		wg := w.games[g.ID]
		g.Version, g.PlyCount, g.CreatedAt, g.UpdatedAt = wg.version, wg.plyCount, wg.createdAt, now
		g.Attackers, g.Defenders, g.Challenger = lower(g.Attackers), lower(g.Defenders), lower(g.Challenger)
	}
	for _, f := range w.settles {
		f()
	}
}

// insertGame inserts a new game at version 1 without plies.
func insertGame(ctx context.Context, st *stmts, g *Game, createdAt, now time.Time) error {
	ac, dc, err := g.conditionsColumns()
	if err != nil {
		return err
	}
	_, err = st.exec(ctx, `INSERT INTO games (id, variant, attackers, defenders, challenger, status, result, reason, draw_offer_by,
	attacker_token, defender_token, attackers_thread, defenders_thread, start_position, time_control, tournament_id,
	ply_count, version, created_at, updated_at, started_at, ended_at,
	attackers_private, defenders_private, message_to_attackers, message_to_defenders, attackers_conditions, defenders_conditions, takeback_by, engine_level,
	rated)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Variant, lower(g.Attackers), lower(g.Defenders), lower(g.Challenger), string(g.Status), g.Result, g.Reason, g.DrawOfferBy,
		g.AttackerToken, g.DefenderToken, g.AttackersThread, g.DefendersThread, g.StartPosition, g.TimeControl, nullString(g.TournamentID),
		fmtTime(createdAt), fmtTime(now), nullTime(g.StartedAt), nullTime(g.EndedAt),
		g.AttackersPrivate, g.DefendersPrivate, g.MessageToAttackers, g.MessageToDefenders, ac, dc, g.TakebackBy, g.EngineLevel, g.Rated)
	if isUniqueViolation(err) {
		return fmt.Errorf("new game %q: id taken: %w", g.ID, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("game %q: %w", g.ID, err)
	}
	return nil
}

// sqlUpdateGame writes a game over the stored one of the same version.
const sqlUpdateGame = `UPDATE games SET variant = ?, attackers = ?, defenders = ?, challenger = ?, status = ?, result = ?,
	reason = ?, draw_offer_by = ?, attacker_token = ?, defender_token = ?, attackers_thread = ?, defenders_thread = ?,
	start_position = ?, time_control = ?, tournament_id = ?, started_at = ?, ended_at = ?, rated = ?, version = version + 1, updated_at = ?,
	attackers_private = ?, defenders_private = ?, message_to_attackers = ?, message_to_defenders = ?,
	attackers_conditions = ?, defenders_conditions = ?, takeback_by = ?, engine_level = ?
WHERE id = ? AND version = ?
RETURNING version, ply_count, created_at`

// updateGame writes g over the stored game if the stored version is
// g.Version, and returns the new version, the ply count and the creation
// time.
func updateGame(ctx context.Context, tx *txn, g *Game, now time.Time) (version int64, plyCount int, createdAt time.Time, err error) {
	ac, dc, err := g.conditionsColumns()
	if err != nil {
		return 0, 0, time.Time{}, err
	}
	err = tx.QueryRowContext(ctx, sqlUpdateGame,
		g.Variant, lower(g.Attackers), lower(g.Defenders), lower(g.Challenger), string(g.Status), g.Result,
		g.Reason, g.DrawOfferBy, g.AttackerToken, g.DefenderToken, g.AttackersThread, g.DefendersThread,
		g.StartPosition, g.TimeControl, nullString(g.TournamentID), nullTime(g.StartedAt), nullTime(g.EndedAt), g.Rated, fmtTime(now),
		g.AttackersPrivate, g.DefendersPrivate, g.MessageToAttackers, g.MessageToDefenders,
		ac, dc, g.TakebackBy, g.EngineLevel,
		g.ID, g.Version).Scan(&version, &plyCount, scanTime(&createdAt))
	if !isNoRows(err) {
		if err != nil {
			err = fmt.Errorf("game %q: %w", g.ID, err)
		}
		return version, plyCount, createdAt, err
	}
	var stored int64
	err = tx.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ?`, g.ID).Scan(&stored)
	switch {
	case isNoRows(err):
		return 0, 0, time.Time{}, fmt.Errorf("game %q: %w", g.ID, ErrNotFound)
	case err != nil:
		return 0, 0, time.Time{}, fmt.Errorf("game %q: %w", g.ID, err)
	}
	return 0, 0, time.Time{}, fmt.Errorf("game %q: version %d, stored %d: %w", g.ID, g.Version, stored, ErrConflict)
}

// sqlInsertPly appends one ply.
const sqlInsertPly = `INSERT INTO plies (game_id, n, move, at, avail, message_id) VALUES (?, ?, ?, ?, ?, ?)`

// sqlAddPlies counts appended plies into their game.
const sqlAddPlies = `UPDATE games SET ply_count = ply_count + ?, version = version + ?, updated_at = ? WHERE id = ?
RETURNING ply_count`

// sqlPlyCount reads a game's ply count.
const sqlPlyCount = `SELECT ply_count FROM games WHERE id = ?`

// appendPlies appends plies to game id after checking that they continue
// the stored ones, and returns the game's ply count after it.
// bump says whether the append bumps the version ([applying.bump]: the
// game row is not written in the same change, nor bumped by a takeback).
func appendPlies(ctx context.Context, tx *txn, id string, plies []Ply, bump bool, now time.Time) (int, error) {
	var count int
	err := tx.QueryRowContext(ctx, sqlPlyCount, id).Scan(&count)
	switch {
	case isNoRows(err):
		return 0, fmt.Errorf("plies of game %q: %w", id, ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("plies of game %q: %w", id, err)
	}
	if plies[0].N != count+1 {
		return 0, fmt.Errorf("plies of game %q: first new ply is %d, stored plies end at %d: %w", id, plies[0].N, count, ErrConflict)
	}
	for _, p := range plies {
		if _, err := tx.ExecContext(ctx, sqlInsertPly, id, p.N, p.Move, fmtTime(orNow(p.At, now)), nullTime(p.Avail), p.MessageID); err != nil {
			if isUniqueViolation(err) {
				err = ErrConflict
			}
			return 0, fmt.Errorf("game %q ply %d: %w", id, p.N, err)
		}
	}
	bumpBy := 0
	if bump {
		bumpBy = 1
	}
	err = tx.QueryRowContext(ctx, sqlAddPlies, len(plies), bumpBy, fmtTime(now), id).Scan(&count)
	if err != nil {
		return 0, fmt.Errorf("plies of game %q: %w", id, err)
	}
	return count, nil
}

// sqlInsertOutbox queues one outbox mail.
const sqlInsertOutbox = `INSERT INTO outbox (game_id, message_id, sender, recipients, raw, status, attempts, next_attempt,
	last_error, created_at, sent_at, held_for, carry)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// insertOutbox queues one mail.
func insertOutbox(ctx context.Context, tx *txn, m OutboxMail, now time.Time) error {
	to, err := json.Marshal(m.To)
	if err != nil {
		return err
	}
	status := m.Status
	if status == "" {
		status = Pending
	}
	created := orNow(m.CreatedAt, now)
	next := m.NextAttempt
	if next.IsZero() {
		next = created
	}
	_, err = tx.ExecContext(ctx, sqlInsertOutbox,
		m.GameID, m.MessageID, m.From, string(to), m.Raw, string(status), m.Attempts, fmtTime(next),
		m.LastError, fmtTime(created), nullTime(m.SentAt), m.HeldFor, m.Carry)
	if err != nil {
		return fmt.Errorf("outbox mail %q: %w", m.MessageID, err)
	}
	return nil
}

// replaceOutbox deletes outbox mail id, which a mail of the change takes
// the place of ([Change.Replace]), if it is Pending and claimed by
// nobody; else ErrConflict.
func replaceOutbox(ctx context.Context, tx *txn, id int64) error {
	res, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE id = ? AND status = 'pending' AND claimed_by = ''`, id)
	if err != nil {
		return fmt.Errorf("replacing outbox mail %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return fmt.Errorf("replacing outbox mail %d: no longer pending and unclaimed: %w", id, ErrConflict)
	}
	return nil
}

// validate checks the rules documented on Change's fields and writes
// before anything is written, and returns the writes by kind. It returns
// the first broken rule as an [ErrInvalid] error, checking in this order:
// the writes' kinds (none nil, none twice), mail, public names, games,
// new plies, players (with confirmations and digests), takebacks,
// spectators, outbox, tournament, mailbox, leave, fired timers, timer
// plans.
func (c *Change) validate() (writeSet, error) {
	ws, err := indexWrites(c.Writes)
	if err != nil {
		return nil, err
	}
	return ws, c.validateFields(ws)
}

// validateFields is validate's part after the writes are indexed.
func (c *Change) validateFields(ws writeSet) error {
	if err := validateMail(c.Mail); err != nil {
		return err
	}
	if err := ws.check(slotPublicNames, c, nil); err != nil {
		return err
	}
	written, err := validateGames(c.Games)
	if err != nil {
		return err
	}
	if err := validateNewPlies(c.NewPlies); err != nil {
		return err
	}
	if err := c.validatePlayers(ws); err != nil {
		return err
	}
	if err := ws.check(slotTakeBacks, c, written); err != nil {
		return err
	}
	if err := ws.check(slotWatching, c, written); err != nil {
		return err
	}
	if err := validateOutbox(c.Outbox); err != nil {
		return err
	}
	if err := ws.check(slotTournament, c, written); err != nil {
		return err
	}
	if mb := c.Mailbox; mb != nil && mb.Mailbox == "" {
		return invalid("mailbox state without mailbox name")
	}
	if err := ws.check(slotLeave, c, written); err != nil {
		return err
	}
	if err := ws.check(slotFired, c, written); err != nil {
		return err
	}
	return ws.check(slotTimerPlans, c, written)
}

// validateMail checks the processed mail: none at all (the zero value),
// or one with a Message-ID, a known disposition and a valid budget.
func validateMail(m ProcessedMail) error {
	switch {
	case m.MessageID == "":
		if m != (ProcessedMail{}) {
			return invalid("mail without Message-ID")
		}
	case !dispositions[m.Disposition]:
		return invalid("mail %q: disposition %q", m.MessageID, m.Disposition)
	case !m.Budget.Valid():
		return invalid("mail %q: budget %q", m.MessageID, m.Budget)
	}
	return nil
}

// validateGames checks each game ([Game.validate]) and that none is nil
// or given twice, and returns the set of their IDs.
func validateGames(games []*Game) (ids map[string]bool, err error) {
	ids = make(map[string]bool, len(games))
	for _, g := range games {
		if g == nil {
			return nil, invalid("nil game")
		}
		if err := g.validate(); err != nil {
			return nil, err
		}
		if ids[g.ID] {
			return nil, invalid("game %q given twice", g.ID)
		}
		ids[g.ID] = true
	}
	return ids, nil
}

// validateNewPlies checks that each list of new plies has a game ID, is
// not empty, and numbers its plies from 1 up without a gap, each with a
// move.
func validateNewPlies(newPlies map[string][]Ply) error {
	for id, plies := range newPlies {
		if id == "" {
			return invalid("plies of a game without id")
		}
		if len(plies) == 0 {
			return invalid("game %q: empty list of new plies", id)
		}
		for i, p := range plies {
			switch {
			case p.N < 1:
				return invalid("game %q: ply number %d", id, p.N)
			case i > 0 && p.N != plies[i-1].N+1:
				return invalid("game %q: ply %d follows ply %d", id, p.N, plies[i-1].N)
			case p.Move == "":
				return invalid("game %q ply %d: empty move", id, p.N)
			}
		}
	}
	return nil
}

// validatePlayers checks the players (an address and a valid digest
// setting), the confirmations, and the digests sent (an address, and a
// next due time after the due one).
func (c *Change) validatePlayers(ws writeSet) error {
	for _, p := range c.Players {
		if p.Address == "" {
			return invalid("player without address")
		}
		if err := p.validateDigest(); err != nil {
			return err
		}
	}
	if err := ws.check(slotConfirmations, c, nil); err != nil {
		return err
	}
	return ws.check(slotDigests, c, nil)
}

// validateTakeBacks checks that each takeback names a game, a ply number
// and its move, and that new plies of the same game start at the ply
// taken back.
func validateTakeBacks(takeBacks map[string]TakenBack, newPlies map[string][]Ply) error {
	for id, tb := range takeBacks {
		if id == "" || tb.N < 1 || tb.Move == "" {
			return invalid("takeback in game %q: ply %d %q", id, tb.N, tb.Move)
		}
		if plies, ok := newPlies[id]; ok && plies[0].N != tb.N {
			return invalid("game %q: ply %d taken back, new plies start at %d", id, tb.N, plies[0].N)
		}
	}
	return nil
}

// validateOutbox checks that each outbox mail has a sender, recipients
// and a message, a valid status if any, and no negative attempt count.
func validateOutbox(outbox []OutboxMail) error {
	for _, m := range outbox {
		switch {
		case m.From == "":
			return invalid("outbox mail %q: empty From", m.MessageID)
		case len(m.To) == 0:
			return invalid("outbox mail %q: no recipients", m.MessageID)
		case len(m.Raw) == 0:
			return invalid("outbox mail %q: empty message", m.MessageID)
		case m.Status != "" && !m.Status.Valid():
			return invalid("outbox mail %q: status %q", m.MessageID, m.Status)
		case m.Attempts < 0:
			return invalid("outbox mail %q: %d attempts", m.MessageID, m.Attempts)
		}
	}
	return nil
}

// validateLeave checks that each player's leave has an address and
// intervals that are not empty and share no day.
func validateLeave(leave map[string][]notation.Leave) error {
	for addr, ls := range leave {
		if lower(addr) == "" {
			return invalid("leave of a player without address")
		}
		for i, l := range ls {
			if l.First.IsZero() || l.Last.Before(l.First) {
				return invalid("leave of %q: interval %s", addr, l)
			}
			for _, m := range ls[:i] {
				if !l.First.After(m.Last) && !m.First.After(l.Last) {
					return invalid("leave of %q: %s and %s share a day", addr, m, l)
				}
			}
		}
	}
	return nil
}

// validateFired checks the fired timers: each has a key and belongs to
// a game in written (the IDs of the games the change writes).
func validateFired(fired []TimerRef, written map[string]bool) error {
	for _, f := range fired {
		switch {
		case f.Key == "":
			return invalid("fired timer of game %q without key", f.GameID)
		case !written[f.GameID]:
			return invalid("fired timer %q of game %q, which the change does not write", f.Key, f.GameID)
		}
	}
	return nil
}

// validatePlans checks the timer plans: each belongs to a game in
// written; a plan is for a ply (0 only with no timers) and its timers
// have distinct keys, a valid kind, a ply not before the plan's and a
// due time.
func validatePlans(plans map[string]TimerPlan, written map[string]bool) error {
	for id, p := range plans {
		if !written[id] {
			return invalid("timers of game %q, which the change does not write", id)
		}
		if p.Ply < 0 || p.Ply == 0 && len(p.Timers) > 0 {
			return invalid("timers of game %q: plan for ply %d with %d timers", id, p.Ply, len(p.Timers))
		}
		keys := map[string]bool{}
		for _, t := range p.Timers {
			switch {
			case t.Key == "" || keys[t.Key]:
				return invalid("timers of game %q: key %q empty or given twice", id, t.Key)
			case !t.Kind.Valid():
				return invalid("timer %q of game %q: kind %q", t.Key, id, t.Kind)
			case t.Ply < p.Ply:
				return invalid("timer %q of game %q: ply %d before the plan's %d", t.Key, id, t.Ply, p.Ply)
			case t.Due.IsZero():
				return invalid("timer %q of game %q: no due time", t.Key, id)
			}
			keys[t.Key] = true
		}
	}
	return nil
}

// validate checks the values the archive's queries depend on.
func (g *Game) validate() error {
	switch {
	case g.ID == "":
		return invalid("game without id")
	case g.Variant == "":
		return invalid("game %q: empty variant", g.ID)
	case g.Attackers == "" || g.Defenders == "":
		return invalid("game %q: missing player address", g.ID)
	case !g.Status.Valid():
		return invalid("game %q: status %q", g.ID, g.Status)
	case !side(g.Result) && g.Result != "draw":
		return invalid("game %q: result %q", g.ID, g.Result)
	case !side(g.DrawOfferBy):
		return invalid("game %q: draw offer by %q", g.ID, g.DrawOfferBy)
	case !side(g.TakebackBy):
		return invalid("game %q: takeback by %q", g.ID, g.TakebackBy)
	case g.Version < 0:
		return invalid("game %q: version %d", g.ID, g.Version)
	case g.EngineLevel < 0:
		return invalid("game %q: engine level %d", g.ID, g.EngineLevel)
	}
	if err := g.AttackersConditions.validate(g.ID, "attackers'"); err != nil {
		return err
	}
	return g.DefendersConditions.validate(g.ID, "defenders'")
}

// conditionsColumns returns the stored form of both players' conditions.
func (g *Game) conditionsColumns() (attackers, defenders string, err error) {
	if attackers, err = conditionsText(g.AttackersConditions); err != nil {
		return "", "", fmt.Errorf("game %q: %w", g.ID, err)
	}
	if defenders, err = conditionsText(g.DefendersConditions); err != nil {
		return "", "", fmt.Errorf("game %q: %w", g.ID, err)
	}
	return attackers, defenders, nil
}

// side reports whether s is "", "attackers" or "defenders".
func side(s string) bool { return s == "" || s == "attackers" || s == "defenders" }

// orNow returns t, or now if t is zero.
func orNow(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}

// maxSubject is how many bytes of a mail's subject the archive keeps.
const maxSubject = 200

// cut returns s shortened to at most n bytes without splitting a UTF-8
// sequence.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// lower returns an address in the stored form.
func lower(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

// sortedKeys returns m's keys in order, so that a Change is written in the
// same order every time.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
