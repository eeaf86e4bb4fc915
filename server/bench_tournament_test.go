package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// benchEvent stores a created tournament of n players (rated, brandubh,
// 30d+1d, matches of two games) in a fresh archive and returns a referee
// over it, and the archive's file.
func benchEvent(b *testing.B, n int, now time.Time) (*referee.Server, *archive.Store, string) {
	b.Helper()
	ctx := context.Background()
	clock := func() time.Time { return now }
	path := filepath.Join(b.TempDir(), "bench.db")
	store, err := archive.OpenWith(ctx, path, archive.Options{Now: clock})
	if err != nil {
		b.Fatal(err)
	}
	srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: store, Now: clock, Rand: rand.NewChaCha8([32]byte{5}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	t := &archive.Tournament{ID: "big", Name: "Big", Variant: "brandubh", TimeControl: "30d+1d", Groups: 1, GamesPerPairing: 2,
		StartDate: now.Truncate(24 * time.Hour), Rated: true, LeaveDays: 30, Status: archive.TournamentCreated}
	tc := &archive.TournamentChange{Tournaments: []*archive.Tournament{t}}
	for i := range n {
		tc.Entries = append(tc.Entries, archive.Entry{TournamentID: "big", Player: fmt.Sprintf("p%03d@player.test", i),
			Key: fmt.Sprintf("k%09d", i), Seq: i + 1})
	}
	if err := store.Commit(ctx, archive.Change{Writes: []archive.Write{tc}}); err != nil {
		b.Fatal(err)
	}
	return srv, store, path
}

// BenchmarkStartTournament100: starting a 100-player event with matches
// of two games: 9,900 games paired, created with their keys and timers
// (a deadline and three reminders each), 100 start lists, the pairings and
// the event's state, in one fsync'd transaction (issue 11: < 5 s).
// Setting the archive up is not timed.
func BenchmarkStartTournament100(b *testing.B) { benchStart(b, 100) }

// BenchmarkStartTournament300 and BenchmarkStartTournament1000: the same
// with 300 players (89,700 games, each player's list 598 games) and with
// 1,000 (999,000 games, lists of 1,998): the start is streamed
// (StartTournament), so the live heap it peaks at (peak-heap-MB) grows
// with the players, not the games (issue 18 §4; docs/performance.md).
// The 1,000-player start writes about 1.5 GB of archive and takes
// minutes: run it alone, with -benchtime 1x.
func BenchmarkStartTournament300(b *testing.B)  { benchStart(b, 300) }
func BenchmarkStartTournament1000(b *testing.B) { benchStart(b, 1000) }

// benchStart times the start of an event of n players in matches of two
// games, and reports its CPU time, the peak of the live heap while it
// runs (sampled every 20 ms from runtime/metrics, so a peak between two
// samples may be missed by a little) and the size of the archive after.
func benchStart(b *testing.B, n int) {
	ctx := context.Background()
	now := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	want := n * (n - 1)
	var cpu time.Duration
	var peak uint64
	var size int64 // the archive's file once closed (the WAL checkpointed into it)
	for b.Loop() {
		b.StopTimer()
		srv, store, path := benchEvent(b, n, now)
		runtime.GC()
		b.StartTimer()
		stop := samplePeakHeap(&peak)
		cpu0 := cpuTime()
		r, err := StartTournamentCounted(srv, ctx, "big")
		cpu += cpuTime() - cpu0
		stop()
		b.StopTimer()
		if err != nil || r.Games != want || r.PlayerMails != n {
			b.Fatalf("StartTournamentCounted = %+v, %v; want %d games, %d lists", r, err, want, n)
		}
		store.Close()
		if fi, err := os.Stat(path); err == nil {
			size = fi.Size()
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(size)/(1<<20), "archive-MB")
}

// samplePeakHeap samples the bytes of live and not yet swept heap objects
// every 20 ms into *peak (the largest seen) until the returned function
// is called, which takes a last sample.
func samplePeakHeap(peak *uint64) (stop func()) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > *peak {
			*peak = v
		}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		read()
	}
}

// BenchmarkTournamentStandings100: the standings of that event from the
// archive, as `taflmail tournament standings` and the mail command
// compute them, and as the referee does after each of its games ends:
// the tournament, its 100 entries and 9,900 games read, the table
// computed (issue 11: < 100 ms). Half the games are finished.
// TournamentResults reads what standings need; TournamentGames, which
// reads whole games, is the export's.
func BenchmarkTournamentStandings100(b *testing.B) {
	ctx := context.Background()
	now := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	srv, store, _ := benchEvent(b, 100, now)
	defer store.Close()
	ids, err := StartTournament(srv, ctx, "big")
	if err != nil {
		b.Fatal(err)
	}
	gs, err := store.TournamentGames(ctx, "big", false)
	if err != nil {
		b.Fatal(err)
	}
	var c archive.Change
	for i, g := range gs[:len(ids)/2] {
		g.Status, g.Result, g.Reason = archive.Finished, []string{"attackers", "defenders", "draw"}[i%3], "resignation"
		c.Games = append(c.Games, g)
	}
	if err := store.Commit(ctx, c); err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime()
	for b.Loop() {
		t, err := store.Tournament(ctx, "big")
		if err != nil {
			b.Fatal(err)
		}
		es, err := store.Entries(ctx, "big")
		if err != nil {
			b.Fatal(err)
		}
		gs, err := store.TournamentResults(ctx, "big")
		if err != nil {
			b.Fatal(err)
		}
		sts, err := EventStandings(t, es, gs)
		if err != nil || len(sts) != 1 || sts[0].Finished != 4950 {
			b.Fatalf("EventStandings = %v, %v", sts, err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime returns the CPU time the process has used (user and system, all
// threads): on a machine shared by several sessions the CPU time of an
// operation says more about the code than its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
