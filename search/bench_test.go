package search

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
)

// middleGame is a Copenhagen middle game: the first 30 plies of game 4 of
// shared/records/copenhagen.csv (capture marks left out). 23 attackers and
// 11 defenders are left; the king stands on f3.
const middleGame = "h1-h3 f4-i4 g1-i1 g5-g3 h3-i3 f5-i5 d1-d3 g3-g2 f2-c2 g2-i2 j6-j2 f6-f3 k4-k3 g6-g1 " +
	"b6-b3 h6-j6 k8-i8 f3-h3 h11-h9 h3-h8 k7-j7 g7-g10 h9-h10 h8-h9 j7-j9 h9-a9 f10-a10 a9-i9 d11-d9 f7-i7"

// benchPosition returns the start of a variant, or the Copenhagen middle
// game for "middle".
func benchPosition(tb testing.TB, name string) *engine.Position {
	tb.Helper()
	rules := name
	if name == "middle" {
		rules = "copenhagen"
	}
	v, ok := engine.Lookup(rules)
	if !ok {
		tb.Fatalf("no variant %q", rules)
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		tb.Fatal(err)
	}
	if name == "middle" {
		play(tb, p, middleGame)
	}
	return p
}

// BenchmarkSearch measures the search's speed in nodes per second on one
// goroutine: a fixed node budget from the start of several variants and
// from the Copenhagen middle game, with a cleared table each time.
// docs/engine.md gives the figures and the command
// (GOMAXPROCS=1, -count 6, benchstat).
func BenchmarkSearch(b *testing.B) {
	for _, name := range []string{"middle", "copenhagen", "historical", "tablut", "brandubh"} {
		b.Run(name, func(b *testing.B) {
			p := benchPosition(b, name)
			s := New(Options{})
			var nodes uint64
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				s.Clear()
				r, err := s.Search(context.Background(), p, Limits{Nodes: 300_000})
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/(cpuTime()-cpu0).Seconds(), "nodes/cpu-s")
		})
	}
}

// cpuTime returns the CPU time the process has used (user and system): on
// a loaded machine nodes per CPU second say more about the code than nodes
// per wall-clock second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEvaluate measures one evaluation of the middle game's snapshot.
func BenchmarkEvaluate(b *testing.B) {
	p := benchPosition(b, "middle")
	s := New(Options{})
	s.prepare(p.Variant())
	s.b.load(p)
	var sum Score
	for b.Loop() {
		sum += s.ev.evaluate(&s.b)
	}
	_ = sum
}

// BenchmarkLoad measures reading a position into the snapshot.
func BenchmarkLoad(b *testing.B) {
	p := benchPosition(b, "middle")
	s := New(Options{})
	s.prepare(p.Variant())
	for b.Loop() {
		s.b.load(p)
	}
}
