package club

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// LoadOptions are the settings of [Load].
type LoadOptions struct {
	// Now is the instant of the snapshot; zero for the clock.
	Now time.Time
	// JoinAddress is the referee's address (config server.address), to
	// which players mail "join"; "" leaves it out.
	JoinAddress string
}

// Private reports whether a stored game is kept from everyone but its
// players: a casual game either player made private ("private",
// server/internal/correspondence/cmd_private.go); a tournament game is always public.
func Private(g *archive.Game) bool {
	return (g.AttackersPrivate || g.DefendersPrivate) && g.TournamentID == ""
}

// public reports whether a stored game appears on the pages: started
// (active or finished) and not private. Challenges, declined games and
// private games never do.
func public(g *archive.Game) bool {
	return (g.Status == archive.Active || g.Status == archive.Finished) && !Private(g)
}

// Load reads a snapshot of the club from the archive: every tournament
// but the cancelled ones with its entries, standings and games, every
// public game, the rating lists of every variant with each player's
// history, and the public names (the archive's pseudonym key and the
// names players chose). Games' plies are read only when a record is
// asked for (Club.Record), and for the clocks of running timed games.
// It fails when the archive does.
func Load(ctx context.Context, store *archive.Store, o LoadOptions) (*Club, error) {
	now := o.Now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	a, err := readArchive(ctx, store)
	if err != nil {
		return nil, err
	}
	c := newClub(now, NewNames(a.key, a.chosen, a.shownAddresses()))
	c.JoinAddress = o.JoinAddress

	// Games: every public one; tournament games get their place below.
	byID, err := c.loadGames(ctx, store, a.stored, now)
	if err != nil {
		return nil, err
	}
	for _, e := range a.events {
		ev, err := c.eventOf(e.t, e.entries, e.games, byID)
		if err != nil {
			return nil, err
		}
		c.Events = append(c.Events, ev)
	}
	c.loadRatings(a.ratings, a.history, byID, now)
	c.record = c.storeRecord(store)
	c.finish()
	return c, nil
}

// loadedEvent is a tournament as [LoadEvent] reads it.
type loadedEvent struct {
	t       *archive.Tournament
	entries []archive.Entry
	games   []*archive.Game
}

// loadedArchive is what Load reads from the archive before it builds
// the snapshot.
type loadedArchive struct {
	key     []byte
	chosen  map[string]string
	stored  []*archive.Game
	events  []loadedEvent
	ratings map[string][]archive.Rating          // by variant name; only variants with ratings
	history map[[2]string][]archive.RatingRecord // by player and variant name
}

// readArchive reads, in this order, the pseudonym key, the chosen
// names, every game, every tournament but the cancelled ones (with
// LoadEvent) and the rating list and each rated player's history of
// every variant. It fails with the archive's first error.
func readArchive(ctx context.Context, store *archive.Store) (*loadedArchive, error) {
	a := &loadedArchive{}
	var err error
	if a.key, err = store.PseudonymKey(ctx); err != nil {
		return nil, err
	}
	if a.chosen, err = store.PublicNames(ctx); err != nil {
		return nil, err
	}
	if a.stored, err = store.Games(ctx, archive.GameFilter{}); err != nil {
		return nil, err
	}
	if a.events, err = readEvents(ctx, store); err != nil {
		return nil, err
	}
	if a.ratings, a.history, err = readRatings(ctx, store); err != nil {
		return nil, err
	}
	return a, nil
}

// readEvents reads every tournament of the archive but the cancelled
// ones, in the archive's order, with its entries and games (LoadEvent,
// no plies). It fails when the archive does.
func readEvents(ctx context.Context, store *archive.Store) ([]loadedEvent, error) {
	ts, err := store.Tournaments(ctx, archive.TournamentFilter{})
	if err != nil {
		return nil, err
	}
	var evs []loadedEvent
	for _, t := range ts {
		if t.Status == archive.TournamentCancelled {
			continue
		}
		t, es, gs, err := LoadEvent(ctx, store, t.ID, false)
		if err != nil {
			return nil, err
		}
		evs = append(evs, loadedEvent{t, es, gs})
	}
	return evs, nil
}

// readRatings reads the rating list of every variant that has one, by
// variant name, and the rating history of each player on it, by player
// and variant name. It fails when the archive does.
func readRatings(ctx context.Context, store *archive.Store) (map[string][]archive.Rating, map[[2]string][]archive.RatingRecord, error) {
	ratings := map[string][]archive.Rating{}
	history := map[[2]string][]archive.RatingRecord{}
	for _, v := range engine.Variants() {
		rs, err := store.Ratings(ctx, v.Name)
		if err != nil {
			return nil, nil, err
		}
		if len(rs) == 0 {
			continue
		}
		ratings[v.Name] = rs
		for _, r := range rs {
			h, err := store.RatingHistory(ctx, r.Player, v.Name)
			if err != nil {
				return nil, nil, err
			}
			history[[2]string{r.Player, v.Name}] = h
		}
	}
	return ratings, history, nil
}

// shownAddresses lists every address the snapshot will show: the
// players of public games, of tournament entries and of rating lists.
// Each gets its public name from one NewNames, so that pseudonyms are
// unique among them.
func (a *loadedArchive) shownAddresses() []string {
	var addrs []string
	for _, g := range a.stored {
		if public(g) {
			addrs = append(addrs, g.Attackers, g.Defenders)
		}
	}
	for _, e := range a.events {
		for _, en := range e.entries {
			addrs = append(addrs, en.Player)
		}
	}
	for _, rs := range a.ratings {
		for _, r := range rs {
			addrs = append(addrs, r.Player)
		}
	}
	return addrs
}

// loadGames appends the Game of every public game of stored to c.Games
// and returns them by id. A running timed game is read in full from
// store for its clocks at now (none when its record does not replay).
// It fails when the archive does.
func (c *Club) loadGames(ctx context.Context, store *archive.Store, stored []*archive.Game, now time.Time) (map[string]*Game, error) {
	byID := map[string]*Game{}
	for _, sg := range stored {
		if !public(sg) {
			continue
		}
		g := c.gameOf(sg)
		byID[g.ID] = g
		c.Games = append(c.Games, g)
		if sg.Status == archive.Active && sg.TimeControl != "" {
			full, err := store.Game(ctx, sg.ID)
			if err != nil {
				return nil, err
			}
			LimitEventLeave(full)
			if r, err := full.Replay(); err == nil {
				g.Clocks = clocksAt(r, now)
			}
		}
	}
	return byID, nil
}

// loadRatings makes c's rating lists, one per variant with ratings in
// engine.Variants order, each sorted, ratings as of now. A history point
// links to its game and opponent when the game is one of byID.
func (c *Club) loadRatings(ratings map[string][]archive.Rating, history map[[2]string][]archive.RatingRecord, byID map[string]*Game, now time.Time) {
	for _, v := range engine.Variants() {
		rs := ratings[v.Name]
		if len(rs) == 0 {
			continue
		}
		l := &RatingList{Variant: v.Name, VariantTitle: v.Title}
		for _, r := range rs {
			now := RatingAt(r, now)
			pr := &Rating{Player: c.player(r.Player), Variant: v.Name, VariantTitle: v.Title,
				R: now.R, RD: now.RD, Volatility: now.Volatility, Games: r.Games, Last: r.LastEnd}
			for _, h := range history[[2]string{r.Player, v.Name}] {
				pt := RatingPoint{End: h.End, R: h.After.R, RD: h.After.RD, Score: h.Score}
				if g := byID[h.GameID]; g != nil {
					pt.Game, pt.Opponent = g, c.player(h.Opponent)
				}
				pr.History = append(pr.History, pt)
			}
			c.touch(r.LastEnd)
			l.Ratings = append(l.Ratings, pr)
		}
		sortRatings(l.Ratings)
		c.Ratings = append(c.Ratings, l)
	}
}

// storeRecord returns the c.record of a snapshot loaded from store: it
// reads a game of the snapshot afresh, players by public name and no
// challenger. It fails for a game not in the snapshot or no longer
// public, and when the archive does.
func (c *Club) storeRecord(store *archive.Store) func(context.Context, *Game) (*notation.Replay, error) {
	return func(ctx context.Context, g *Game) (*notation.Replay, error) {
		if c.games[g.ID] != g {
			return nil, fmt.Errorf("club: game %s is not in the snapshot", g.ID)
		}
		sg, err := store.Game(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		if !public(sg) {
			return nil, fmt.Errorf("club: game %s is not public", g.ID)
		}
		LimitEventLeave(sg)
		sg.Attackers, sg.Defenders = g.Attackers.Name, g.Defenders.Name
		sg.Challenger = ""
		return sg.Replay()
	}
}

// variantTitle returns the title of a variant by its engine name, the
// name itself when the engine does not know it.
func variantTitle(name string) string {
	if v, ok := engine.Lookup(name); ok {
		return v.Title
	}
	return name
}

// gameOf turns a public stored game into a Game.
func (c *Club) gameOf(sg *archive.Game) *Game {
	g := &Game{ID: sg.ID, Variant: sg.Variant, VariantTitle: variantTitle(sg.Variant),
		Attackers: c.player(sg.Attackers), Defenders: c.player(sg.Defenders),
		Status: string(sg.Status), Result: sg.Result, Reason: sg.Reason, TimeControl: sg.TimeControl,
		Rated: sg.Rated, Plies: sg.PlyCount, Started: sg.StartedAt, Ended: sg.EndedAt, Updated: sg.UpdatedAt}
	if sg.Status != archive.Finished {
		g.Result, g.Reason = "", ""
	}
	c.touch(sg.UpdatedAt)
	return g
}

// eventOf turns a stored tournament into an Event, linking its games
// (byID, the public games by id) in schedule order.
func (c *Club) eventOf(t *archive.Tournament, entries []archive.Entry, games []*archive.Game, byID map[string]*Game) (*Event, error) {
	e := &Event{ID: t.ID, Name: t.Name, Variant: t.Variant, VariantTitle: variantTitle(t.Variant), TimeControl: t.TimeControl,
		Groups: max(t.Groups, 1), GamesPerPairing: t.GamesPerPairing, Rated: t.Rated, LeaveDays: t.LeaveDays,
		OpenEntry: t.OpenEntry, EntryCloses: t.EntryCloses, StartDate: t.StartDate, Started: t.StartedAt, Finished: t.FinishedAt}
	switch t.Status {
	case archive.TournamentCreated:
		e.Status = StatusUpcoming
	case archive.TournamentRunning:
		e.Status = StatusRunning
	default:
		e.Status = StatusFinished
	}
	for _, ts := range []time.Time{t.CreatedAt, t.StartedAt, t.FinishedAt} {
		if ts.After(e.Updated) {
			e.Updated = ts
		}
	}
	annulled := map[string]bool{}
	for _, en := range entries {
		if en.Section == 0 && t.Status != archive.TournamentCreated {
			continue // withdrew before the start: never paired
		}
		if t.Status == archive.TournamentCreated && en.Withdrawn() {
			continue
		}
		p := c.player(en.Player)
		e.Players = append(e.Players, p)
		if en.Withdrawn() {
			e.Withdrawn = append(e.Withdrawn, p)
			annulled[strings.ToLower(en.Player)] = en.Annulled
		}
		for _, ts := range []time.Time{en.JoinedAt, en.WithdrawnAt} {
			if ts.After(e.Updated) {
				e.Updated = ts
			}
		}
	}
	if t.Status != archive.TournamentCreated {
		sts, err := EventStandings(t, entries, games)
		if err != nil {
			return nil, err
		}
		e.Standings = c.publicStandings(sts)
	}
	for _, sg := range games {
		g := byID[sg.ID]
		if g == nil {
			continue // not started: a tournament game is always public once it runs
		}
		g.Event = e
		if sg.Event != nil {
			p := sg.Event.Pairing
			g.Section, g.Round, g.Board, g.MatchGame, g.RoundTag = p.Section, p.Round, p.Board, p.MatchGame, sg.Event.RoundTag()
		}
		g.Annulled = annulled[strings.ToLower(sg.Attackers)] || annulled[strings.ToLower(sg.Defenders)]
		if g.Updated.After(e.Updated) {
			e.Updated = g.Updated
		}
		e.Games = append(e.Games, g)
	}
	c.touch(e.Updated)
	return e, nil
}
