package search

import (
	"math/rand/v2"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// TestSnapshotFollowsMakeUnmake: along random games of every variant, the
// snapshot that make and unmake keep in step (captures included) equals
// one read from the position afresh, after every make and every unmake.
func TestSnapshotFollowsMakeUnmake(t *testing.T) {
	for _, v := range engine.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			p, err := engine.NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			s := New(Options{TableBytes: 1 << 16})
			s.prepare(p.Variant())
			s.pos = p
			s.b.load(p)
			var fresh board
			fresh.reset(s.g)
			check := func(when string) {
				t.Helper()
				fresh.load(p)
				b := &s.b
				if b.cells != fresh.cells || b.att != fresh.att || b.def != fresh.def || b.occ != fresh.occ ||
					b.king != fresh.king || b.nAtt != fresh.nAtt || b.nDef != fresh.nDef || b.toMove != fresh.toMove {
					t.Fatalf("ply %d, %s: the snapshot differs from the position", p.Ply(), when)
				}
			}
			rng := rand.New(rand.NewPCG(11, 13))
			captures := 0
			plies, every := 150, 1
			if testing.Short() || raceEnabled {
				plies, every = 60, 7 // a sample of the plies keeps -race fast
			}
			for ply := 0; ply < plies && !p.Outcome().Over(); ply++ {
				moves := p.LegalMoves(nil)
				for i, m := range moves {
					if (i+ply)%every != 0 {
						continue
					}
					c := p.Captures()
					u := s.make(m)
					check("after make " + m.String())
					captures += p.Captures() - c
					s.unmake(u)
					check("after unmake " + m.String())
				}
				s.make(moves[rng.IntN(len(moves))])
				check("after the game's ply")
			}
			if captures == 0 {
				t.Errorf("no capture among the plies tried; the test shows little")
			}
		})
	}
}
