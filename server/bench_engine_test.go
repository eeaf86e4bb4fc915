package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/search"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// benchMiddleGame is a Copenhagen middle game: the first 30 plies of game
// 4 of shared/records/copenhagen.csv, the position of search's
// BenchmarkSearch/middle; the attackers are to move.
const benchMiddleGame = "h1-h3 f4-i4 g1-i1 g5-g3 h3-i3 f5-i5 d1-d3 g3-g2 f2-c2 g2-i2 j6-j2 f6-f3 k4-k3 g6-g1 " +
	"b6-b3 h6-j6 k8-i8 f3-h3 h11-h9 h3-h8 k7-j7 g7-g10 h9-h10 h8-h9 j7-j9 h9-a9 f10-a10 a9-i9 d11-d9 f7-i7"

// seedEngineTurn stores a running game of variant in which the engine,
// at level, plays the attackers and is to move after the plies, with
// its timer due at now.
func seedEngineTurn(tb testing.TB, srv *referee.Server, store *archive.Store, id, variant string, plies []string, level search.Level, now time.Time) {
	tb.Helper()
	g := &archive.Game{
		ID: id, Variant: variant, Status: archive.Active, Attackers: referee.EngineAddress, Defenders: "d@player.test",
		Challenger: "d@player.test", DefenderToken: "d000000000", EngineLevel: int(level), StartedAt: now, CreatedAt: now,
	}
	var ps []archive.Ply
	for i, mv := range plies {
		ps = append(ps, archive.Ply{N: i + 1, Move: mv, At: now})
	}
	g.Plies = ps
	t, err := referee.Load(g)
	if err != nil {
		tb.Fatal(err)
	}
	if !referee.EngineToMove(t) {
		tb.Fatalf("game %s: the engine is not to move", id)
	}
	plan, err := gameclock.TimerPlan(srv, t)
	if err != nil {
		tb.Fatal(err)
	}
	c := archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{id: plan}}}
	if len(ps) > 0 {
		c.NewPlies = map[string][]archive.Ply{id: ps}
	}
	if err := store.Commit(context.Background(), c); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkEngineReply measures one reply of the engine through the
// referee at each level with the level's default think time (the search
// as Options.EngineThink's default makes it, then the commit of its ply
// with the player's mail): from the start of Brandubh and Copenhagen and
// from the Copenhagen middle game, the engine to move. Reported: the time
// per reply (ns/op), the search's depth and nodes. docs/engine.md gives
// the figures and the command (GOMAXPROCS=1, -count 6, benchstat).
func BenchmarkEngineReply(b *testing.B) {
	positions := []struct {
		name, variant string
		plies         []string
	}{
		{"brandubh", "brandubh", nil},
		{"copenhagen", "copenhagen", nil},
		{"middle", "copenhagen", strings.Fields(benchMiddleGame)},
	}
	for _, p := range positions {
		for l := search.MinLevel; l <= search.MaxLevel; l++ {
			b.Run(fmt.Sprintf("%s/level-%d", p.name, l), func(b *testing.B) {
				ctx := context.Background()
				now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
				store, err := archive.OpenWith(ctx, filepath.Join(b.TempDir(), "e.db"), archive.Options{Now: func() time.Time { return now }})
				if err != nil {
					b.Fatal(err)
				}
				defer store.Close()
				srv, err := referee.New(referee.Options{Address: "tafl@game.test", Store: store, Sender: &fakeSender{}, Now: func() time.Time { return now },
					Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
				if err != nil {
					b.Fatal(err)
				}
				var depth, nodes, n float64
				srv.Opts.EngineSearch = func(ctx context.Context, pos *engine.Position, l search.Level, lim search.Limits) (search.Result, error) {
					o := l.Options() // as Server.engineSearch does
					o.TableBytes = srv.Opts.EngineTableBytes
					r, err := search.New(o).Search(ctx, pos, lim)
					depth, nodes, n = depth+float64(r.Depth), nodes+float64(r.Nodes), n+1
					return r, err
				}
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					id := fmt.Sprintf("G%05d", i)
					seedEngineTurn(b, srv, store, id, p.variant, p.plies, l, now)
					b.StartTimer()
					if _, err := srv.RunTimers(ctx); err != nil {
						b.Fatal(err)
					}
					srv.WaitWork() // the engine's turns under way
					b.StopTimer()
					if g, err := store.Game(ctx, id); err != nil || g.PlyCount != len(p.plies)+1 {
						b.Fatalf("game %s: the engine did not reply (%v)", id, err)
					}
					b.StartTimer()
				}
				b.ReportMetric(depth/n, "depth")
				b.ReportMetric(nodes/n, "nodes/op")
			})
		}
	}
}
