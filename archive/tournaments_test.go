package archive_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// newTournament returns a rated round robin with matches of two games,
// starting on 2026-12-15, open for entry until 2026-12-10.
func newTournament(id string) *archive.Tournament {
	return &archive.Tournament{
		ID: id, Name: "Winter Cup", Variant: "copenhagen", TimeControl: "30d+1d", Groups: 1, GamesPerPairing: 2,
		StartDate: time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), Rated: true, LeaveDays: 20,
		OpenEntry: true, EntryCloses: time.Date(2026, 12, 10, 0, 0, 0, 0, time.UTC), Status: archive.TournamentCreated,
	}
}

func TestTournamentRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	tm := newTournament("winter")
	entries := []archive.Entry{
		{TournamentID: "winter", Player: "Alice@Example.org", Key: "k1", Seq: 1},
		{TournamentID: "winter", Player: "bob@example.net", Key: "k2", Seq: 2},
	}
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{tm}, Entries: entries}}})
	if tm.Version != 1 {
		t.Errorf("Version after insert = %d, want 1", tm.Version)
	}
	got, err := s.Tournament(ctx, "winter")
	if err != nil {
		t.Fatal(err)
	}
	want := *tm
	want.CreatedAt = t0
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("Tournament = %+v\nwant        %+v", *got, want)
	}
	if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Tournament(nope) = %v, want ErrNotFound", err)
	}
	es, err := s.Entries(ctx, "winter")
	if err != nil || len(es) != 2 || es[0].Player != "alice@example.org" || es[0].JoinedAt != t0 || es[1].Key != "k2" || es[0].Withdrawn() {
		t.Fatalf("Entries = %+v, %v", es, err)
	}
	if es, _ := s.EntriesOf(ctx, "BOB@example.net"); len(es) != 1 || es[0].TournamentID != "winter" {
		t.Errorf("EntriesOf(bob) = %+v", es)
	}

	// A stale version conflicts; the current one updates.
	stale := *got
	got.Status = archive.TournamentRunning
	got.StartedAt = t0.Add(time.Hour)
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{got}}}})
	if got.Version != 2 {
		t.Errorf("Version after update = %d, want 2", got.Version)
	}
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{&stale}}}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("stale update = %v, want ErrConflict", err)
	}
	dup := newTournament("winter")
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{dup}}}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("second insert of id winter = %v, want ErrConflict", err)
	}

	// Withdrawal replaces the entry.
	e := es[1]
	e.WithdrawnAt, e.Annulled = t0.Add(2*time.Hour), true
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Entries: []archive.Entry{e}}}})
	es, _ = s.Entries(ctx, "winter")
	if !es[1].Withdrawn() || !es[1].Annulled || es[1].WithdrawnAt != t0.Add(2*time.Hour) {
		t.Errorf("withdrawn entry = %+v", es[1])
	}

	list, err := s.Tournaments(ctx, archive.TournamentFilter{Status: archive.TournamentRunning})
	if err != nil || len(list) != 1 || list[0].ID != "winter" {
		t.Errorf("Tournaments(running) = %v, %v", list, err)
	}
	if list, _ := s.Tournaments(ctx, archive.TournamentFilter{Status: archive.TournamentCreated}); len(list) != 0 {
		t.Errorf("Tournaments(created) = %v, want none", list)
	}
}

func TestTournamentInvalid(t *testing.T) {
	s, _, _ := openStore(t)
	bad := []func(*archive.Tournament){
		func(t *archive.Tournament) { t.TimeControl = "none" },
		func(t *archive.Tournament) { t.GamesPerPairing = 3 },
		func(t *archive.Tournament) { t.EntryCloses = time.Time{} },
		func(t *archive.Tournament) { t.Status = "later" },
		func(t *archive.Tournament) { t.Name = "" },
	}
	for i, f := range bad {
		tm := newTournament("x")
		f(tm)
		err := s.Commit(context.Background(), archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{tm}}}})
		if !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("case %d: Commit = %v, want ErrInvalid", i, err)
		}
	}
}

// TestTournamentGames: pairings link games to their event; Store.Game
// and TournamentGames fill Event, and the record carries the event's
// name and the Round tag.
func TestTournamentGames(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	tm := newTournament("winter")
	tm.OpenEntry, tm.EntryCloses = false, time.Time{}
	g1, g2 := newGame("GAME01"), newGame("GAME02")
	g2.Attackers, g2.Defenders = g1.Defenders, g1.Attackers
	for _, g := range []*archive.Game{g1, g2} {
		g.TournamentID, g.Rated, g.StartedAt = "winter", true, t0
	}
	casual := newGame("CASUAL")
	commit(t, s, archive.Change{Games: []*archive.Game{g2, g1, casual}, Writes: []archive.Write{&archive.TournamentChange{
		Tournaments: []*archive.Tournament{tm},
		Pairings: []archive.Pairing{
			{GameID: "GAME02", TournamentID: "winter", Section: 1, Round: 1, Board: 1, MatchGame: 2},
			{GameID: "GAME01", TournamentID: "winter", Section: 1, Round: 1, Board: 1, MatchGame: 1},
		},
	}}})
	gs, err := s.TournamentGames(ctx, "winter", true)
	if err != nil || len(gs) != 2 {
		t.Fatalf("TournamentGames = %v, %v", gs, err)
	}
	if gs[0].ID != "GAME01" || gs[1].ID != "GAME02" || gs[0].Event == nil || gs[1].Event.Pairing.MatchGame != 2 || !gs[0].Rated {
		t.Errorf("TournamentGames order/event = %s %+v, %s %+v", gs[0].ID, gs[0].Event, gs[1].ID, gs[1].Event)
	}
	g := game(t, s, "GAME02")
	if g.Event == nil || g.Event.Name != "Winter Cup" || g.Event.RoundTag() != "1.1.2" || g.Event.LeaveDays != 20 {
		t.Errorf("Game(GAME02).Event = %+v", g.Event)
	}
	r, err := g.Replay()
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, tg := range r.Game.Tags {
		tags[tg.Name] = tg.Value
	}
	if tags["Event"] != "Winter Cup" || tags["Round"] != "1.1.2" {
		t.Errorf("record Event, Round = %q, %q; want Winter Cup, 1.1.2", tags["Event"], tags["Round"])
	}
	if c := game(t, s, "CASUAL"); c.Event != nil || c.Rated {
		t.Errorf("casual game: Event %+v, Rated %v", c.Event, c.Rated)
	}

	// TournamentResults: the same games in the same order, with what the
	// standings read equal to TournamentGames'; each game its own Event.
	g2.Status, g2.Result, g2.Reason = archive.Finished, "draw", "agreement"
	commit(t, s, archive.Change{Games: []*archive.Game{g2}})
	full, err := s.TournamentGames(ctx, "winter", false)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := s.TournamentResults(ctx, "winter")
	if err != nil || len(rs) != len(full) {
		t.Fatalf("TournamentResults = %v, %v; want %d games", rs, err, len(full))
	}
	for i, r := range rs {
		f := full[i]
		if r.ID != f.ID || r.Attackers != f.Attackers || r.Defenders != f.Defenders || r.Status != f.Status ||
			r.Result != f.Result || r.TournamentID != "winter" || r.Event == nil || *r.Event != *f.Event {
			t.Errorf("TournamentResults[%d] = %+v %+v\nTournamentGames        %+v %+v", i, r, r.Event, f, f.Event)
		}
	}
	if rs[1].Result != "draw" || rs[0].Event == rs[1].Event {
		t.Errorf("TournamentResults: result %q, events shared %v", rs[1].Result, rs[0].Event == rs[1].Event)
	}
	if none, err := s.TournamentResults(ctx, "nope"); err != nil || len(none) != 0 {
		t.Errorf("TournamentResults(nope) = %v, %v; want none", none, err)
	}

	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{
		Pairings: []archive.Pairing{{GameID: "GAME01", TournamentID: "winter", Section: 1, Round: 2, Board: 1, MatchGame: 1}}}}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("second pairing of a game = %v, want ErrConflict", err)
	}
}

// TestDueTournaments: a created tournament is due from 00:00 UTC of its
// start date.
func TestDueTournaments(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	a, b := newTournament("a"), newTournament("b")
	b.StartDate = b.StartDate.AddDate(0, 0, 3)
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{a, b}}}})
	next, ok, err := s.NextTournamentStart(ctx)
	if err != nil || !ok || !next.Equal(a.StartDate) {
		t.Errorf("NextTournamentStart = %v, %v, %v; want %v", next, ok, err, a.StartDate)
	}
	for _, tc := range []struct {
		at   time.Time
		want int
	}{
		{a.StartDate.Add(-time.Second), 0},
		{a.StartDate, 1},
		{b.StartDate.Add(time.Hour), 2},
	} {
		due, err := s.DueTournaments(ctx, tc.at)
		if err != nil || len(due) != tc.want {
			t.Errorf("DueTournaments(%v) = %d, %v; want %d", tc.at, len(due), err, tc.want)
		}
	}
	a.Status = archive.TournamentRunning
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{a}}}})
	if next, _, _ := s.NextTournamentStart(ctx); !next.Equal(b.StartDate) {
		t.Errorf("after a started, NextTournamentStart = %v, want %v", next, b.StartDate)
	}
}

func TestRatingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("GAME01")
	g.Status, g.Result, g.Rated = archive.Finished, "attackers", true
	commit(t, s, archive.Change{Games: []*archive.Game{g}})
	end := t0.Add(time.Hour)
	alice := archive.Rating{Player: "alice@example.org", Variant: "copenhagen", Value: archive.RatingValue{R: 1662.3, RD: 290.3, Volatility: 0.06}, Games: 1, LastEnd: end}
	bob := archive.Rating{Player: "bob@example.net", Variant: "copenhagen", Value: archive.RatingValue{R: 1337.7, RD: 290.3, Volatility: 0.06}, Games: 1, LastEnd: end}
	hist := []archive.RatingRecord{
		{Player: "alice@example.org", Variant: "copenhagen", N: 1, GameID: "GAME01", End: end, Opponent: "bob@example.net", Side: "attackers",
			Score: 1, Before: archive.RatingValue{R: 1500, RD: 350, Volatility: 0.06}, After: alice.Value},
		{Player: "bob@example.net", Variant: "copenhagen", N: 1, GameID: "GAME01", End: end, Opponent: "alice@example.org", Side: "defenders",
			Score: 0, Before: archive.RatingValue{R: 1500, RD: 350, Volatility: 0.06}, After: bob.Value},
	}
	rg := archive.RatedGame{GameID: "GAME01", Variant: "copenhagen", Attackers: g.Attackers, Defenders: g.Defenders, Result: "attackers", End: end}
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Ratings: []archive.RatingUpdate{{
		Variant: "copenhagen", Games: []archive.RatedGame{rg}, Ratings: []archive.Rating{alice, bob}, History: hist}}}}})
	r, err := s.Rating(ctx, "ALICE@example.org", "copenhagen")
	if err != nil || r != alice {
		t.Errorf("Rating(alice) = %+v, %v; want %+v", r, err, alice)
	}
	if _, err := s.Rating(ctx, "alice@example.org", "brandubh"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("Rating(alice, brandubh) = %v, want ErrNotFound", err)
	}
	if rs, _ := s.Ratings(ctx, "copenhagen"); len(rs) != 2 || rs[0] != alice {
		t.Errorf("Ratings(copenhagen) = %+v", rs)
	}
	if rs, _ := s.RatingsOf(ctx, "bob@example.net"); len(rs) != 1 || rs[0] != bob {
		t.Errorf("RatingsOf(bob) = %+v", rs)
	}
	h, err := s.RatingHistory(ctx, "bob@example.net", "copenhagen")
	if err != nil || len(h) != 1 || !reflect.DeepEqual(h[0], hist[1]) {
		t.Errorf("RatingHistory(bob) = %+v, %v", h, err)
	}
	games, err := s.RatedGames(ctx, "copenhagen")
	rg.Seq = 1
	if err != nil || len(games) != 1 || games[0] != rg {
		t.Errorf("RatedGames = %+v, %v; want %+v", games, err, rg)
	}
	// A game is rated once.
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Ratings: []archive.RatingUpdate{{
		Variant: "copenhagen", Games: []archive.RatedGame{rg}}}}}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("rating a game twice = %v, want ErrConflict", err)
	}
	// Replace drops every rating and history row of the variant.
	carol := archive.Rating{Player: "carol@example.org", Variant: "copenhagen", Value: archive.RatingValue{R: 1500, RD: 350, Volatility: 0.06}, Games: 1, LastEnd: end}
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Ratings: []archive.RatingUpdate{{
		Variant: "copenhagen", Replace: true, Ratings: []archive.Rating{carol}}}}}})
	if rs, _ := s.Ratings(ctx, "copenhagen"); len(rs) != 1 || rs[0] != carol {
		t.Errorf("after Replace, Ratings = %+v", rs)
	}
	if h, _ := s.RatingHistory(ctx, "alice@example.org", "copenhagen"); len(h) != 0 {
		t.Errorf("after Replace, alice's history = %+v", h)
	}
	if games, _ := s.RatedGames(ctx, "copenhagen"); len(games) != 1 {
		t.Errorf("Replace dropped rated games: %+v", games)
	}
}

// TestPendingEntries: a join request is kept with its first key (a second
// request does not replace it), and writing the entry removes it.
func TestPendingEntries(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{newTournament("winter")}}}})
	ask := func(key string) {
		commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{
			Pending: []archive.PendingEntry{{TournamentID: "winter", Player: "Alice@Example.org", Key: key}}}}})
	}
	ask("first00000")
	ask("second0000")
	p, err := s.PendingEntry(ctx, "winter", "ALICE@example.org")
	if err != nil || p.Key != "first00000" || p.Player != "alice@example.org" || p.AskedAt != t0 {
		t.Fatalf("PendingEntry = %+v, %v; want the first key, asked at %v", p, err, t0)
	}
	if _, err := s.PendingEntry(ctx, "winter", "bob@example.net"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("PendingEntry(bob) = %v, want ErrNotFound", err)
	}
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{
		Pending: []archive.PendingEntry{{TournamentID: "nope", Player: "bob@example.net", Key: "k"}}}}})
	if !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("a pending entry of an unknown tournament: %v, want ErrNotFound", err)
	}
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{
		Entries: []archive.Entry{{TournamentID: "winter", Player: "alice@example.org", Key: "k1", Seq: 1}}}}})
	if _, err := s.PendingEntry(ctx, "winter", "alice@example.org"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("PendingEntry after the entry = %v, want ErrNotFound", err)
	}
	// The start drops the requests nobody confirmed.
	carol := archive.PendingEntry{TournamentID: "winter", Player: "carol@example.org", Key: "carol00000"}
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Pending: []archive.PendingEntry{carol}}}})
	if _, err := s.PendingEntry(ctx, "winter", carol.Player); err != nil {
		t.Fatalf("PendingEntry(carol) = %v", err)
	}
	w, err := s.Tournament(ctx, "winter")
	if err != nil {
		t.Fatal(err)
	}
	w.Status, w.StartedAt = archive.TournamentRunning, t0.Add(time.Hour)
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{w}}}})
	if _, err := s.PendingEntry(ctx, "winter", carol.Player); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("PendingEntry(carol) after the start = %v, want ErrNotFound", err)
	}
}

// TestTournamentSpectators: "watch ID" rows are kept apart from a game's
// spectators, replaced by a second watch and removed by unwatch; an
// address watches only events that have not finished.
func TestTournamentSpectators(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	done := newTournament("done")
	done.Status = archive.TournamentFinished
	commit(t, s, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{newTournament("winter"), done}}}})
	watch := func(id string, results bool) archive.Spectator {
		return archive.Spectator{TournamentID: id, Address: "Eve@Example.org", ResultsOnly: results, Thread: "<w@x>"}
	}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{watch("winter", false), watch("done", false)}}}})
	commit(t, s, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{watch("winter", true)}}}})
	sp, err := s.TournamentSpectators(ctx, "winter")
	if err != nil || len(sp) != 1 || sp[0].Address != "eve@example.org" || !sp[0].ResultsOnly || sp[0].GameID != "" || sp[0].TournamentID != "winter" {
		t.Fatalf("TournamentSpectators = %+v, %v", sp, err)
	}
	if w, err := s.WatchingTournaments(ctx, "EVE@example.org"); err != nil || len(w) != 1 || w[0].TournamentID != "winter" {
		t.Errorf("WatchingTournaments = %+v, %v; want winter only", w, err)
	}
	if err := s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{watch("nope", false)}}}}); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("watching an unknown tournament: %v, want ErrNotFound", err)
	}
	both := watch("winter", false)
	both.GameID = "ABCDEF"
	if err := s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{both}}}}); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("a spectator of a game and a tournament at once: %v, want ErrInvalid", err)
	}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.WatchWrite{Unwatch: []archive.Spectator{{TournamentID: "winter", Address: "eve@example.org"}}}}})
	if sp, _ := s.TournamentSpectators(ctx, "winter"); len(sp) != 0 {
		t.Errorf("after unwatch: %+v", sp)
	}
}
