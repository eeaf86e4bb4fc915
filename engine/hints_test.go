package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomGame plays up to plies random legal plies from p with a fixed
// seed, calling visit before every ply; it stops when the game ends.
func randomGame(t *testing.T, p *Position, seed uint64, plies int, visit func(*Position)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x68696e7473))
	var moves []Move
	for i := 0; i < plies && !p.Outcome().Over(); i++ {
		visit(p)
		moves = p.LegalMoves(moves[:0])
		p.Make(moves[rng.IntN(len(moves))])
	}
}

func TestAppendCellsIsBoard(t *testing.T) {
	for _, v := range Variants() {
		t.Run(v.Name, func(t *testing.T) {
			p, err := NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			buf := []Piece{Attacker} // a non-empty dst must be kept
			randomGame(t, p, 1, 60, func(p *Position) {
				got := p.AppendCells(buf[:1])
				if got[0] != Attacker {
					t.Fatalf("AppendCells overwrote dst[0]")
				}
				if want := p.Board().Cells; !slices.Equal(got[1:], want) {
					t.Fatalf("after ply %d AppendCells = %v, Board().Cells = %v", p.Ply(), got[1:], want)
				}
				buf = got
			})
		})
	}
}

// TestCaptureTargetsCountCaptures: for every legal ply along random games
// of every variant, the number of times CaptureTargets lists the ply's
// destination (zero for an unarmed king) is the number of taflmen Make
// captures by custodial capture. Shieldwall is switched off, since it is
// not counted; the king's capture is left out of the count.
func TestCaptureTargetsCountCaptures(t *testing.T) {
	checked, capturing := 0, 0
	for _, v := range Variants() {
		v.Shieldwall, v.ShieldwallCorners = false, false
		for seed := uint64(1); seed <= 4; seed++ {
			p, err := NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			var targets []Square
			var moves []Move
			randomGame(t, p, seed, 150, func(p *Position) {
				targets = p.CaptureTargets(targets[:0])
				moves = p.LegalMoves(moves[:0])
				for _, m := range moves {
					want := 0
					if p.At(m.From) != King || v.KingArms == KingArmed || v.KingArms == KingHammerOnly {
						for _, s := range targets {
							if s == m.To {
								want++
							}
						}
					}
					before := p.Count(Attacker) + p.Count(Defender)
					u := p.Make(m)
					got := before - p.Count(Attacker) - p.Count(Defender)
					p.Unmake(u)
					if got != want {
						t.Fatalf("%s seed %d ply %d: %v captures %d taflmen, CaptureTargets %v predicts %d",
							v.Name, seed, p.Ply(), m, got, want, targets)
					}
					checked++
					if got > 0 {
						capturing++
					}
				}
			})
		}
	}
	if capturing == 0 {
		t.Fatalf("no capturing ply among %d checked; the test shows nothing", checked)
	}
	t.Logf("%d plies checked, %d of them capture", checked, capturing)
}

func TestCaptureTargetsDiagram(t *testing.T) {
	// Attackers to move (7×7: throne d4, corners a1 a7 g1 g7). d2 is listed
	// twice: arriving there takes c2 against the attacker on b2 and d3
	// against the empty throne, which is hostile to defenders. b4 takes c4
	// against the throne too. e6 has no anvil anywhere, and the king on e1
	// is never a custodial victim.
	p := diagram(t, "brandubh", Attackers,
		".......",
		"....T..",
		".......",
		"..T....",
		"...T...",
		".tT.t..",
		"....K..",
	)
	got := p.CaptureTargets(nil)
	var names []string
	for _, s := range got {
		names = append(names, s.String())
	}
	slices.Sort(names)
	want := []string{"b4", "d2", "d2"}
	if !slices.Equal(names, want) {
		t.Errorf("CaptureTargets = %v, want %v", names, want)
	}
}

// TestMakeNull: a null move gives the turn away and changes the key as a
// ply does; UnmakeNull restores everything; plies after it see no
// repetition of positions before it; Make and Unmake nest inside it.
func TestMakeNull(t *testing.T) {
	p := startWith(t, "brandubh", Attackers)
	p.Make(mv(t, "d2-e2"))
	before := struct {
		key   uint64
		side  Side
		ply   int
		reps  int
		board string
	}{p.Key(), p.ToMove(), p.Ply(), p.Repetitions(), draw(p)}

	u := p.MakeNull()
	if p.ToMove() != Attackers || p.Ply() != before.ply+1 {
		t.Fatalf("after MakeNull: to move %v, ply %d; want attackers, %d", p.ToMove(), p.Ply(), before.ply+1)
	}
	b := p.Board()
	fresh, err := NewPositionFromBoard(p.Variant(), b, Attackers)
	if err != nil {
		t.Fatal(err)
	}
	if p.Key() != fresh.Key() {
		t.Errorf("key after MakeNull = %x, key of the same board with the attackers to move = %x", p.Key(), fresh.Key())
	}
	if got, want := len(p.LegalMoves(nil)), len(fresh.LegalMoves(nil)); got != want {
		t.Errorf("after MakeNull %d legal moves, want the attackers' %d", got, want)
	}
	// A second null move brings back the board and side to move of the
	// position before the first, which does not count as a repetition;
	// plies made inside the null move unmake as usual.
	u1 := p.MakeNull()
	if p.Key() != before.key {
		t.Errorf("two null moves give key %x, want the key before them %x", p.Key(), before.key)
	}
	if got := p.Repetitions(); got != 1 {
		t.Errorf("a position seen before the null move counts %d times after it, want 1", got)
	}
	u2 := p.Make(mv(t, "d3-c3"))
	p.Unmake(u2)
	p.UnmakeNull(u1)
	p.UnmakeNull(u)
	after := struct {
		key   uint64
		side  Side
		ply   int
		reps  int
		board string
	}{p.Key(), p.ToMove(), p.Ply(), p.Repetitions(), draw(p)}
	if after != before {
		t.Errorf("UnmakeNull left %+v, want %+v", after, before)
	}
	// The repetition history is back: playing back and forth repeats.
	p.Make(mv(t, "d3-c3"))
	p.Make(mv(t, "e2-d2"))
	p.Make(mv(t, "c3-d3"))
	p.Make(mv(t, "d2-e2"))
	if got := p.Repetitions(); got != 2 {
		t.Errorf("after a cycle the position counts %d times, want 2", got)
	}
}

// TestCaptures: Captures grows by the pieces a ply takes (as Play reports
// them, the king included), CapturedSquares names them in Play's order,
// and Unmake takes them back.
func TestCaptures(t *testing.T) {
	for _, v := range Variants() {
		p, err := NewPosition(v)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 5))
		total := 0
		for ply := 0; ply < 200 && !p.Outcome().Over(); ply++ {
			moves := p.LegalMoves(nil)
			for i, m := range moves {
				if (ply+i)%7 != 0 {
					continue // a sample keeps the test fast
				}
				q := p.Clone()
				r, _ := q.Play(m)
				u := p.Make(m)
				if got := p.Captures() - total; got != len(r.Captures) {
					t.Fatalf("%s: %v captures %d by Captures(), %d by Play", v.Name, m, got, len(r.Captures))
				}
				if got := p.CapturedSquares(nil, total); !slices.Equal(got, r.Captures) {
					t.Fatalf("%s: %v: CapturedSquares = %v, Play captured %v", v.Name, m, got, r.Captures)
				}
				p.Unmake(u)
				if p.Captures() != total {
					t.Fatalf("%s: Unmake(%v) leaves Captures() = %d, want %d", v.Name, m, p.Captures(), total)
				}
			}
			r, err := p.Play(moves[rng.IntN(len(moves))])
			if err != nil {
				t.Fatal(err)
			}
			total += len(r.Captures)
			if p.Captures() != total {
				t.Fatalf("%s ply %d: Captures() = %d, want %d", v.Name, ply+1, p.Captures(), total)
			}
		}
	}
}
