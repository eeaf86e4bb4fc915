package engine

import (
	"fmt"
	"testing"
)

// BenchmarkPerft measures Perft from the start positions
// (BenchmarkPerft/<variant>/<depth>) in nodes per second. Compare runs
// with benchstat; figures and the command are in docs/performance.md.
func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		variant string
		depth   int
	}{
		{"copenhagen", 3},
		{"copenhagen", 4},
		{"brandubh", 4},
		{"brandubh", 5},
		{"tablut", 3},
	} {
		b.Run(fmt.Sprintf("%s/%d", c.variant, c.depth), func(b *testing.B) {
			p := startWith(b, c.variant, Attackers)
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += Perft(p, c.depth).Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkParallelPerft measures ParallelPerft on Copenhagen at depth 4
// with 2 workers.
func BenchmarkParallelPerft(b *testing.B) {
	b.Run("copenhagen/4/workers=2", func(b *testing.B) {
		p := startWith(b, "copenhagen", Attackers)
		b.ReportAllocs()
		var nodes uint64
		for b.Loop() {
			nodes += ParallelPerft(p, 4, 2).Nodes
		}
		b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	})
}
