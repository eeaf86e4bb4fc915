package search

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/taflmail/taflmail/engine"
)

// TestEveryVariant: in every built-in variant the engine plays a short game
// against itself from the start: every move legal, every principal
// variation legal, and the score from both sides' searches consistent in
// sign with a decided game.
func TestEveryVariant(t *testing.T) {
	plies := 8 // engine against itself, each ply a small search
	short := testing.Short() || raceEnabled
	if short {
		plies = 4
	}
	for _, v := range engine.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			if v.Tier > 1 && short {
				t.Skip("tier 2 only without -short and -race")
			}
			p, err := engine.NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			s := New(Options{TableBytes: 1 << 20})
			for i := 0; i < plies && !p.Outcome().Over(); i++ {
				r, err := s.Search(context.Background(), p, Limits{Depth: 3, Nodes: 4000})
				if err != nil {
					t.Fatalf("ply %d: %v", i+1, err)
				}
				checkPV(t, p, r)
				if _, err := p.Play(r.Move); err != nil {
					t.Fatalf("ply %d: %v", i+1, err)
				}
				if r.Score.IsWin() && r.Score.Plies() == 1 && !p.Outcome().Over() {
					t.Fatalf("ply %d: %v scored a win in 1 but the game goes on", i+1, r.Move)
				}
			}
		})
	}
}

// TestDeterministic: two fresh Searchers, or one Searcher after Clear,
// give the same result for the same position and node or depth limit.
func TestDeterministic(t *testing.T) {
	p := benchPosition(t, "middle")
	lims := []Limits{{Nodes: 8000}, {Depth: 3}}
	if raceEnabled {
		lims = []Limits{{Nodes: 2000}, {Depth: 2}}
	}
	for _, lim := range lims {
		s1, s2 := New(Options{}), New(Options{})
		r1, err1 := s1.Search(context.Background(), p, lim)
		r2, err2 := s2.Search(context.Background(), p, lim)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		same := func(a, b Result) bool {
			if a.Move != b.Move || a.Score != b.Score || a.Depth != b.Depth || a.Nodes != b.Nodes || len(a.PV) != len(b.PV) {
				return false
			}
			for i := range a.PV {
				if a.PV[i] != b.PV[i] {
					return false
				}
			}
			return true
		}
		if !same(r1, r2) {
			t.Errorf("%+v: two searchers differ:\n%+v\n%+v", lim, r1, r2)
		}
		s1.Search(context.Background(), benchPosition(t, "copenhagen"), Limits{Depth: 2})
		s1.Clear()
		r3, _ := s1.Search(context.Background(), p, lim)
		if !same(r1, r3) {
			t.Errorf("%+v: after Clear the result differs:\n%+v\n%+v", lim, r1, r3)
		}
		if lim.Nodes > 0 && (r1.Nodes < lim.Nodes || r1.Nodes > lim.Nodes+1) && r1.Depth > 1 {
			t.Errorf("node limit %d: searched %d nodes", lim.Nodes, r1.Nodes)
		}
		if lim.Depth > 0 && r1.Depth != lim.Depth {
			t.Errorf("depth limit %d: reached %d", lim.Depth, r1.Depth)
		}
	}
}

// TestSearchStops: a search with a time budget or a cancelled context
// returns with a legal move; a game that is over is an error; a context
// cancelled before the start is its error.
func TestSearchStops(t *testing.T) {
	p := benchPosition(t, "middle")
	s := New(Options{TableBytes: 1 << 20})
	r, err := s.Search(context.Background(), p, Budget(50*time.Millisecond))
	if err != nil || r.Depth < 1 {
		t.Fatalf("Budget(50ms): %+v, %v", r, err)
	}
	checkPV(t, p, r)

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	r, err = s.Search(ctx, p, Limits{})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled search: %v", err)
	}
	if err == nil {
		checkPV(t, p, r)
	}

	if _, err := s.Search(ctx, p, Limits{Depth: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("search with a cancelled context: %v, want context.Canceled", err)
	}

	over := diagram(t, "brandubh", engine.Attackers, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . t . . . .
		. . . . . . .
		. K . . . . .`)
	if r, err := over.Play(mv(t, "c3-c1")); err != nil || r.Outcome.Reason != engine.ReasonKingCaptured {
		t.Fatalf("c3-c1: %+v, %v; want the king captured against the corner", r.Outcome, err)
	}
	if _, err := s.Search(context.Background(), over, Limits{Depth: 2}); !errors.Is(err, ErrGameOver) {
		t.Errorf("search of a finished game: %v, want ErrGameOver", err)
	}
}

// TestProgress: Progress sees every completed iteration, deepening.
func TestProgress(t *testing.T) {
	var depths []int
	s := New(Options{Progress: func(r Result) { depths = append(depths, r.Depth) }})
	r, err := s.Search(context.Background(), benchPosition(t, "brandubh"), Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(depths) != 4 || depths[0] != 1 || depths[3] != 4 || r.Depth != 4 {
		t.Errorf("Progress saw depths %v, result depth %d; want 1 2 3 4", depths, r.Depth)
	}
}

func TestScoreString(t *testing.T) {
	for _, c := range []struct {
		s    Score
		want string
	}{{0, "+0.00"}, {125, "+1.25"}, {-40, "-0.40"}, {Win - 3, "win in 3"}, {-Win + 4, "loss in 4"}} {
		if got := c.s.String(); got != c.want {
			t.Errorf("Score(%d).String() = %q, want %q", int(c.s), got, c.want)
		}
	}
	if !(Win - 1).IsWin() || (Win-1).Plies() != 1 || Score(500).Decided() || !(-Win + 2).IsLoss() {
		t.Errorf("Score predicates are wrong")
	}
}

func TestAdvice(t *testing.T) {
	for _, c := range []struct {
		s              Score
		resign, accept bool
	}{
		{0, false, false},
		{-50, false, false},
		{DrawScore, false, true},
		{-900, false, true},
		{ResignScore, true, true},
		{-Win + 5, true, true},
		{Win - 5, false, false},
		{300, false, false},
	} {
		r := Result{Score: c.s}
		if Resign(r) != c.resign || AcceptDraw(r) != c.accept {
			t.Errorf("score %v: Resign %v AcceptDraw %v, want %v %v", c.s, Resign(r), AcceptDraw(r), c.resign, c.accept)
		}
	}
}

func TestLevels(t *testing.T) {
	prev := LevelSpec{}
	for l := MinLevel; l <= MaxLevel; l++ {
		sp := l.Spec()
		if sp.Level != l || !l.Valid() {
			t.Fatalf("level %d: spec %+v", l, sp)
		}
		// Every level searches at least as deep and as long as the one
		// below, with at least its evaluation terms.
		if l > MinLevel {
			if sp.Think < prev.Think || sp.Depth != 0 && (prev.Depth == 0 || sp.Depth < prev.Depth) || sp.Terms&prev.Terms != prev.Terms {
				t.Errorf("level %d (%+v) is not above level %d (%+v)", l, sp, l-1, prev)
			}
		}
		prev = sp
		lim := l.Limits(0)
		if lim.Hard != sp.Think || lim.Soft != sp.Think/2 || lim.Depth != sp.Depth {
			t.Errorf("level %d: Limits(0) = %+v", l, lim)
		}
		if lim := l.Limits(3 * time.Second); lim.Hard != 3*time.Second {
			t.Errorf("level %d: Limits(3s) = %+v", l, lim)
		}
	}
	if MaxLevel.Spec().Think != 10*time.Second {
		t.Errorf("level 5 thinks %v by default, want 10s", MaxLevel.Spec().Think)
	}
	if Level(0).Valid() || Level(6).Valid() {
		t.Errorf("levels 0 and 6 are valid")
	}
	v, _ := engine.Lookup("copenhagen")
	if w := Level(1).Options().Weights(v); w.KingRoom != 0 || w.Attacker == 0 || w.EscapeNow == 0 {
		t.Errorf("level 1 weights %+v, want material and escape only", w)
	}
}
