package archive_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// timerArchive writes an archive of n running timed games, each with a
// pending reminder and a deadline, the reminder of game i due at t0 + i
// seconds and all deadlines a year later, and returns its path.
func timerArchive(b *testing.B, n int) string {
	b.Helper()
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), fmt.Sprintf("timers-%d.db", n))
	s, err := archive.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const batch = 10000
	for from := 0; from < n; from += batch {
		plans := archive.TimerPlans{}
		c := archive.Change{Writes: []archive.Write{plans}}
		for i := from; i < min(from+batch, n); i++ {
			g := newGame(fmt.Sprintf("T%06d", i))
			g.TimeControl = "30d+1d"
			c.Games = append(c.Games, g)
			plans[g.ID] = archive.TimerPlan{Ply: 1, Timers: []archive.Timer{
				{Key: "ply 1 reminder 7d", Kind: archive.TimerReminder, Ply: 1, Due: t0.Add(time.Duration(i+1) * time.Second)},
				{Key: "ply 1 deadline", Kind: archive.TimerDeadline, Ply: 1, Due: t0.AddDate(1, 0, 0)},
			}}
		}
		if err := s.Commit(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// BenchmarkDueTimers finds the due timers among 1,000 and 100,000 running
// games (two pending timers each) when 10 or 1,000 are due: the time
// follows the number due, not the number of games (docs/performance.md).
func BenchmarkDueTimers(b *testing.B) {
	ctx := context.Background()
	for _, games := range []int{1000, 100000} {
		path := timerArchive(b, games)
		s, err := archive.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		for _, due := range []int{10, 1000} {
			b.Run(fmt.Sprintf("games=%d/due=%d", games, due), func(b *testing.B) {
				now := t0.Add(time.Duration(due) * time.Second)
				b.ReportAllocs()
				for b.Loop() {
					ts, err := s.DueTimers(ctx, now, 0)
					if err != nil || len(ts) != due {
						b.Fatalf("DueTimers = %d timers, %v; want %d", len(ts), err, due)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("games=%d/next", games), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if at, ok, err := s.NextTimer(ctx); err != nil || !ok || !at.Equal(t0.Add(time.Second)) {
					b.Fatalf("NextTimer = %v, %v, %v", at, ok, err)
				}
			}
		})
		s.Close()
	}
}
