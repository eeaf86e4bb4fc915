package tournaments

import (
	"errors"
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// An event as one session sees it, at the bottom of the package: its
// entries, its sections and standings (computed by package club and
// package tournament, the session's results included), whether its last
// game is over, and the errors of the director's operations on it. It
// reads nothing of the module's state.

// event is a tournament as one session sees it: the stored row, its
// entries and its games (the session's tables override the stored copies).
type event struct {
	t       *archive.Tournament
	entries []archive.Entry
	games   []*archive.Game // stored results (archive.Store.TournamentResults), in schedule order
	write   bool            // the tournament row is written (its version bumped)
}

// entry returns the entry of player in ev and whether there is one.
func (ev *event) entry(player string) (*archive.Entry, bool) {
	for i := range ev.entries {
		if ev.entries[i].Player == player {
			return &ev.entries[i], true
		}
	}
	return nil, false
}

// Errors of the tournament operations of the director (StartTournament,
// WithdrawPlayer), wrapped with the detail.
var (
	// ErrNoTournament: no tournament has the id.
	ErrNoTournament = errors.New("server: no such tournament")
	// ErrTournamentState: the tournament is not in the state the
	// operation needs (starting one that started, withdrawing from one
	// that is over).
	ErrTournamentState = errors.New("server: the tournament cannot do that now")
	// ErrTooFewPlayers: fewer than three players (or a group of fewer
	// than two) at the start.
	ErrTooFewPlayers = errors.New("server: too few players")
	// ErrNotEntered: the player is not (or no longer) in the tournament.
	ErrNotEntered = errors.New("server: not a player of the tournament")
)

// MinPlayers is the fewest players a tournament starts with,
// club.MinPlayers (a tournament file listing fewer is refused there).
const MinPlayers = club.MinPlayers

// live returns the session's copy of a game of ev: the table's game when
// the session loaded it, the stored one otherwise.
func live(ss *referee.Session, g *archive.Game) *archive.Game {
	if t, ok := ss.Tables[g.ID]; ok {
		return t.Game
	}
	return g
}

// gameResult is a stored game's result as package tournament counts it:
// Ongoing while it runs and for an annulled game.
func gameResult(g *archive.Game) engine.Result { return club.GameResult(g) }

// sections returns ev's round robins (one per group) as package
// tournament computes standings from, the session's results included.
// Before the start they have players and no games.
func sections(ss *referee.Session, ev *event) []tournament.Section {
	return eventSections(ev.t, ev.entries, ev.games, func(g *archive.Game) *archive.Game { return live(ss, g) })
}

// eventSections builds the sections of tournament t from its entries and
// games; live maps a stored game to its current copy.
func eventSections(t *archive.Tournament, entries []archive.Entry, games []*archive.Game, live func(*archive.Game) *archive.Game) []tournament.Section {
	return club.Sections(t, entries, games, live)
}

// EventStandings computes the standings of a tournament from what the
// archive holds: one per group (one for a single round robin), Decision
// T2 and T3 applied. For `taflmail tournament standings` and the mails.
func EventStandings(t *archive.Tournament, entries []archive.Entry, games []*archive.Game) ([]*tournament.Standings, error) {
	return club.EventStandings(t, entries, games)
}

// standings returns ev's standings as this session leaves them.
func standings(ss *referee.Session, ev *event) ([]*tournament.Standings, error) {
	var out []*tournament.Standings
	for _, sec := range sections(ss, ev) {
		st, err := sec.Standings()
		if err != nil {
			return nil, fmt.Errorf("server: standings of %s: %w", ev.t.ID, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// complete reports whether every game of a running ev is over (finished,
// annulled included) as this session leaves them.
func complete(ss *referee.Session, ev *event) bool {
	if ev.t.Status != archive.TournamentRunning || len(ev.games) == 0 {
		return false
	}
	for _, g := range ev.games {
		if live(ss, g).Status != archive.Finished {
			return false
		}
	}
	return true
}

// TournamentExport writes the games of a tournament (archive.Store's
// TournamentGames with plies, in schedule order) as one native record
// file: the records one after the other, each with the event's name as
// its Event tag, its Round, its result ("*" for a game that goes on or
// was annulled) and its clock data, which `taflmail validate`, `standings`
// and `ratings` read. The players' leave is cut to the event's allowance
// as the referee counts it.
func TournamentExport(games []*archive.Game) ([]byte, error) { return club.ExportEvent(games) }

// entryOpen reports whether t takes entries by mail at now: created, with
// open entry, and its closing day not yet over (it closes at 24:00 UTC of
// that day).
func entryOpen(t *archive.Tournament, now time.Time) bool {
	return t.Status == archive.TournamentCreated && t.OpenEntry && now.Before(t.EntryCloses.AddDate(0, 0, 1))
}
