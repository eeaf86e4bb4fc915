package server

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestFirstByText: the example move of a reply is the first legal move in
// the order of the moves' texts, as sorting by Move.String gives it, over
// random games on an 11×11 and a 19×19 board (two-digit ranks, "a10"
// before "a2").
func TestFirstByText(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, name := range []string{"copenhagen", "alea"} {
		v, ok := engine.Lookup(name)
		if !ok {
			t.Fatalf("no variant %s", name)
		}
		pos, err := engine.NewPosition(v)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 60 && !pos.Outcome().Over(); ply++ {
			ms := pos.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			for _, m := range ms {
				if got := string(referee.AppendMoveText(nil, m)); got != m.String() {
					t.Fatalf("appendMoveText(%v) = %q", m, got)
				}
			}
			sorted := append([]engine.Move(nil), ms...)
			sort.Slice(sorted, func(i, j int) bool { return sorted[i].String() < sorted[j].String() })
			if got := ms[referee.FirstByText(ms)]; got != sorted[0] {
				t.Fatalf("%s ply %d: firstByText chose %v, sorting %v", name, ply, got, sorted[0])
			}
			if _, err := pos.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
