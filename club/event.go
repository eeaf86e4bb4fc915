package club

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// NoEventError is returned by [LoadEvent] for an id the archive does not
// hold; its text names the id and the command that lists them. It
// matches archive.ErrNotFound with errors.Is.
type NoEventError struct{ ID string }

func (e *NoEventError) Error() string {
	return fmt.Sprintf("no tournament %q in the archive ('taflmail tournament list' lists them)", e.ID)
}

// Is reports archive.ErrNotFound.
func (e *NoEventError) Is(target error) bool { return target == archive.ErrNotFound }

// LoadEvent reads a tournament, its entries and its games (in schedule
// order, with their plies when withPlies) from the archive. An unknown
// id is a *NoEventError.
func LoadEvent(ctx context.Context, store *archive.Store, id string, withPlies bool) (*archive.Tournament, []archive.Entry, []*archive.Game, error) {
	t, err := store.Tournament(ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, nil, nil, &NoEventError{ID: id}
	}
	if err != nil {
		return nil, nil, nil, err
	}
	es, err := store.Entries(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	gs, err := store.TournamentGames(ctx, id, withPlies)
	if err != nil {
		return nil, nil, nil, err
	}
	return t, es, gs, nil
}

// GameResult is a stored game's result as package tournament counts it:
// engine.Ongoing while it runs and for an annulled game (Decision T3:
// the archive keeps an annulled game unfinished).
func GameResult(g *archive.Game) engine.Result {
	if g.Status != archive.Finished {
		return engine.Ongoing
	}
	switch g.Result {
	case "attackers":
		return engine.AttackersWin
	case "defenders":
		return engine.DefendersWin
	case "draw":
		return engine.Draw
	}
	return engine.Ongoing
}

// Sections builds the round robins of tournament t (one per group,
// CORRESPONDENCE.md §6.2) from its entries and games as package
// tournament computes standings from them: players in Berger number
// order, the withdrawn among them marked (Decision T3), every game with
// its place in the schedule and its result. live maps a stored game to
// its current copy (the referee's session passes the games it changed;
// nil keeps each game as stored). Before the start the sections have
// players and no games; a player who entered and withdrew before the
// start is in none.
func Sections(t *archive.Tournament, entries []archive.Entry, games []*archive.Game, live func(*archive.Game) *archive.Game) []tournament.Section {
	n := max(t.Groups, 1)
	secs := make([]tournament.Section, n)
	for i := range secs {
		secs[i].Event = t.Name
		if n > 1 {
			secs[i].Number = i + 1
		}
	}
	es := slices.Clone(entries)
	slices.SortStableFunc(es, func(a, b archive.Entry) int { return cmp.Compare(a.Number, b.Number) })
	for _, e := range es {
		k := max(e.Section, 1) - 1
		if k >= n {
			continue
		}
		if e.Section == 0 && t.Status != archive.TournamentCreated {
			continue // entered, then withdrew before the start: never paired
		}
		if t.Status == archive.TournamentCreated && e.Withdrawn() {
			continue
		}
		secs[k].Players = append(secs[k].Players, e.Player)
		if e.Withdrawn() {
			secs[k].Withdrawn = append(secs[k].Withdrawn, e.Player)
		}
	}
	for _, g := range games {
		if g.Event == nil {
			continue
		}
		if live != nil {
			g = live(g)
		}
		p := g.Event.Pairing
		k := p.Section - 1
		if k < 0 || k >= n {
			continue
		}
		secs[k].Games = append(secs[k].Games, tournament.Game{Section: p.Section, Round: p.Round, Board: p.Board,
			MatchGame: p.MatchGame, Attackers: g.Attackers, Defenders: g.Defenders, Result: GameResult(g)})
	}
	return secs
}

// EventStandings computes the standings of a tournament from what the
// archive holds: one per group (one for a single round robin), Decisions
// T2 and T3 applied. `taflmail tournament standings`, the referee's
// mails and the event pages show these. It fails only on entries and
// games that do not fit together (tournament.ErrUnknownPlayer).
func EventStandings(t *archive.Tournament, entries []archive.Entry, games []*archive.Game) ([]*tournament.Standings, error) {
	return SectionStandings(t.ID, Sections(t, entries, games, nil))
}

// SectionStandings computes the standings of each section; id names the
// event in an error.
func SectionStandings(id string, secs []tournament.Section) ([]*tournament.Standings, error) {
	out := make([]*tournament.Standings, 0, len(secs))
	for i := range secs {
		st, err := secs[i].Standings()
		if err != nil {
			return nil, fmt.Errorf("club: standings of %s: %w", id, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// NotAPlayerError is returned by [RecordSections] for a withdrawn player
// who plays in no event of the records.
type NotAPlayerError struct{ Player string }

func (e *NotAPlayerError) Error() string {
	return fmt.Sprintf("club: %q is not a player of any event in the records", e.Player)
}

// RecordSections builds the sections of the events of a set of game
// records as `taflmail standings` computes them (tournament.
// SectionsFromRecords, CORRESPONDENCE.md §6.5) and marks the withdrawn
// players (Decision T3; records do not say who withdrew) in every
// section they play in. Records that cannot be used are left out and
// returned in problems (each wrapping tournament.ErrRecord); a withdrawn
// player found in no section is a *NotAPlayerError.
func RecordSections(games []*notation.Game, withdrawn []string) (secs []tournament.Section, problems []error, err error) {
	secs, problems = tournament.SectionsFromRecords(games)
	for _, p := range withdrawn {
		found := false
		for i := range secs {
			if slices.Contains(secs[i].Players, p) {
				secs[i].Withdrawn = append(secs[i].Withdrawn, p)
				found = true
			}
		}
		if !found {
			return secs, problems, &NotAPlayerError{Player: p}
		}
	}
	return secs, problems, nil
}
