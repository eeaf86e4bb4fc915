package engine

import (
	"slices"
	"testing"
)

// fuzzStarts are the positions FuzzPlay starts from: every built-in
// variant's start position, then the near-end set-ups of reference_test.go.
func fuzzStarts(t testing.TB) []func() *Position {
	var out []func() *Position
	for _, v := range Variants() {
		out = append(out, func() *Position {
			p, err := NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			return p
		})
	}
	for _, ne := range nearEnd {
		out = append(out, func() *Position { return diagram(t, ne.rules, ne.toMove, ne.rows...) })
	}
	return out
}

// fuzzMaxPlies bounds the length of one fuzzed game.
const fuzzMaxPlies = 400

// FuzzPlay turns fuzz bytes into a game: the first byte chooses the start
// position (a variant's start or a near-end set-up), every further byte a
// move among the legal ones (two bytes when there are more than 256 moves;
// 0xff takes back the mover's previous ply when that is legal, to reach
// repetitions). After every ply it checks the invariants of
// reference_test.go (Make/Unmake restore everything, the incremental key
// equals a fresh one, piece counts never grow) and compares the engine with
// the reference: legal moves, board, captures, outcome.
func FuzzPlay(f *testing.F) {
	starts := len(fuzzStarts(f))
	for i := range starts {
		f.Add([]byte{byte(i)})
		f.Add([]byte{byte(i), 0, 1, 2, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
		f.Add([]byte{byte(i), 17, 200, 33, 91, 5, 250, 128, 7, 64, 3, 99, 42, 150, 11, 77})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		all := fuzzStarts(t)
		p := all[int(data[0])%len(all)]()
		d := newDiffRun(t, "fuzz", p)
		d.checkState()
		data = data[1:]
		for ply := 0; len(data) > 0 && ply < fuzzMaxPlies; ply++ {
			legal := d.legal()
			if len(legal) == 0 {
				return
			}
			b := data[0]
			data = data[1:]
			if b == 0xff {
				if m, ok := d.reverse(); ok && slices.Contains(legal, m) {
					d.step(m)
					continue
				}
			}
			i := int(b)
			if len(legal) > 256 && len(data) > 0 {
				i = i<<8 | int(data[0])
				data = data[1:]
			}
			m := legal[i%len(legal)]
			// The same piece to a square on its rank that may be illegal.
			d.probe(Move{From: m.From, To: SquareAt(int(b)%d.r.n, m.From.Rank())})
			d.step(m)
		}
	})
}
