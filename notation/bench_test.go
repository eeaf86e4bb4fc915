package notation

import (
	"fmt"
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
	src, opts := corpusCSV(b)
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

// corpusCSV returns the Copenhagen CSV corpus and the options that read it.
func corpusCSV(b *testing.B) ([]byte, ReadOptions) {
	requireCorpus(b)
	src, err := os.ReadFile(filepath.Join(corpusDir, "copenhagen.csv"))
	if err != nil {
		b.Fatal(err)
	}
	v, _ := engine.Lookup("copenhagen")
	return src, ReadOptions{Format: FormatCSV, Variant: v}
}

// BenchmarkCorpusCSVScan is BenchmarkCorpusCSV's parse+replay the way
// taflmail validate reads a CSV file: ScanGames, replaying each game in
// fn. The target is 2 million plies/s on one core (issue 9,
// docs/performance.md).
func BenchmarkCorpusCSVScan(b *testing.B) {
	src, opts := corpusCSV(b)
	plies, games := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		plies, games = 0, 0
		err := ScanGames("copenhagen.csv", src, opts, func(g *Game) error {
			r := g.Replay()
			if len(r.Plies) != len(g.Plies) {
				return fmt.Errorf("game %d: %d plies replayed of %d", g.Number, len(r.Plies), len(g.Plies))
			}
			plies += len(g.Plies)
			games++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if games != 876 {
		b.Fatalf("%d games, want 876", games)
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}
