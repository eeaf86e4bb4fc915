package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
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

// TestCopyInto: a position copied into one that played a longer game is
// the start position again in every respect (key, ply, outcome, the
// repetition history: the same random game plays out alike from it), and
// playing on the copy leaves the original alone.
func TestCopyInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	v, _ := Lookup("brandubh")
	start, _ := NewPosition(v)
	var q Position
	for game := 0; game < 20; game++ {
		start.CopyInto(&q)
		ref := start.Clone()
		if !slices.Equal(q.history, start.history) || !slices.Equal(q.caps, start.caps) || &q.history[0] == &start.history[0] {
			t.Fatalf("game %d: copy's history %x captures %v, start's %x %v (same memory: %v)", game, q.history, q.caps, start.history, start.caps, &q.history[0] == &start.history[0])
		}
		if q.Key() != start.Key() || q.Ply() != 0 || q.Outcome() != start.Outcome() || q.Repetitions() != 1 {
			t.Fatalf("game %d: copy key %x ply %d outcome %v, start %x 0 %v", game, q.Key(), q.Ply(), q.Outcome(), start.Key(), start.Outcome())
		}
		for ply := 0; ply < 300 && !ref.Outcome().Over(); ply++ {
			ms := ref.LegalMoves(nil)
			m := ms[rng.IntN(len(ms))]
			want, err := ref.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.Play(m)
			if err != nil || !reflect.DeepEqual(got, want) || q.Key() != ref.Key() || q.Repetitions() != ref.Repetitions() {
				t.Fatalf("game %d ply %d %v: copy %+v %v, clone %+v", game, ply, m, got, err, want)
			}
		}
		if fresh, _ := NewPosition(v); start.Ply() != 0 || start.Key() != fresh.Key() || !reflect.DeepEqual(start.Board(), fresh.Board()) {
			t.Fatalf("game %d: the start position changed (ply %d)", game, start.Ply())
		}
	}
}
