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
