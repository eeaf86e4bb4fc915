package archive

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/taflmail/taflmail/notation"
)

// TournamentStatus is where a tournament is in its life: [TournamentCreated]
// (taking entries) → [TournamentRunning] (its games started) →
// [TournamentFinished] (its last game ended), or [TournamentCancelled]
// (it could not start). The text is what the tournaments.status column
// holds.
type TournamentStatus string

// The tournament statuses.
const (
	TournamentCreated   TournamentStatus = "created"
	TournamentRunning   TournamentStatus = "running"
	TournamentFinished  TournamentStatus = "finished"
	TournamentCancelled TournamentStatus = "cancelled"
)

// Valid reports whether s is one of the four statuses.
func (s TournamentStatus) Valid() bool {
	switch s {
	case TournamentCreated, TournamentRunning, TournamentFinished, TournamentCancelled:
		return true
	}
	return false
}

// Tournament is a correspondence tournament as stored (CORRESPONDENCE.md
// §6): what its director's file said, and where it stands. The referee
// owns its meaning; the archive checks what its queries depend on.
type Tournament struct {
	// ID is the director's id, e.g. "winter-2027": lower-case letters,
	// digits and "-" (the referee checks the form).
	ID string
	// Name is the event's name, the Event tag of its games' records.
	Name string
	// Variant is the engine's name of the rules, e.g. "copenhagen".
	Variant string
	// TimeControl is every game's control in canonical form (§1, e.g.
	// "30d+1d"); never "" or "none" (Decision C1).
	TimeControl string
	// Groups is 1 for a single round robin, n > 1 for a round robin in n
	// groups seeded by rating in snake order (§6.2).
	Groups int
	// GamesPerPairing is 2 (a match of two games, Decision T1) or 1.
	GamesPerPairing int
	// StartDate is the day the games start, 00:00 UTC.
	StartDate time.Time
	// Rated: the event's games count for the ratings (§7.3).
	Rated bool
	// LeaveDays is the leave a player may take per calendar year in the
	// event's games (§3.1), 0 for none.
	LeaveDays int
	// OpenEntry: players join by mail until EntryCloses (the last day on
	// which entries are taken, 00:00 UTC); zero EntryCloses otherwise.
	OpenEntry   bool
	EntryCloses time.Time
	Status      TournamentStatus
	// CreatedAt: Commit fills a zero value with the store's clock.
	// StartedAt and FinishedAt are zero until then.
	CreatedAt, StartedAt, FinishedAt time.Time
	// Version is the optimistic-concurrency counter, as Game's: 0 for a
	// tournament not yet stored, +1 with every Commit that writes it.
	Version int64
}

// Entry is one player of a tournament.
type Entry struct {
	TournamentID string
	// Player is the player's address (stored lower case).
	Player string
	// Key is the entry's secret: ten characters, mailed only to the
	// player, which confirms a withdrawal by mail.
	Key string
	// Seq is the order of entry, from 1.
	Seq int
	// Section is the player's group (1-based) and Number the Berger
	// number in it, both set when the event starts, 0 before.
	Section, Number int
	// Rating is the rating the player was seeded with (their rating in
	// the event's variant when it started).
	Rating float64
	// JoinedAt: Commit fills a zero value with the store's clock.
	JoinedAt time.Time
	// WithdrawnAt is when the player withdrew or was removed (zero while
	// in); Annulled that it happened with fewer than half of their games
	// finished, so that all of them are annulled (Decision T3).
	WithdrawnAt time.Time
	Annulled    bool
}

// Withdrawn reports whether the player has left the event.
func (e Entry) Withdrawn() bool { return !e.WithdrawnAt.IsZero() }

// Pairing is where a tournament's schedule puts one of its games: the
// group, round and board of the Berger table (all 1-based) and the
// game's number in its match (1 or 2; 1 with one game per pairing).
type Pairing struct {
	GameID, TournamentID  string
	Section, Round, Board int
	MatchGame             int
}

// GameEvent is what a tournament game's record says about its event.
type GameEvent struct {
	// Name is the tournament's name (the Event tag).
	Name string
	// Pairing is the game's place in the schedule.
	Pairing Pairing
	// GamesPerPairing is the event's (1 or 2), for the Round tag.
	GamesPerPairing int
	// LeaveDays is the event's leave allowance per calendar year.
	LeaveDays int
}

// RoundTag is the game's Round tag: "round.board" (PGN's convention),
// with ".1" or ".2" for the game of a match of two: "3.2.1".
func (e *GameEvent) RoundTag() string {
	s := strconv.Itoa(e.Pairing.Round) + "." + strconv.Itoa(e.Pairing.Board)
	if e.GamesPerPairing == 2 {
		s += "." + strconv.Itoa(e.Pairing.MatchGame)
	}
	return s
}

// TournamentChange is what a [Change] writes of tournaments and ratings
// (a [Write]), in the same transaction as the games whose results cause
// it.
type TournamentChange struct {
	// Tournaments are inserted (Version 0) or updated (Version as read;
	// [ErrConflict] when it changed since).
	Tournaments []*Tournament
	// Entries are inserted, or replace the stored entry of the same
	// tournament and player.
	Entries []Entry
	// Pairings are inserted; their games must exist or be in the change.
	Pairings []Pairing
	// Ratings are the rating updates, one per variant ([RatingUpdate]).
	Ratings []RatingUpdate
	// Pending are "join" requests to keep until confirmed: inserted,
	// or, when the player has one for the tournament already, ignored
	// (the stored key stays valid). Writing an entry deletes the
	// player's pending request for that tournament; writing the
	// tournament with any status but TournamentCreated (its start, its
	// end, its cancellation) deletes every request it still had.
	Pending []PendingEntry
}

// PendingEntry is a request to enter a tournament that waits for the
// address to confirm it (docs/security.md, "Tournament entries"): a
// "join" mail's From can be forged, so only a mail from Player that
// carries Key, which was mailed to Player alone, makes it an [Entry].
type PendingEntry struct {
	TournamentID string
	// Player is the address that is asked (stored lower case).
	Player string
	// Key is the secret the confirmation must carry: ten characters, as
	// an entry's key.
	Key string
	// AskedAt is when the request first came; Commit fills a zero value
	// with the store's clock.
	AskedAt time.Time
}

// TournamentFilter selects tournaments for [Store.Tournaments].
type TournamentFilter struct {
	// Status selects one status, "" every one.
	Status TournamentStatus
}

// write writes c's tournaments, entries, pairings and ratings
// and returns the versions the tournaments got, by id.
func (c *TournamentChange) write(ctx context.Context, tx *txn, now time.Time) (map[string]int64, error) {
	versions := map[string]int64{}
	if c == nil {
		return versions, nil
	}
	for _, t := range c.Tournaments {
		v, err := writeTournament(ctx, tx, t, now)
		if err != nil {
			return nil, err
		}
		versions[t.ID] = v
		if t.Status != TournamentCreated {
			// an event that takes no more entries keeps no join requests
			if _, err := tx.ExecContext(ctx, `DELETE FROM pending_entries WHERE tournament_id = ?`, t.ID); err != nil {
				return nil, fmt.Errorf("pending entries of tournament %q: %w", t.ID, err)
			}
		}
	}
	for _, e := range c.Entries {
		_, err := tx.ExecContext(ctx, `INSERT INTO entries (tournament_id, player, seq, key, section, number, rating, joined_at,
	withdrawn_at, annulled) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (tournament_id, player) DO UPDATE SET seq = excluded.seq, key = excluded.key, section = excluded.section,
	number = excluded.number, rating = excluded.rating, joined_at = excluded.joined_at, withdrawn_at = excluded.withdrawn_at,
	annulled = excluded.annulled`,
			e.TournamentID, lower(e.Player), e.Seq, e.Key, e.Section, e.Number, e.Rating, fmtTime(orNow(e.JoinedAt, now)),
			nullTime(e.WithdrawnAt), e.Annulled)
		if err != nil {
			return nil, fmt.Errorf("entry %q of tournament %q: %w", e.Player, e.TournamentID, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pending_entries WHERE tournament_id = ? AND player = ?`,
			e.TournamentID, lower(e.Player)); err != nil {
			return nil, fmt.Errorf("pending entry %q of tournament %q: %w", e.Player, e.TournamentID, err)
		}
	}
	for _, p := range c.Pending {
		_, err := tx.ExecContext(ctx, `INSERT INTO pending_entries (tournament_id, player, key, asked_at) VALUES (?, ?, ?, ?)
ON CONFLICT (tournament_id, player) DO NOTHING`, p.TournamentID, lower(p.Player), p.Key, fmtTime(orNow(p.AskedAt, now)))
		if isForeignKeyViolation(err) {
			return nil, fmt.Errorf("pending entry %q of tournament %q: %w", p.Player, p.TournamentID, ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("pending entry %q of tournament %q: %w", p.Player, p.TournamentID, err)
		}
	}
	if len(c.Pairings) > 0 {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO pairings (game_id, tournament_id, section, round, board, match_game)
VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return nil, err
		}
		defer stmt.Close()
		for _, p := range c.Pairings {
			if _, err := stmt.ExecContext(ctx, p.GameID, p.TournamentID, p.Section, p.Round, p.Board, p.MatchGame); err != nil {
				if isUniqueViolation(err) {
					err = ErrConflict
				}
				return nil, fmt.Errorf("pairing of game %q: %w", p.GameID, err)
			}
		}
	}
	for _, u := range c.Ratings {
		if err := u.write(ctx, tx); err != nil {
			return nil, err
		}
	}
	return versions, nil
}

// writeTournament inserts or updates one tournament and returns its new
// version.
func writeTournament(ctx context.Context, tx *txn, t *Tournament, now time.Time) (int64, error) {
	args := []any{t.Name, t.Variant, t.TimeControl, t.Groups, t.GamesPerPairing, fmtDay(t.StartDate), t.Rated, t.LeaveDays,
		t.OpenEntry, nullDay(t.EntryCloses), string(t.Status), nullTime(t.StartedAt), nullTime(t.FinishedAt)}
	if t.Version == 0 {
		_, err := tx.ExecContext(ctx, `INSERT INTO tournaments (name, variant, time_control, groups, games_per_pairing, start_date,
	rated, leave_days, open_entry, entry_closes, status, started_at, finished_at, id, version, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`, append(args, t.ID, fmtTime(orNow(t.CreatedAt, now)))...)
		if isUniqueViolation(err) {
			return 0, fmt.Errorf("new tournament %q: id taken: %w", t.ID, ErrConflict)
		}
		if err != nil {
			return 0, fmt.Errorf("tournament %q: %w", t.ID, err)
		}
		return 1, nil
	}
	var v int64
	err := tx.QueryRowContext(ctx, `UPDATE tournaments SET name = ?, variant = ?, time_control = ?, groups = ?, games_per_pairing = ?,
	start_date = ?, rated = ?, leave_days = ?, open_entry = ?, entry_closes = ?, status = ?, started_at = ?, finished_at = ?,
	version = version + 1
WHERE id = ? AND version = ? RETURNING version`, append(args, t.ID, t.Version)...).Scan(&v)
	if isNoRows(err) {
		var stored int64
		switch err := tx.QueryRowContext(ctx, `SELECT version FROM tournaments WHERE id = ?`, t.ID).Scan(&stored); {
		case isNoRows(err):
			return 0, fmt.Errorf("tournament %q: %w", t.ID, ErrNotFound)
		case err != nil:
			return 0, fmt.Errorf("tournament %q: %w", t.ID, err)
		}
		return 0, fmt.Errorf("tournament %q: version %d, stored %d: %w", t.ID, t.Version, stored, ErrConflict)
	}
	if err != nil {
		return 0, fmt.Errorf("tournament %q: %w", t.ID, err)
	}
	return v, nil
}

// validate checks c before anything is written.
func (c *TournamentChange) validate() error {
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, t := range c.Tournaments {
		switch {
		case t == nil:
			return invalid("nil tournament")
		case t.ID == "" || t.Name == "" || t.Variant == "":
			return invalid("tournament %q: empty id, name or variant", t.ID)
		case t.TimeControl == "" || t.TimeControl == "none":
			return invalid("tournament %q: no time control", t.ID)
		case t.Groups < 1 || t.GamesPerPairing != 1 && t.GamesPerPairing != 2:
			return invalid("tournament %q: %d groups, %d games per pairing", t.ID, t.Groups, t.GamesPerPairing)
		case t.StartDate.IsZero() || t.LeaveDays < 0:
			return invalid("tournament %q: no start date, or leave days %d", t.ID, t.LeaveDays)
		case t.OpenEntry == t.EntryCloses.IsZero():
			return invalid("tournament %q: open entry %v with closing day %v", t.ID, t.OpenEntry, t.EntryCloses)
		case !t.Status.Valid():
			return invalid("tournament %q: status %q", t.ID, t.Status)
		case t.Version < 0 || seen[t.ID]:
			return invalid("tournament %q: version %d, or given twice", t.ID, t.Version)
		}
		seen[t.ID] = true
	}
	for _, e := range c.Entries {
		if e.TournamentID == "" || lower(e.Player) == "" || e.Key == "" || e.Seq < 1 || e.Section < 0 || e.Number < 0 {
			return invalid("entry %q of tournament %q: missing player, key or order", e.Player, e.TournamentID)
		}
	}
	for _, p := range c.Pending {
		if p.TournamentID == "" || lower(p.Player) == "" || p.Key == "" {
			return invalid("pending entry %q of tournament %q: missing player or key", p.Player, p.TournamentID)
		}
	}
	for _, p := range c.Pairings {
		switch {
		case p.GameID == "" || p.TournamentID == "":
			return invalid("pairing without game or tournament")
		case p.Section < 1 || p.Round < 1 || p.Board < 1 || p.MatchGame != 1 && p.MatchGame != 2:
			return invalid("pairing of game %q: section %d round %d board %d game %d", p.GameID, p.Section, p.Round, p.Board, p.MatchGame)
		}
	}
	variants := map[string]bool{}
	for _, u := range c.Ratings {
		if variants[u.Variant] {
			return invalid("two rating updates of variant %q", u.Variant)
		}
		variants[u.Variant] = true
		if err := u.validate(); err != nil {
			return err
		}
	}
	return nil
}

// tournamentColumns are the tournaments columns in the order
// scanTournament reads them.
const tournamentColumns = `id, name, variant, time_control, groups, games_per_pairing, start_date, rated, leave_days,
	open_entry, entry_closes, status, version, created_at, started_at, finished_at`

// scanTournament reads one row of tournamentColumns.
func scanTournament(row scanner) (*Tournament, error) {
	t := &Tournament{}
	err := row.Scan(&t.ID, &t.Name, &t.Variant, &t.TimeControl, &t.Groups, &t.GamesPerPairing, scanDay(&t.StartDate), &t.Rated,
		&t.LeaveDays, &t.OpenEntry, scanDay(&t.EntryCloses), &t.Status, &t.Version, scanTime(&t.CreatedAt),
		scanTime(&t.StartedAt), scanTime(&t.FinishedAt))
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Tournament returns the tournament with this id; [ErrNotFound] if there
// is none.
func (s *Store) Tournament(ctx context.Context, id string) (*Tournament, error) {
	const op = "tournament"
	var t *Tournament
	err := s.read(ctx, op, func(tx *txn) error {
		var err error
		t, err = scanTournament(tx.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
		if isNoRows(err) {
			return notFound(op, fmt.Sprintf("tournament %q", id))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Tournaments returns the tournaments that pass f, by start date, then
// id. None is not an error.
func (s *Store) Tournaments(ctx context.Context, f TournamentFilter) ([]*Tournament, error) {
	if f.Status != "" && !f.Status.Valid() {
		return nil, &Error{Op: "tournaments", Err: invalid("status %q", f.Status)}
	}
	where, args := "", []any{}
	if f.Status != "" {
		where, args = "WHERE status = ?", append(args, string(f.Status))
	}
	return s.queryTournaments(ctx, "tournaments", `SELECT `+tournamentColumns+` FROM tournaments `+where+`
ORDER BY start_date, id`, args...)
}

// DueTournaments returns the tournaments in status created whose start
// date has come at now (00:00 UTC of the day), earliest first: the
// scheduler starts them.
func (s *Store) DueTournaments(ctx context.Context, now time.Time) ([]*Tournament, error) {
	return s.queryTournaments(ctx, "due tournaments", `SELECT `+tournamentColumns+` FROM tournaments INDEXED BY tournaments_start
WHERE status = 'created' AND start_date <= ? ORDER BY start_date, id`, fmtDay(now))
}

// NextTournamentStart returns the start (00:00 UTC of the start date) of
// the earliest tournament still to start, and false when there is none.
func (s *Store) NextTournamentStart(ctx context.Context) (time.Time, bool, error) {
	var day time.Time
	var found bool
	err := s.read(ctx, "next tournament start", func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT start_date FROM tournaments INDEXED BY tournaments_start WHERE status = 'created'
ORDER BY start_date LIMIT 1`).Scan(scanDay(&day))
		if isNoRows(err) {
			return nil
		}
		found = err == nil
		return err
	})
	return day, found, err
}

// queryTournaments runs a tournaments query.
func (s *Store) queryTournaments(ctx context.Context, op, query string, args ...any) ([]*Tournament, error) {
	return queryAll(ctx, s, op, scanTournament, query, args...)
}

// entryColumns are the entries columns in the order scanEntry reads them.
const entryColumns = `e.tournament_id, e.player, e.seq, e.key, e.section, e.number, e.rating, e.joined_at, e.withdrawn_at, e.annulled`

func scanEntry(row scanner) (Entry, error) {
	var e Entry
	err := row.Scan(&e.TournamentID, &e.Player, &e.Seq, &e.Key, &e.Section, &e.Number, &e.Rating, scanTime(&e.JoinedAt),
		scanTime(&e.WithdrawnAt), &e.Annulled)
	return e, err
}

// Entries returns the players of a tournament in the order they entered
// (withdrawn ones included); none is not an error.
func (s *Store) Entries(ctx context.Context, tournamentID string) ([]Entry, error) {
	return s.queryEntries(ctx, "entries", `SELECT `+entryColumns+` FROM entries e WHERE tournament_id = ? ORDER BY seq, player`, tournamentID)
}

// EntriesOf returns a player's entries (any case) in every tournament,
// by tournament id.
func (s *Store) EntriesOf(ctx context.Context, player string) ([]Entry, error) {
	return s.queryEntries(ctx, "entries of", `SELECT `+entryColumns+` FROM entries e WHERE player = ? ORDER BY tournament_id`, lower(player))
}

// PendingEntry returns player's (any case) unconfirmed request to enter
// the tournament; [ErrNotFound] if there is none.
func (s *Store) PendingEntry(ctx context.Context, tournamentID, player string) (PendingEntry, error) {
	const op = "pending entry"
	p := PendingEntry{TournamentID: tournamentID}
	err := s.read(ctx, op, func(tx *txn) error {
		err := tx.QueryRowContext(ctx, `SELECT player, key, asked_at FROM pending_entries WHERE tournament_id = ? AND player = ?`,
			tournamentID, lower(player)).Scan(&p.Player, &p.Key, scanTime(&p.AskedAt))
		if isNoRows(err) {
			return notFound(op, fmt.Sprintf("%q in tournament %q", player, tournamentID))
		}
		return err
	})
	return p, err
}

// queryEntries runs an entries query.
func (s *Store) queryEntries(ctx context.Context, op, query string, args ...any) ([]Entry, error) {
	return queryAll(ctx, s, op, scanEntry, query, args...)
}

// TournamentGames returns every game of a tournament with its Event
// (schedule place) filled, in schedule order: section, round, board,
// match game. Plies (and the players' leave) are loaded only with
// withPlies. None is not an error.
func (s *Store) TournamentGames(ctx context.Context, tournamentID string, withPlies bool) ([]*Game, error) {
	var games []*Game
	err := s.read(ctx, "tournament games", func(tx *txn) error {
		var err error
		games, err = scanAll(ctx, tx, scanGame, `SELECT `+gameColumns+` FROM games
WHERE id IN (SELECT game_id FROM pairings WHERE tournament_id = ?)`, tournamentID)
		if err != nil {
			return err
		}
		if err := loadEvents(ctx, tx, games); err != nil {
			return err
		}
		sortBySchedule(games)
		if !withPlies {
			return nil
		}
		leave := map[string][]notation.Leave{}
		for _, g := range games {
			for side, addr := range []string{g.Attackers, g.Defenders} {
				ls, ok := leave[addr]
				if !ok {
					if ls, err = readLeave(ctx, tx, addr); err != nil {
						return err
					}
					leave[addr] = ls
				}
				g.Leave[side] = ls
			}
		}
		return loadPlies(ctx, tx, games)
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// sqlEvents reads the tournament pairings of the games in a JSON list of ids.
const sqlEvents = `SELECT p.game_id, p.tournament_id, p.section, p.round, p.board, p.match_game,
	t.name, t.games_per_pairing, t.leave_days
FROM pairings p JOIN tournaments t ON t.id = p.tournament_id
WHERE p.game_id IN (SELECT value FROM json_each(?))`

// loadEvents fills the Event of the tournament games among games.
func loadEvents(ctx context.Context, tx *txn, games []*Game) error {
	byID := map[string]*Game{}
	var ids []string
	for _, g := range games {
		if g.TournamentID != "" {
			byID[g.ID] = g
			ids = append(ids, g.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, sqlEvents, string(list))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e := &GameEvent{}
		p := &e.Pairing
		if err := rows.Scan(&p.GameID, &p.TournamentID, &p.Section, &p.Round, &p.Board, &p.MatchGame,
			&e.Name, &e.GamesPerPairing, &e.LeaveDays); err != nil {
			return err
		}
		byID[p.GameID].Event = e
	}
	return rows.Err()
}

// sortBySchedule orders tournament games by section, round, board and
// match game; games without an Event go last, by id.
func sortBySchedule(games []*Game) {
	key := func(g *Game) [4]int {
		if g.Event == nil {
			return [4]int{1 << 30}
		}
		p := g.Event.Pairing
		return [4]int{p.Section, p.Round, p.Board, p.MatchGame}
	}
	slices.SortFunc(games, func(a, b *Game) int {
		ka, kb := key(a), key(b)
		for i := range ka {
			if ka[i] != kb[i] {
				return ka[i] - kb[i]
			}
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
}

// dayLayout days: tournaments' start and closing days are stored as
// YYYY-MM-DD, as leave days are.

// fmtDay formats the UTC day of t.
func fmtDay(t time.Time) string { return t.UTC().Format(dayLayout) }

// nullDay formats a day, or gives NULL for the zero time.
func nullDay(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return fmtDay(t)
}

// dbDay is a day column as scanned: TEXT YYYY-MM-DD, maybe NULL, read as
// 00:00 UTC of the day.
type dbDay struct{ t *time.Time }

// Scan implements sql.Scanner.
func (d dbDay) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d.t = time.Time{}
		return nil
	case string:
		t, err := time.Parse(dayLayout, v)
		if err != nil {
			return err
		}
		*d.t = t
		return nil
	case []byte:
		return d.Scan(string(v))
	}
	return fmt.Errorf("day column holds %T", src)
}

func scanDay(t *time.Time) sql.Scanner { return dbDay{t} }

// UnsettledWithdrawals returns the entries of players who withdrew from a
// running tournament and still have a running game in it: the referee
// ends those games (Decision T3) in a change of its own.
func (s *Store) UnsettledWithdrawals(ctx context.Context) ([]Entry, error) {
	return s.queryEntries(ctx, "unsettled withdrawals", `SELECT `+entryColumns+` FROM entries e
WHERE e.withdrawn_at IS NOT NULL
	AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = e.tournament_id AND t.status = 'running')
	AND (EXISTS (SELECT 1 FROM games g WHERE g.attackers = e.player AND g.tournament_id = e.tournament_id AND g.status = 'active')
		OR EXISTS (SELECT 1 FROM games g WHERE g.defenders = e.player AND g.tournament_id = e.tournament_id AND g.status = 'active'))
ORDER BY e.tournament_id, e.withdrawn_at, e.player`)
}

// TournamentResults returns the games of a tournament with only what its
// standings need, in schedule order: each game's ID, players, Status and
// Result, and its Event with the schedule place (Name,
// GamesPerPairing and LeaveDays are the event's). It reads one row per
// game through the pairings' index, a fraction of what TournamentGames
// reads, so that the standings of a 9,900-game event take well under a
// tenth of a second (docs/performance.md). None is not an error.
func (s *Store) TournamentResults(ctx context.Context, tournamentID string) ([]*Game, error) {
	var games []*Game
	err := s.read(ctx, "tournament results", func(tx *txn) error {
		ev := GameEvent{}
		err := tx.QueryRowContext(ctx, `SELECT name, games_per_pairing, leave_days FROM tournaments WHERE id = ?`, tournamentID).
			Scan(&ev.Name, &ev.GamesPerPairing, &ev.LeaveDays)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT g.id, g.attackers, g.defenders, g.status, g.result,
	p.section, p.round, p.board, p.match_game
FROM pairings p INDEXED BY pairings_tournament JOIN games g ON g.id = p.game_id
WHERE p.tournament_id = ?
ORDER BY p.section, p.round, p.board, p.match_game`, tournamentID)
		if err != nil {
			return err
		}
		defer rows.Close()
		// the players, statuses and results repeat: one string each
		words := map[string]string{}
		intern := func(b sql.RawBytes) string {
			if w, ok := words[string(b)]; ok {
				return w
			}
			w := string(b)
			words[w] = w
			return w
		}
		var att, def, status, result sql.RawBytes
		for rows.Next() {
			g := &Game{TournamentID: tournamentID}
			e := ev
			p := &e.Pairing
			if err := rows.Scan(&g.ID, &att, &def, &status, &result, &p.Section, &p.Round, &p.Board, &p.MatchGame); err != nil {
				return err
			}
			g.Attackers, g.Defenders, g.Status, g.Result = intern(att), intern(def), GameStatus(intern(status)), intern(result)
			p.GameID, p.TournamentID = g.ID, tournamentID
			g.Event = &e
			games = append(games, g)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}
