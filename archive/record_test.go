package archive_test

import (
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// TestGameReplay: a stored game replays as the record the referee mails,
// its stored words for result and reason mapped to the engine's.
func TestGameReplay(t *testing.T) {
	g := &archive.Game{
		ID: "FJ857P", Variant: "brandubh", Attackers: "carol@p.test", Defenders: "dave@p.test",
		Status: archive.Finished, Result: "defenders", Reason: "resignation", TimeControl: "3d/move",
		CreatedAt: time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC),
		Plies:     []archive.Ply{{N: 1, Move: "d1-e1"}, {N: 2, Move: "d3-f3"}, {N: 3, Move: "d2-f2xf3"}},
	}
	r, err := g.Replay()
	if err != nil {
		t.Fatalf("Replay = %v", err)
	}
	if !r.Legal || len(r.Errors) > 0 {
		t.Fatalf("Replay: legal %v, errors %v", r.Legal, r.Errors)
	}
	if want := (engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonResignation, Ply: 3}); r.Outcome() != want {
		t.Errorf("Outcome = %+v, want %+v", r.Outcome(), want)
	}
	var b strings.Builder
	if err := notation.WriteNative(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Date "2026.11.29"]`, `[TimeControl "3d/move"]`, `[Termination "resignation"]`, "2. d2-f2xf3 defenders\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("record lacks %q:\n%s", want, b.String())
		}
	}

	g.Plies = append(g.Plies, archive.Ply{N: 4, Move: "d4–d1"})
	if _, err := g.Replay(); err == nil || !strings.Contains(err.Error(), `ply 4 "d4–d1"`) {
		t.Errorf("Replay with a malformed ply = %v, want an error naming ply 4", err)
	}
	g.Variant = "chess"
	if _, err := g.Replay(); err == nil || err.Error() != `game FJ857P: unknown variant "chess"` {
		t.Errorf("Replay with an unknown variant = %v", err)
	}
}

// TestGameReplayEnd: the record of a finished game says when it ended,
// so that a reader rates it at the instant the referee did (Decision
// R1): a final resignation carries the resigning mail's arrival as its
// %ts; an end that no ply dates (a resignation while the opponent was to
// move, a draw agreed, any end of an untimed game) is an End tag; a game
// that ended with its last move, and one without a result, have none.
func TestGameReplayEnd(t *testing.T) {
	start := time.Date(2026, 12, 7, 5, 0, 0, 0, time.UTC)
	t1, t2, end := start.Add(time.Hour), start.Add(2*time.Hour), start.Add(5*time.Hour)
	game := func(result, reason, control string) *archive.Game {
		return &archive.Game{
			ID: "K2M4Q7", Variant: "brandubh", Attackers: "carol@p.test", Defenders: "dave@p.test",
			Status: archive.Finished, Result: result, Reason: reason, TimeControl: control,
			CreatedAt: start, StartedAt: start, EndedAt: end,
			Plies: []archive.Ply{{N: 1, Move: "d1-e1", At: t1}, {N: 2, Move: "d3-f3", At: t2}},
		}
	}
	moved := game("defenders", "resignation", "3d+1d")
	moved.EndedAt = t2
	for _, c := range []struct {
		name      string
		g         *archive.Game
		want, not []string
	}{
		{"resignation by the side to move", game("defenders", "resignation", "3d+1d"),
			[]string{"d3-f3 {[%ts 2026-12-07T07:00:00Z]} 2. --- {[%ts 2026-12-07T10:00:00Z]} defenders"}, []string{"[End "}},
		{"resignation while the opponent is to move", game("attackers", "resignation", "3d+1d"),
			[]string{`[End "2026-12-07T10:00:00Z"]`}, []string{"---"}},
		{"draw agreed", game("draw", "draw agreed", "3d+1d"), []string{`[End "2026-12-07T10:00:00Z"]`}, nil},
		{"untimed", game("draw", "draw agreed", ""), []string{`[End "2026-12-07T10:00:00Z"]`}, []string{"%ts"}},
		{"ended at its last ply", moved, nil, []string{"[End "}},
		{"no result (annulled)", game("", "annulled", "3d+1d"), nil, []string{"[End "}},
	} {
		r, err := c.g.Replay()
		if err != nil {
			t.Fatalf("%s: Replay = %v", c.name, err)
		}
		var b strings.Builder
		if err := notation.WriteNative(&b, r); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(b.String()), " ") // lines wrap anywhere
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: record lacks %q:\n%s", c.name, w, b.String())
			}
		}
		for _, w := range c.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: record has %q:\n%s", c.name, w, b.String())
			}
		}
	}
}

// TestGameReplayRated: the record of a game the referee does not rate
// says so (`[Rated "no"]`), so that `taflmail ratings` leaves it out; a
// rated game's record has no such tag.
func TestGameReplayRated(t *testing.T) {
	for _, rated := range []bool{false, true} {
		g := &archive.Game{ID: "K2M4Q7", Variant: "brandubh", Attackers: "carol@p.test", Defenders: "dave@p.test",
			Status: archive.Finished, Result: "defenders", Reason: "resignation", Rated: rated,
			CreatedAt: time.Date(2026, 12, 7, 5, 0, 0, 0, time.UTC)}
		r, err := g.Replay()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := notation.WriteNative(&b, r); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), `[Rated "no"]`); got == rated {
			t.Errorf("rated %v: the record has [Rated \"no\"]: %v\n%s", rated, got, b.String())
		}
	}
}
