package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// ladderStart is the date of the ladder's first game.
var plyPairs = 20

var ladderStart = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

// writeLadder writes n finished games among 200 players as native
// records (nine tags, 40 plies of move text, a result), in files of 1,000
// records each, and returns the file names.
func writeLadder(b *testing.B, n int) []string {
	b.Helper()
	dir := b.TempDir()
	// Syntax only: standings and ratings read tags, they do not replay.
	var moves bytes.Buffer
	for i := 1; i <= plyPairs; i++ {
		fmt.Fprintf(&moves, "%d. d1-d%d h6-h%d ", i, 2+i%8, 2+i%8)
		if i%6 == 0 {
			moves.WriteString("\n")
		}
	}
	results := []string{"attackers", "defenders", "draw"}
	var files []string
	for f := 0; f*1000 < n; f++ {
		var buf bytes.Buffer
		for i := f * 1000; i < min(n, (f+1)*1000); i++ {
			a, d := i%200, (i*7+1)%200
			if a == d {
				d = (d + 1) % 200
			}
			res := results[i%3]
			fmt.Fprintf(&buf, "[Event \"Ladder\"]\n[Site \"taflmail.example\"]\n[Date \"%s\"]\n[Round \"%d\"]\n"+
				"[Attackers \"player%03d@example.org\"]\n[Defenders \"player%03d@example.org\"]\n[Variant \"copenhagen\"]\n"+
				"[TimeControl \"30d+1d\"]\n[Result \"%s\"]\n\n%s%s\n\n",
				ladderStart.AddDate(0, 0, i/5).Format("2006.01.02"), i+1, a, d, res, moves.String(), res)
		}
		name := filepath.Join(dir, fmt.Sprintf("ladder-%02d.tafl", f))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

// BenchmarkRatings10000: `taflmail ratings` over 10,000 records of 40
// plies each (issue 11 asks for < 1 s). "command" is the whole command:
// reading and parsing the files, rating in end order, printing; "rate" is
// the part after parsing (RatedGamesFromRecords, RateAll, the table),
// from games parsed once before the timer starts. The difference is the
// record parser (grammar.ParseRecords).
func BenchmarkRatings10000(b *testing.B) {
	files := writeLadder(b, 10000)
	b.Run("command", func(b *testing.B) {
		args := append([]string{"ratings"}, files...)
		b.ReportAllocs()
		for b.Loop() {
			root := NewRootCommand()
			var out, errb bytes.Buffer
			root.SetArgs(args)
			root.SetOut(&out)
			root.SetErr(&errb)
			if err := root.Execute(); err != nil || errb.Len() > 0 {
				b.Fatal(err, errb.String())
			}
			if n := bytes.Count(out.Bytes(), []byte("\n")); n != 201 {
				b.Fatalf("printed %d lines, want 201", n)
			}
		}
	})
	b.Run("rate", func(b *testing.B) {
		var games []*notation.Game
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			gs, err := notation.ReadGames(f, src, notation.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			games = append(games, gs...)
		}
		b.ReportAllocs()
		for b.Loop() {
			rated, errs := tournament.RatedGamesFromRecords(games)
			if len(errs) > 0 || len(rated) != 10000 {
				b.Fatal(errs)
			}
			rs, err := tournament.RateAll(rated)
			if err != nil {
				b.Fatal(err)
			}
			var out bytes.Buffer
			for _, p := range rs.All() {
				fmt.Fprintf(&out, "%s  %s  %7.1f  %6.1f  %10.6f  %5d\n", p.Variant, p.Player, p.Rating.R, p.Rating.RD, p.Rating.Volatility, p.Games)
			}
			if out.Len() == 0 {
				b.Fatal("no output")
			}
		}
	})
}
