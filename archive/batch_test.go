package archive_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// TestWriteBatch: what a batch's parts write is seen by its later calls
// (a game id taken, a player's games in schedule order) and committed
// together; an error of the function or of a part rolls every part back.
func TestWriteBatch(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	ev := &archive.Tournament{ID: "cup", Name: "Cup", Variant: "brandubh", TimeControl: "30d+1d", Groups: 1, GamesPerPairing: 2,
		StartDate: t0.Truncate(24 * time.Hour), LeaveDays: 30, Status: archive.TournamentCreated}
	if err := s.Commit(ctx, archive.Change{Writes: []archive.Write{&archive.TournamentChange{Tournaments: []*archive.Tournament{ev}}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, archive.Change{Games: []*archive.Game{newGame("OLD001")}}); err != nil {
		t.Fatal(err)
	}
	// carol's games, written in two parts, out of schedule order
	part := func(ids []string, rounds []int) archive.Change {
		tc := &archive.TournamentChange{}
		c := archive.Change{Writes: []archive.Write{tc}}
		for i, id := range ids {
			g := newGame(id)
			g.TournamentID, g.Defenders, g.DefenderToken = "cup", "Carol@Example.org", "ct-"+id
			if i%2 == 1 {
				g.Attackers, g.Defenders = g.Defenders, g.Attackers
			}
			c.Games = append(c.Games, g)
			tc.Pairings = append(tc.Pairings, archive.Pairing{GameID: id, TournamentID: "cup", Section: 1,
				Round: rounds[i], Board: 1, MatchGame: 1 + i%2})
		}
		return c
	}
	broken := errors.New("broken")
	for _, fail := range []string{"fn", "part", ""} {
		err := s.WriteBatch(ctx, func(b *archive.Batch) error {
			for _, id := range []string{"OLD001", "NEW001"} {
				taken, err := b.GameIDTaken(id)
				if err != nil || taken != (id == "OLD001") {
					t.Errorf("%s: GameIDTaken(%s) before = %v, %v", fail, id, taken, err)
				}
			}
			if err := b.Write(part([]string{"NEW003", "NEW004"}, []int{3, 3})); err != nil {
				return err
			}
			if err := b.Write(part([]string{"NEW001", "NEW002"}, []int{1, 1})); err != nil {
				return err
			}
			if taken, err := b.GameIDTaken("NEW001"); !taken || err != nil {
				t.Errorf("%s: GameIDTaken(NEW001) after its part = %v, %v", fail, taken, err)
			}
			var got []string
			err := b.TournamentGamesOf("cup", "carol@example.org", func(g *archive.Game) error {
				got = append(got, fmt.Sprintf("%s:%d.%d:%s", g.ID, g.Event.Pairing.Round, g.Event.Pairing.MatchGame, g.AttackerToken))
				return nil
			})
			if want := "[NEW001:1.1:at-NEW001 NEW002:1.2:at-NEW002 NEW003:3.1:at-NEW003 NEW004:3.2:at-NEW004]"; err != nil || fmt.Sprint(got) != want {
				t.Errorf("%s: TournamentGamesOf = %v, %v; want %s", fail, got, err, want)
			}
			switch fail {
			case "fn":
				return broken
			case "part":
				return b.Write(archive.Change{Games: []*archive.Game{newGame("OLD001")}}) // taken: ErrConflict
			}
			return nil
		})
		games, _ := s.TournamentGames(ctx, "cup", false)
		switch fail {
		case "fn":
			if !errors.Is(err, broken) || len(games) != 0 {
				t.Errorf("fn failing: WriteBatch = %v, %d games kept; want broken, none", err, len(games))
			}
		case "part":
			if !errors.Is(err, archive.ErrConflict) || len(games) != 0 {
				t.Errorf("a part failing: WriteBatch = %v, %d games kept; want ErrConflict, none", err, len(games))
			}
		default:
			if err != nil || len(games) != 4 {
				t.Errorf("WriteBatch = %v, %d games; want 4", err, len(games))
			}
		}
	}
}
