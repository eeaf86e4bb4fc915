package clubtest

import (
	"fmt"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/tournament"
)

// tournament creates, starts and plays a round robin with matches of
// two games among players: to the end when finished, else about half of
// its games, the last player withdrawing with their games annulled.
func (b *builder) tournament(id, name string, players []string, finished, rated bool) error {
	start := time.Date(b.now.Year(), b.now.Month(), b.now.Day(), 0, 0, 0, 0, time.UTC)
	t := &archive.Tournament{ID: id, Name: name, Variant: "copenhagen", TimeControl: "30d+1d", Groups: 1, GamesPerPairing: 2,
		StartDate: start, Rated: rated, LeaveDays: 20, Status: archive.TournamentCreated}
	var entries []archive.Entry
	for i, p := range players {
		entries = append(entries, archive.Entry{TournamentID: id, Player: p, Key: b.secret(), Seq: i + 1})
	}
	if err := b.commit(archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{t}, Entries: entries}}}); err != nil {
		return fmt.Errorf("clubtest: create %s: %w", id, err)
	}
	b.tick(time.Hour)
	sched, err := tournament.RoundRobin(players, tournament.Options{GamesPerPairing: 2})
	if err != nil {
		return err
	}
	t.Status, t.StartedAt = archive.TournamentRunning, b.now
	for i := range entries {
		entries[i].Section, entries[i].Number = 1, i+1
	}
	if err := b.commit(archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{t}, Entries: entries}}}); err != nil {
		return fmt.Errorf("clubtest: start %s: %w", id, err)
	}
	withdrawn := ""
	if !finished {
		withdrawn = players[len(players)-1]
	}
	for i, s := range sched {
		g := b.newGame(s.Attackers, s.Defenders, t.Variant, t.TimeControl)
		g.TournamentID, g.Rated = id, rated
		pairing := archive.Pairing{GameID: g.ID, TournamentID: id, Section: 1, Round: s.Round, Board: s.Board, MatchGame: s.MatchGame}
		annulled := s.Attackers == withdrawn || s.Defenders == withdrawn
		if annulled {
			// withdrawn before a game of theirs finished (Decision T3)
			g.Status, g.Reason, g.EndedAt = archive.Finished, "annulled", b.now
		}
		if err := b.commit(archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{&archive.TournamentChange{Pairings: []archive.Pairing{pairing}}}}); err != nil {
			return fmt.Errorf("clubtest: pair %s: %w", g.ID, err)
		}
		if annulled {
			b.f.Games++
			continue
		}
		if err := b.playAndStore(g, finished || i%2 == 0, nil); err != nil {
			return err
		}
	}
	if withdrawn != "" {
		for i := range entries {
			if entries[i].Player == withdrawn {
				entries[i].WithdrawnAt, entries[i].Annulled = b.now, true
			}
		}
		if err := b.commit(archive.Change{Writes: []archive.Write{&archive.TournamentChange{Entries: entries}}}); err != nil {
			return err
		}
	}
	if finished {
		b.tick(time.Hour)
		t.Status, t.FinishedAt = archive.TournamentFinished, b.now
		if err := b.commit(archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{t}}}}); err != nil {
			return err
		}
	}
	return nil
}

// upcoming creates an event open for entry with two players entered, a
// pending request, and a cancelled one.
func (b *builder) upcoming() error {
	b.f.Upcoming = "summer-2027"
	start := time.Date(b.now.Year(), b.now.Month(), b.now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
	t := &archive.Tournament{ID: b.f.Upcoming, Name: "Summer Brandubh 2027", Variant: "brandubh", TimeControl: "10d+1d", Groups: 1,
		GamesPerPairing: 2, StartDate: start, LeaveDays: 10, OpenEntry: true, EntryCloses: start.AddDate(0, 0, -3), Status: archive.TournamentCreated}
	c := &archive.Tournament{ID: "cancelled-2026", Name: "Cancelled Cup", Variant: "tablut", TimeControl: "5d/move", Groups: 1,
		GamesPerPairing: 1, StartDate: start, Status: archive.TournamentCancelled}
	return b.commit(archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{t, c},
		Entries: []archive.Entry{
			{TournamentID: t.ID, Player: b.player("s", 1), Key: b.secret(), Seq: 1},
			{TournamentID: t.ID, Player: b.player("s", 2), Key: b.secret(), Seq: 2},
		},
		Pending: []archive.PendingEntry{{TournamentID: t.ID, Player: b.player("pending", 9), Key: b.secret()}},
	}}})
}

// casual plays the casual games: finished rated ones, a running timed
// one, a private one, a challenge, a declined one and one against the
// engine.
func (b *builder) casual() error {
	x, y := b.player("c", 1), b.player("c", 2)
	for i := 0; i < b.o.Casual; i++ {
		att, def := x, y
		if i%2 == 1 {
			att, def = y, x
		}
		if i%3 == 2 {
			att = b.player("p", 1)
		}
		g := b.newGame(att, def, "copenhagen", "")
		g.Rated = true
		if err := b.playAndStore(g, true, nil); err != nil {
			return err
		}
	}
	timed := b.newGame(x, b.player("p", 0), "brandubh", "3d/move")
	if err := b.playAndStore(timed, false, nil); err != nil {
		return err
	}
	priv := b.newGame(x, y, "copenhagen", "")
	priv.DefendersPrivate, priv.Rated = true, true
	b.f.Private = append(b.f.Private, priv.ID)
	if err := b.playAndStore(priv, true, nil); err != nil {
		return err
	}
	inv := b.newGame(y, b.player("invited", 5), "tablut", "")
	inv.Status, inv.StartedAt = archive.Invited, time.Time{}
	dec := b.newGame(x, b.player("declined", 6), "tablut", "")
	dec.Status, dec.StartedAt = archive.Declined, time.Time{}
	b.f.Hidden = append(b.f.Hidden, inv.ID, dec.ID)
	if err := b.commit(archive.Change{Games: []*archive.Game{inv, dec}}); err != nil {
		return err
	}
	eng := b.newGame(y, club.EngineAddress, "brandubh", "")
	eng.EngineLevel = 2
	return b.playAndStore(eng, true, nil)
}

// rate rates the finished rated games in the order they ended and
// stores the ratings and histories, one update per variant.
func (b *builder) rate() error {
	byVariant := map[string][]ratedGame{}
	var order []string
	for _, g := range b.rated {
		if _, ok := byVariant[g.g.Variant]; !ok {
			order = append(order, g.g.Variant)
		}
		byVariant[g.g.Variant] = append(byVariant[g.g.Variant], g)
	}
	var ups []archive.RatingUpdate
	for _, v := range order {
		rs := tournament.NewRatings()
		u := archive.RatingUpdate{Variant: v, Replace: true}
		gameIDs := map[string][]string{}
		for _, g := range byVariant[v] {
			if err := rs.Rate(g.g); err != nil {
				return err
			}
			u.Games = append(u.Games, archive.RatedGame{GameID: g.id, Variant: v, Attackers: g.g.Attackers, Defenders: g.g.Defenders, Result: g.res, End: g.g.End})
			gameIDs[g.g.Attackers] = append(gameIDs[g.g.Attackers], g.id)
			gameIDs[g.g.Defenders] = append(gameIDs[g.g.Defenders], g.id)
		}
		for _, p := range rs.All() {
			u.Ratings = append(u.Ratings, archive.Rating{Player: p.Player, Variant: v, Games: p.Games, LastEnd: p.Last,
				Value: archive.RatingValue{R: p.Rating.R, RD: p.Rating.RD, Volatility: p.Rating.Volatility}})
			for i, h := range p.History {
				side := "attackers"
				if h.Side != 0 {
					side = "defenders"
				}
				u.History = append(u.History, archive.RatingRecord{Player: p.Player, Variant: v, N: i + 1, GameID: gameIDs[p.Player][i],
					End: h.End, Opponent: h.Opponent, Side: side, Score: h.Score, IdlePeriods: h.IdlePeriods,
					Before: archive.RatingValue{R: h.Before.R, RD: h.Before.RD, Volatility: h.Before.Volatility},
					After:  archive.RatingValue{R: h.After.R, RD: h.After.RD, Volatility: h.After.Volatility}})
			}
		}
		ups = append(ups, u)
	}
	return b.commit(archive.Change{Writes: []archive.Write{&archive.TournamentChange{Ratings: ups}}})
}
