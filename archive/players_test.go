package archive_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
)

// TestPlayersColumnsRoundTrip: private flags, waiting messages, conditional
// moves, a takeback request and a player's "messages off" are stored and
// read back as they were.
func TestPlayersColumnsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("P1AYR5")
	g.DefendersPrivate = true
	g.MessageToAttackers = "Good luck!\nBob"
	g.DefendersConditions = archive.Conditions{AtPly: 0, Lines: [][]string{{"d1-d3", "h6-h9"}, {"a4-b4", "h6-h9", "b4-b5", "e5-e4"}}}
	g.TakebackBy = "attackers"
	commit(t, s, archive.Change{Games: []*archive.Game{g}, Players: []archive.Player{{Address: "bob@example.net", MessagesOff: true}}})
	got := game(t, s, g.ID)
	want := *g
	want.Plies = []archive.Ply{}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("Game = %+v\nwant   %+v", *got, want)
	}
	// an update writes every new column, and clears what is cleared
	got.DefendersPrivate, got.AttackersPrivate = false, true
	got.MessageToAttackers, got.MessageToDefenders = "", "Thanks"
	got.DefendersConditions, got.AttackersConditions = archive.Conditions{}, archive.Conditions{AtPly: 1, Lines: [][]string{{"h6-h9", "d3-d4"}}}
	got.TakebackBy = ""
	commit(t, s, archive.Change{Games: []*archive.Game{got}})
	again := game(t, s, g.ID)
	if again.DefendersPrivate || !again.AttackersPrivate || again.MessageToAttackers != "" || again.MessageToDefenders != "Thanks" ||
		!again.DefendersConditions.Empty() || !reflect.DeepEqual(again.AttackersConditions, got.AttackersConditions) || again.TakebackBy != "" {
		t.Errorf("after the update: %+v", again)
	}
	bob, err := s.Player(ctx, "bob@example.net")
	if err != nil || !bob.MessagesOff {
		t.Errorf("Player(bob) = %+v, %v; want MessagesOff", bob, err)
	}
	// the next upsert without the flag turns it off again
	commit(t, s, archive.Change{Players: []archive.Player{{Address: "bob@example.net"}}})
	if bob, _ := s.Player(ctx, "bob@example.net"); bob.MessagesOff {
		t.Errorf("MessagesOff still set after an upsert without it")
	}
}

// TestPlayersColumnsInvalid: Commit refuses a takeback request by no side
// and conditions without an answer, before writing anything.
func TestPlayersColumnsInvalid(t *testing.T) {
	s, _, _ := openStore(t)
	for name, mod := range map[string]func(*archive.Game){
		"takeback by":  func(g *archive.Game) { g.TakebackBy = "both" },
		"one-ply line": func(g *archive.Game) { g.AttackersConditions = archive.Conditions{Lines: [][]string{{"h6-h9"}}} },
		"empty ply":    func(g *archive.Game) { g.DefendersConditions = archive.Conditions{Lines: [][]string{{"d1-d3", ""}}} },
		"negative at-ply": func(g *archive.Game) {
			g.DefendersConditions = archive.Conditions{AtPly: -1, Lines: [][]string{{"d1-d3", "h6-h9"}}}
		},
		"spectator no id":  nil,
		"takeback no move": nil,
	} {
		g := newGame("BADG4M")
		c := archive.Change{Games: []*archive.Game{g}}
		switch name {
		case "spectator no id":
			c.Writes = []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{{Address: "carol@example.org"}}}}
		case "takeback no move":
			c.Writes = []archive.Write{archive.TakeBacks{g.ID: {Ply: archive.Ply{N: 1}}}}
		default:
			mod(g)
		}
		if err := s.Commit(context.Background(), c); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("%s: Commit = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := s.Game(context.Background(), "BADG4M"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("an invalid change stored the game: %v", err)
	}
}

// brandubhGame returns an active Brandubh game with the plies given.
func brandubhGame(id string, moves ...string) (*archive.Game, map[string][]archive.Ply) {
	g := newGame(id)
	g.Variant, g.TimeControl = "brandubh", ""
	var plies []archive.Ply
	for i, m := range moves {
		plies = append(plies, archive.Ply{N: i + 1, Move: m, At: t0.Add(time.Duration(i) * time.Hour), MessageID: "<p" + m + ">"})
	}
	return g, map[string][]archive.Ply{id: plies}
}

// TestTakeBack: a takeback moves the last ply out of the game's plies into
// TakenBack, keeping plies numbered 1..PlyCount; the next ply continues
// from there; the record replays the game as it stands and names the
// undone ply in a comment; a takeback that is not of the last stored ply
// conflicts and changes nothing.
func TestTakeBack(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	g, plies := brandubhGame("T4KEBK", "d1-e1", "d3-f3", "d2-f2xf3")
	commit(t, s, archive.Change{Games: []*archive.Game{g}, NewPlies: plies})

	stored := game(t, s, g.ID)
	for _, bad := range []archive.TakenBack{
		{Ply: archive.Ply{N: 2, Move: "d3-f3"}},    // not the last ply
		{Ply: archive.Ply{N: 3, Move: "d2-f2"}},    // not its move
		{Ply: archive.Ply{N: 4, Move: "a4-a5xa6"}}, // beyond the plies
	} {
		err := s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.TakeBacks{g.ID: bad}}})
		if !errors.Is(err, archive.ErrConflict) {
			t.Errorf("takeback of ply %d %s = %v, want ErrConflict", bad.N, bad.Move, err)
		}
	}
	if err := s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.TakeBacks{"NOSUCH": {Ply: archive.Ply{N: 1, Move: "d1-e1"}}}}}); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("takeback in an unknown game = %v, want ErrNotFound", err)
	}
	if now := game(t, s, g.ID); !reflect.DeepEqual(now, stored) {
		t.Fatalf("refused takebacks changed the game:\n%+v\nwant %+v", now, stored)
	}

	clk.Set(t0.Add(10 * time.Hour))
	last := stored.Plies[2]
	commit(t, s, archive.Change{Mail: mail("<accept@example.net>", g.ID),
		Writes: []archive.Write{archive.TakeBacks{g.ID: {Ply: last, UndoneBy: "<accept@example.net>"}}}})
	after := game(t, s, g.ID)
	wantTB := []archive.TakenBack{{Ply: last, UndoneAt: t0.Add(10 * time.Hour), UndoneBy: "<accept@example.net>"}}
	if after.PlyCount != 2 || len(after.Plies) != 2 || after.Version != stored.Version+1 || !reflect.DeepEqual(after.TakenBack, wantTB) {
		t.Fatalf("after the takeback: PlyCount %d, plies %v, version %d (was %d), TakenBack %+v; want 2, 2 plies, +1, %+v",
			after.PlyCount, after.Plies, after.Version, stored.Version, after.TakenBack, wantTB)
	}

	// the attackers play another third ply; a takeback and a new ply in
	// one change bump the version once
	commit(t, s, archive.Change{NewPlies: map[string][]archive.Ply{g.ID: {{N: 3, Move: "a4-b4"}}}})
	again := game(t, s, g.ID)
	commit(t, s, archive.Change{Writes: []archive.Write{archive.TakeBacks{g.ID: {Ply: again.Plies[2]}}},
		NewPlies: map[string][]archive.Ply{g.ID: {{N: 3, Move: "g4-g5"}}}})
	final := game(t, s, g.ID)
	if final.Version != again.Version+1 || len(final.TakenBack) != 2 || final.Plies[2].Move != "g4-g5" {
		t.Fatalf("takeback and ply in one change: version %d (was %d), TakenBack %v, plies %v", final.Version, again.Version, final.TakenBack, final.Plies)
	}

	r, err := final.Replay()
	if err != nil || !r.Legal || len(r.Errors) > 0 {
		t.Fatalf("Replay = %v, legal %v, %v", err, r != nil && r.Legal, r)
	}
	if len(r.Plies) != 3 {
		t.Errorf("the replay plays %d plies, want the 3 that stand", len(r.Plies))
	}
	var b strings.Builder
	if err := notation.WriteNative(&b, r); err != nil {
		t.Fatal(err)
	}
	rec := b.String()
	want := "1. d1-e1 d3-f3 {ply 3 d2-f2xf3 taken back by agreement} {ply 3 a4-b4 taken back by agreement} 2. g4-g5 *"
	if got := strings.Join(strings.Fields(rec), " "); !strings.Contains(got, want) {
		t.Errorf("record lacks %q (white space aside):\n%s", want, rec)
	}
	// the record reads back to the same game: what export writes replays
	games, err := notation.ReadGames("export", []byte(rec), notation.ReadOptions{})
	if err != nil || len(games) != 1 {
		t.Fatalf("ReadGames(record) = %d games, %v", len(games), err)
	}
	back := games[0].Replay()
	if !back.Legal || len(back.Plies) != 3 || back.Final.Key() != r.Final.Key() {
		t.Errorf("the record read back: legal %v, %d plies, same final position %v", back.Legal, len(back.Plies), back.Final.Key() == r.Final.Key())
	}
}

// TestSpectators: watching adds a row, watching again replaces it,
// unwatching removes it; Watching lists only running games; a spectator of
// a game that does not exist is ErrNotFound.
func TestSpectators(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	g1, g2 := newGame("W4TCH1"), newGame("W4TCH2")
	g2.Status = archive.Finished
	commit(t, s, archive.Change{Games: []*archive.Game{g1, g2}})
	carol := archive.Spectator{GameID: g1.ID, Address: "Carol@Example.org", Thread: "w1@example.org"}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{carol, {GameID: g2.ID, Address: "carol@example.org"}}}}})
	clk.Set(t0.Add(time.Hour))
	commit(t, s, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{{GameID: g1.ID, Address: "dave@example.org", ResultsOnly: true}}}}})

	got, err := s.Spectators(ctx, g1.ID)
	want := []archive.Spectator{
		{GameID: g1.ID, Address: "carol@example.org", Thread: "w1@example.org", CreatedAt: t0},
		{GameID: g1.ID, Address: "dave@example.org", ResultsOnly: true, CreatedAt: t0.Add(time.Hour)},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Spectators = %+v, %v\nwant %+v", got, err, want)
	}
	w, err := s.Watching(ctx, "CAROL@example.org")
	if err != nil || len(w) != 1 || w[0].GameID != g1.ID {
		t.Errorf("Watching(carol) = %+v, %v; want only the running game %s", w, err, g1.ID)
	}
	// watching again replaces; unwatching an address that does not watch is no error
	carol.ResultsOnly = true
	commit(t, s, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{carol},
		Unwatch: []archive.Spectator{{GameID: g1.ID, Address: "DAVE@example.org"}, {GameID: g1.ID, Address: "nobody@example.org"}}}}})
	got, _ = s.Spectators(ctx, g1.ID)
	if len(got) != 1 || !got[0].ResultsOnly || !got[0].CreatedAt.Equal(t0) {
		t.Errorf("after replace and unwatch: %+v", got)
	}
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.WatchWrite{Watch: []archive.Spectator{{GameID: "NOSUCH", Address: "carol@example.org"}}}}})
	if !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("watching a game that does not exist: Commit = %v, want ErrNotFound", err)
	}
	if got, err := s.Spectators(ctx, "NOSUCH"); err != nil || len(got) != 0 {
		t.Errorf("Spectators(unknown game) = %v, %v; want none", got, err)
	}
}
