package server

import (
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// BenchmarkExampleMove: the "how to move" example of a reply, chosen in
// the opening position of Copenhagen (11×11) with the attackers and, after
// one ply, the defenders to move. Every reply that asks a player to move
// runs it once (docs/performance.md).
func BenchmarkExampleMove(b *testing.B) {
	v, ok := engine.Lookup("copenhagen")
	if !ok {
		b.Fatal("no variant copenhagen")
	}
	for _, c := range []struct {
		name  string
		plies int
	}{{"attackers", 0}, {"defenders", 1}} {
		b.Run(c.name, func(b *testing.B) {
			pos, err := engine.NewPosition(v)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < c.plies; i++ {
				if _, err := pos.Play(pos.LegalMoves(nil)[0]); err != nil {
					b.Fatal(err)
				}
			}
			t := &referee.Table{Variant: v, Pos: pos}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = referee.ExampleMove(t)
			}
		})
	}
}
