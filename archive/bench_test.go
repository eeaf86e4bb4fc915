package archive_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// BenchmarkCommitMove commits what one move mail changes: the mail, the
// game row, one ply and a reply to each player, with synchronous=FULL.
func BenchmarkCommitMove(b *testing.B) {
	ctx := context.Background()
	s, _, _ := openStore(b)
	g := newGame("G1")
	commit(b, s, archive.Change{Games: []*archive.Game{g}})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		id := fmt.Sprintf("<move-%d@example.org>", n)
		err := s.Commit(ctx, archive.Change{
			Mail:     archive.ProcessedMail{MessageID: id, ContentHash: id, From: "alice@example.org", GameID: "G1", Disposition: "applied"},
			Games:    []*archive.Game{g},
			NewPlies: map[string][]archive.Ply{"G1": {{N: n, Move: "d1-d3xd4", MessageID: id}}},
			Outbox: []archive.OutboxMail{
				reply("G1", id+"-a", "alice@example.org"),
				reply("G1", id+"-b", "bob@example.net"),
			},
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// bigArchive writes an archive of 10,000 games of 40 plies each among 100
// players, where busy@example.org plays 1,000 of them, and returns its path.
func bigArchive(b *testing.B) string {
	b.Helper()
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "big.db")
	s, err := archive.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const games, plies = 10000, 40
	c := archive.Change{NewPlies: map[string][]archive.Ply{}}
	for i := range games {
		g := newGame(fmt.Sprintf("G%05d", i))
		g.Attackers = fmt.Sprintf("p%02d@example.org", i%100)
		g.Defenders = fmt.Sprintf("p%02d@example.org", (i+1)%100)
		if i%10 == 0 {
			g.Defenders = "busy@example.org"
		}
		if i%3 == 0 {
			g.Status = archive.Finished
		}
		ps := make([]archive.Ply, plies)
		for n := range ps {
			ps[n] = archive.Ply{N: n + 1, Move: "d1-d3xd4", At: t0.Add(time.Duration(n) * time.Hour), MessageID: fmt.Sprintf("<%d.%d@example.org>", i, n)}
		}
		c.Games = append(c.Games, g)
		c.NewPlies[g.ID] = ps
	}
	if err := s.Commit(ctx, c); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkOpen10k opens and closes an archive of 10,000 games. Open reads
// no game: its cost is the schema check, not the games.
func BenchmarkOpen10k(b *testing.B) {
	ctx := context.Background()
	path := bigArchive(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := archive.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Game(ctx, "G09999"); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkGamesOf10k lists the 1,000 games of one player in an archive of
// 10,000, and reports the heap the result holds.
func BenchmarkGamesOf10k(b *testing.B) {
	ctx := context.Background()
	s, err := archive.Open(ctx, bigArchive(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	games, err := s.GamesOf(ctx, "busy@example.org")
	if err != nil || len(games) != 1000 {
		b.Fatalf("GamesOf = %d games, %v; want 1000", len(games), err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	runtime.KeepAlive(games)

	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.GamesOf(ctx, "busy@example.org"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(held/1024, "heap-KiB")
}

// BenchmarkGame reads one game of 40 plies out of 10,000 games, as the
// referee does for every move mail.
func BenchmarkGame(b *testing.B) {
	ctx := context.Background()
	s, err := archive.Open(ctx, bigArchive(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		if g, err := s.Game(ctx, "G04242"); err != nil || len(g.Plies) != 40 {
			b.Fatalf("Game = %v", err)
		}
	}
}
