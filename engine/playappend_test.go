package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestPlayAppend: PlayAppend plays what Play plays, gives the same
// captures, keeps every ply's captures in the one buffer, and an illegal
// move leaves the buffer as it was.
func TestPlayAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	v, _ := Lookup("brandubh")
	for game := 0; game < 50; game++ {
		a, _ := NewPosition(v)
		b := a.Clone()
		var buf []Square
		var all [][]Square
		for ply := 0; ply < 200 && !a.Outcome().Over(); ply++ {
			ms := a.LegalMoves(nil)
			m := ms[rng.IntN(len(ms))]
			want, err := a.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			n := len(buf)
			got, next, err := b.PlayAppend(m, buf)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || b.Key() != a.Key() {
				t.Fatalf("game %d ply %d %v: PlayAppend %+v, Play %+v", game, ply, m, got, want)
			}
			if len(next) != n+len(want.Captures) || cap(got.Captures) != len(got.Captures) {
				t.Fatalf("buffer %d → %d for %d captures, result capacity %d", n, len(next), len(want.Captures), cap(got.Captures))
			}
			buf = next
			all = append(all, got.Captures)
			if _, again, err := b.PlayAppend(Move{From: m.To, To: m.To}, buf); err == nil || len(again) != len(buf) {
				t.Fatalf("null move: %v, buffer %d → %d", err, len(buf), len(again))
			}
		}
		var joined []Square
		for _, c := range all {
			joined = append(joined, c...)
		}
		if len(joined) != len(buf) || len(buf) > 0 && !reflect.DeepEqual(joined, buf) {
			t.Fatalf("game %d: the plies' captures %v are not the buffer %v", game, joined, buf)
		}
	}
}
