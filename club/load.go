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
// server/cmd_private.go); a tournament game is always public.
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
	key, err := store.PseudonymKey(ctx)
	if err != nil {
		return nil, err
	}
	chosen, err := store.PublicNames(ctx)
	if err != nil {
		return nil, err
	}
	stored, err := store.Games(ctx, archive.GameFilter{})
	if err != nil {
		return nil, err
	}
	ts, err := store.Tournaments(ctx, archive.TournamentFilter{})
	if err != nil {
		return nil, err
	}
	type eventData struct {
		t       *archive.Tournament
		entries []archive.Entry
		games   []*archive.Game
	}
	var evs []eventData
	for _, t := range ts {
		if t.Status == archive.TournamentCancelled {
			continue
		}
		t, es, gs, err := LoadEvent(ctx, store, t.ID, false)
		if err != nil {
			return nil, err
		}
		evs = append(evs, eventData{t, es, gs})
	}
	ratings := map[string][]archive.Rating{}
	history := map[[2]string][]archive.RatingRecord{}
	for _, v := range engine.Variants() {
		rs, err := store.Ratings(ctx, v.Name)
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 {
			continue
		}
		ratings[v.Name] = rs
		for _, r := range rs {
			h, err := store.RatingHistory(ctx, r.Player, v.Name)
			if err != nil {
				return nil, err
			}
			history[[2]string{r.Player, v.Name}] = h
		}
	}

	// Every address that will be shown gets its public name here, so
	// that pseudonyms are unique among them (NewNames).
	var addrs []string
	for _, g := range stored {
		if public(g) {
			addrs = append(addrs, g.Attackers, g.Defenders)
		}
	}
	for _, e := range evs {
		for _, en := range e.entries {
			addrs = append(addrs, en.Player)
		}
	}
	for _, rs := range ratings {
		for _, r := range rs {
			addrs = append(addrs, r.Player)
		}
	}
	c := newClub(now, NewNames(key, chosen, addrs))
	c.JoinAddress = o.JoinAddress

	// Games: every public one; tournament games get their place below.
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
	for _, e := range evs {
		ev, err := c.eventOf(e.t, e.entries, e.games, byID)
		if err != nil {
			return nil, err
		}
		c.Events = append(c.Events, ev)
	}
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
	c.record = func(ctx context.Context, g *Game) (*notation.Replay, error) {
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
	c.finish()
	return c, nil
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
