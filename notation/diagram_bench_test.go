package notation

import (
	"io"
	"math/rand"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// BenchmarkWriteDiagram draws a mid-game board of each size — Brandubh
// 7×7, Copenhagen 11×11, the 19×19 alea — as ASCII and as Unicode,
// with the last ply and its captures marked and the full legend, the way
// a mail reply draws it, so that a change to the diagram writer can be
// timed.
func BenchmarkWriteDiagram(b *testing.B) {
	for _, style := range []struct {
		name  string
		write func(io.Writer, *engine.Position, ...DiagramOption) error
	}{{"ascii", WriteASCII}, {"unicode", WriteUnicode}} {
		for _, name := range []string{"brandubh", "copenhagen", "alea"} {
			p, opts := midGame(b, name)
			b.Run(style.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := style.write(io.Discard, p, opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// midGame plays 20 plies chosen by a fixed seed from the start of the
// named variant, stopping early at the end of the game, and returns the
// position with options marking the last ply and its captures.
func midGame(b *testing.B, name string) (*engine.Position, []DiagramOption) {
	v, ok := engine.Lookup(name)
	if !ok {
		b.Fatalf("no variant %q", name)
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	var last engine.PlyResult
	for i := 0; i < 20 && !p.Outcome().Over(); i++ {
		moves := p.LegalMoves(nil)
		if last, err = p.Play(moves[rng.Intn(len(moves))]); err != nil {
			b.Fatal(err)
		}
	}
	return p, []DiagramOption{WithLastMove(last.Move), WithCaptures(last.Captures...)}
}
