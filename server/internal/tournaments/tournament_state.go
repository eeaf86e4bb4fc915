package tournaments

import (
	"context"
	"errors"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/tournament"
)

// The tournament module's state in a session: what one session changes
// of tournaments and ratings (tourneyState, its ratingWork), behind its
// one accessor, tourneyOf, keyed by Module's type (its hooks are in
// tournament.go, at the top); the events as the session loads them
// (loadEvent) and the entries it changes (setEntry); and change, the
// session of a change no mail caused, in which the director's and the
// scheduler's operations run.

// Module is tournaments and ratings as a module of the core (the hooks of
// internal/referee's module.go): the tournament rows, entries and
// ratings a mail writes, the games that ended rated and their events'
// standings told, the events started on their start date, watching an
// event. server's assembly lists it fourth, after consent.
type Module struct{}

// tourneyState is what one session changes of tournaments and ratings.
type tourneyState struct {
	events  map[string]*event      // by tournament id, loaded once
	entries []archive.Entry        // entries to write
	pending []archive.PendingEntry // join requests to keep until confirmed
	ratings map[string]*ratingWork
	// stored caches the stored ratings read (currentRating), by player
	// and variant; Games 0 for a player without one.
	stored map[[2]string]archive.Rating
	ended  bool // gamesEnded ran
	// own are mails the referee sends of its own accord in this change
	// (a final crosstable, a start list): not replies, so not bound by
	// the caps of one mail's replies (caps.go).
	own []archive.OutboxMail
}

// ratingWork is one variant's ratings as a session changes them.
type ratingWork struct {
	variant string
	// state is the rating of every player loaded or rated so far;
	// loaded says whose stored rating was read (absent: a new player).
	state  map[string]tournament.PlayerRating
	loaded map[string]bool
	// games are the games rated in this session, in order, with their
	// ids; history the new history rows (incremental) and touched the
	// players whose rating changed.
	games   []archive.RatedGame
	history []archive.RatingRecord
	touched map[string]bool
	// full: a game ended before one already rated; the variant is rated
	// again from all its games and its rows replaced.
	full        bool
	allRatings  []archive.Rating
	allHistory  []archive.RatingRecord
	fullChanged bool
}

// tourneyOf returns the tournament module's state in ss, made on first
// use (referee.StateOf): the one way to it, for the package's files
// alone.
func tourneyOf(ss *referee.Session) *tourneyState {
	return referee.StateOf[tourneyState](ss, Module{})
}

// loadEvent returns the tournament id as the session ss sees it, loading it
// once; nil and a refusal (err.tournament.unknown) when there is none.
func loadEvent(ss *referee.Session, id string) (*event, error) {
	tst := tourneyOf(ss)
	if tst.events == nil {
		tst.events = map[string]*event{}
	}
	if ev, ok := tst.events[id]; ok {
		return ev, nil
	}
	t, err := ss.Server.TournamentPort().Tournament(ss.Ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, ss.Refuse("err.tournament.unknown", id)
	}
	if err != nil {
		return nil, err
	}
	es, err := ss.Server.TournamentPort().Entries(ss.Ctx, id)
	if err != nil {
		return nil, err
	}
	gs, err := ss.Server.TournamentPort().TournamentResults(ss.Ctx, id)
	if err != nil {
		return nil, err
	}
	ev := &event{t: t, entries: es, games: gs}
	tst.events[id] = ev
	return ev, nil
}

// setEntry records a changed entry of ev to be written with the session.
func setEntry(ss *referee.Session, ev *event, e archive.Entry) {
	if p, ok := ev.entry(e.Player); ok {
		*p = e
	} else {
		ev.entries = append(ev.entries, e)
	}
	tst := tourneyOf(ss)
	for i, w := range tst.entries {
		if w.TournamentID == e.TournamentID && w.Player == e.Player {
			tst.entries[i] = e
			return
		}
	}
	tst.entries = append(tst.entries, e)
}

// change decides and commits a change that no mail caused (the director's
// commands, the scheduler): fn works in a session of its own, whose
// replies and own mails go out with the change, which is decided again
// when a game or tournament it writes changed meanwhile. A refusal of fn
// is returned as an error with its text.
func change(s *referee.Server, ctx context.Context, seed string, fn func(ss *referee.Session) error) error {
	_, err := s.Transact(ctx, referee.OwnCause(seed), referee.Steps{
		Decide: func(ss *referee.Session, _ *archive.Change) (referee.Verdict, error) {
			ss.Lang, ss.Own = s.Opts.DefaultLanguage, true
			return referee.CommitReplies, fn(ss)
		},
	})
	return err
}
