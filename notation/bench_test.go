package notation

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// BenchmarkCorpusCSV measures parse+replay of the whole Copenhagen CSV
// (876 games, 44,294 plies) the way taflmail validate reads it: ReadGames
// and Game.Replay for every game; the target is 2 million plies/s on one
// core (issue 9, docs/performance.md). Sub-benchmarks time the parse and
// the replay alone. Each keeps only its own games alive, so that the
// garbage collector's work is that of a program reading the file.
func BenchmarkCorpusCSV(b *testing.B) {
	requireCorpus(b)
	src, err := os.ReadFile(filepath.Join(corpusDir, "copenhagen.csv"))
	if err != nil {
		b.Fatal(err)
	}
	v, _ := engine.Lookup("copenhagen")
	opts := ReadOptions{Format: FormatCSV, Variant: v}
	read := func(b *testing.B) []*Game {
		games, err := ReadGames("copenhagen.csv", src, opts)
		if err != nil {
			b.Fatal(err)
		}
		return games
	}
	plies := 0
	for _, g := range read(b) {
		plies += len(g.Plies)
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	}
	b.Run("parse+replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, g := range read(b) {
				g.Replay()
			}
		}
		report(b)
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			read(b)
		}
		report(b)
	})
	b.Run("replay", func(b *testing.B) {
		games := read(b)
		b.ReportAllocs()
		for b.Loop() {
			for _, g := range games {
				g.Replay()
			}
		}
		report(b)
	})
}
