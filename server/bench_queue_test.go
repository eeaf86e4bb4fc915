package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// BenchmarkEngineFlood measures how long a real player's level-1 game
// waits for the engine's ply while 20 addresses have 3 level-5 games each
// waiting for theirs (issue 18 §3): 60 level-5 turns fell due a minute
// before the level-1 one, and one RunTimers hands all 61 to the engine
// runner. Real searches, Brandubh from the start, the engine to move;
// Options.EngineThink 1 s (level 5 thinks 1 s, level 1 20 ms, so a run
// before the fair queue ends within minutes), one search slot
// (EngineSearches 1, the default). Reported: level1-wait-s, from the call
// of RunTimers to the commit of the level-1 game's ply. The figures, and
// the command, are in docs/performance.md.
func BenchmarkEngineFlood(b *testing.B) {
	var wait time.Duration
	n := 0
	for b.Loop() {
		wait += engineFloodRun(b)
		n++
	}
	b.ReportMetric(wait.Seconds()/float64(n), "level1-wait-s")
}

// engineFloodRun sets up one flood in a new archive and returns how long
// the level-1 ply took.
func engineFloodRun(b *testing.B) time.Duration {
	b.StopTimer()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	store, err := archive.OpenWith(ctx, filepath.Join(b.TempDir(), "flood.db"), archive.Options{Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: store, Sender: &fakeSender{}, Now: func() time.Time { return now },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), EngineThink: time.Second, EngineSearches: 1})
	if err != nil {
		b.Fatal(err)
	}
	for g := range 3 {
		for p := range 20 {
			seedEngineTurnOf(b, srv, store, fmt.Sprintf("F%02d%03d", p, g), fmt.Sprintf("p%02d@flood.test", p), 5, now.Add(-time.Minute))
		}
	}
	seedEngineTurnOf(b, srv, store, "LOW001", "real@player.test", 1, now)
	b.StartTimer()
	start := time.Now()
	if _, err := srv.RunTimers(ctx); err != nil {
		b.Fatal(err)
	}
	for {
		g, err := store.Game(ctx, "LOW001")
		if err != nil {
			b.Fatal(err)
		}
		if g.PlyCount > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	wait := time.Since(start)
	b.StopTimer()
	cancel() // the level-5 searches still queued or running stop
	srv.WaitWork()
	b.StartTimer()
	return wait
}
