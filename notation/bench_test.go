package notation

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// BenchmarkCorpusCSV measures parse+replay of the whole Copenhagen CSV
// (876 games, 44,294 plies) the way taflmail validate reads it: ReadGames
// and Game.Replay for every game; the target is 100,000 plies/s on one core
// (issue 3, docs/performance.md). Sub-benchmarks time the parse and the
// replay alone.
func BenchmarkCorpusCSV(b *testing.B) {
	requireCorpus(b)
	src, err := os.ReadFile(filepath.Join(corpusDir, "copenhagen.csv"))
	if err != nil {
		b.Fatal(err)
	}
	v, _ := engine.Lookup("copenhagen")
	opts := ReadOptions{Format: FormatCSV, Variant: v}
	games, err := ReadGames("copenhagen.csv", src, opts)
	if err != nil {
		b.Fatal(err)
	}
	plies := 0
	for _, g := range games {
		plies += len(g.Plies)
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	}
	b.Run("parse+replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gs, err := ReadGames("copenhagen.csv", src, opts)
			if err != nil {
				b.Fatal(err)
			}
			for _, g := range gs {
				g.Replay()
			}
		}
		report(b)
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ReadGames("copenhagen.csv", src, opts); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, g := range games {
				g.Replay()
			}
		}
		report(b)
	})
}
