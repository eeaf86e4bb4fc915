package engine

import (
	"fmt"
	"runtime"
	"testing"
)

// perftFigures are the reference figures of shared/cases/perft.md (and
// RULES.md §3 for Vingólf), counted by engines written by others. Ends is
// the number of game-ending leaves; the only non-zero one is Brandubh's at
// depth 5 (king captures under Federation Brandubh's strong-near-throne
// king).
var perftFigures = []struct {
	variant string
	first   Side // the side to move first in the start position
	depth   int
	nodes   uint64
	ends    uint64
}{
	{"copenhagen", Attackers, 1, 116, 0},
	{"copenhagen", Attackers, 2, 6_788, 0},
	{"copenhagen", Attackers, 3, 806_344, 0},
	{"copenhagen", Attackers, 4, 50_456_804, 0},
	{"fetlar", Attackers, 1, 116, 0},
	{"fetlar", Attackers, 2, 6_788, 0},
	{"fetlar", Attackers, 3, 806_344, 0},
	{"fetlar", Attackers, 4, 50_456_804, 0},
	{"vingolf", Attackers, 1, 116, 0}, // RULES.md §3
	{"vingolf", Attackers, 2, 6_788, 0},
	{"tablut", Attackers, 1, 80, 0},
	{"tablut", Attackers, 2, 4_400, 0},
	{"tablut", Attackers, 3, 353_200, 0},
	{"tablut", Attackers, 4, 19_913_864, 0},
	{"tablut", Defenders, 1, 56, 0},
	{"tablut", Defenders, 2, 4_408, 0},
	{"tablut", Defenders, 3, 251_856, 0},
	{"tablut", Defenders, 4, 20_023_920, 0},
	{"brandubh", Attackers, 1, 40, 0},
	{"brandubh", Attackers, 2, 960, 0},
	{"brandubh", Attackers, 3, 39_512, 0},
	{"brandubh", Attackers, 4, 1_007_392, 0},
	{"brandubh", Attackers, 5, 41_843_336, 1_088},
	{"historical", Attackers, 1, 136, 0},
	{"historical", Attackers, 2, 7_620, 0},
}

// startWith returns the start position of a built-in variant with first to
// move (a copy of the variant with FirstSide changed when it differs).
func startWith(t testing.TB, name string, first Side) *Position {
	t.Helper()
	v, ok := Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) failed", name)
	}
	v.FirstSide = first
	p, err := NewPosition(v)
	if err != nil {
		t.Fatalf("NewPosition(%s): %v", name, err)
	}
	return p
}

// TestPerftFigures checks every figure of shared/cases/perft.md. Depth 3
// and less run always; deeper ones only without -short and without the
// race detector (which makes them minutes long), and they use ParallelPerft
// to spread the work over the machine's cores.
func TestPerftFigures(t *testing.T) {
	for _, c := range perftFigures {
		name := fmt.Sprintf("%s/%v-first/%d", c.variant, c.first, c.depth)
		t.Run(name, func(t *testing.T) {
			if c.depth >= 4 && (testing.Short() || raceEnabled) {
				t.Skip("deep perft: not with -short or -race")
			}
			p := startWith(t, c.variant, c.first)
			before, key := draw(p), p.Key()
			var got PerftResult
			if c.depth >= 4 {
				got = ParallelPerft(p, c.depth, runtime.GOMAXPROCS(0))
			} else {
				got = Perft(p, c.depth)
			}
			want := PerftResult{Depth: c.depth, Nodes: c.nodes, Ends: c.ends}
			if got != want {
				t.Errorf("Perft(%s, %d) = %+v, want %+v", c.variant, c.depth, got, want)
			}
			if draw(p) != before || p.Key() != key {
				t.Errorf("Perft changed the position")
			}
		})
	}
}

// TestPerftDepthZero: the root is the one node of depth 0, and an end
// when the game is over.
func TestPerftDepthZero(t *testing.T) {
	p := startWith(t, "brandubh", Attackers)
	if got, want := Perft(p, 0), (PerftResult{Depth: 0, Nodes: 1}); got != want {
		t.Errorf("Perft(start, 0) = %+v, want %+v", got, want)
	}
	// The king already on a corner: decided at set-up, a leaf.
	over := diagram(t, "brandubh", Attackers,
		"K......",
		".......",
		".......",
		".......",
		".......",
		".......",
		"...t...",
	)
	if !over.Outcome().Over() {
		t.Fatalf("Outcome() = %+v, want the escape", over.Outcome())
	}
	if got, want := Perft(over, 0), (PerftResult{Depth: 0, Nodes: 1, Ends: 1}); got != want {
		t.Errorf("Perft(over, 0) = %+v, want %+v", got, want)
	}
	if got, want := Perft(over, 2), (PerftResult{Depth: 2}); got != want {
		t.Errorf("Perft(over, 2) = %+v, want %+v", got, want)
	}
}

// TestParallelPerftEqualsPerft compares ParallelPerft with Perft for every
// built-in variant and several worker counts.
func TestParallelPerftEqualsPerft(t *testing.T) {
	for _, v := range Variants() {
		t.Run(v.Name, func(t *testing.T) {
			// Depth 3 for tier 1; the wider tier-2 boards, and everything
			// under -short, at depth 2.
			d := 3
			if v.Tier > 1 || testing.Short() {
				d = 2
			}
			p, err := NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			want := Perft(p, d)
			for _, workers := range []int{0, 1, 2, 3, 8} {
				if got := ParallelPerft(p, d, workers); got != want {
					t.Errorf("ParallelPerft(%s, %d, %d) = %+v, Perft %+v", v.Name, d, workers, got, want)
				}
			}
		})
	}
}

// TestDivideSumsToPerft: the divide counts add up to perft, and every
// legal ply has an entry.
func TestDivideSumsToPerft(t *testing.T) {
	for _, name := range []string{"copenhagen", "historical", "tablut", "brandubh"} {
		p := startWith(t, name, Attackers)
		for depth := 1; depth <= 2; depth++ {
			var sum PerftResult
			entries := Divide(p, depth)
			for _, e := range entries {
				sum.Nodes += e.Nodes
				sum.Ends += e.Ends
			}
			sum.Depth = depth
			if want := Perft(p, depth); sum != want {
				t.Errorf("%s: Divide(%d) sums to %+v, Perft %+v", name, depth, sum, want)
			}
			if n := len(p.LegalMoves(nil)); len(entries) != n {
				t.Errorf("%s: Divide(%d) has %d entries, %d legal plies", name, depth, len(entries), n)
			}
		}
	}
}

// A mid-game position for perft: a diagram, optionally a line played
// from it first (to build a history for repetition), and the counts by
// hand at depth 1 and 2. The reasoning is in the comments of each case.
type midPerft struct {
	name   string
	rules  string
	toMove Side
	rows   []string
	line   []string // plies played from the diagram before counting
	want   [3]PerftResult
	// divide lists first plies whose depth-1 and depth-2 counts are checked
	// (the ones that end the game).
	divide map[string][2]PerftResult
}

func pr(depth int, nodes, ends uint64) PerftResult {
	return PerftResult{Depth: depth, Nodes: nodes, Ends: ends}
}

// The positions below use Copenhagen rules on a 7×7 board: the throne is
// d4, the corners a1, g1, a7, g7 (only the king may stop there; hostile to
// all); the king is strong (four sides), cannot be captured on the edge,
// and escapes on a corner; edge fort, encirclement, repetition (attackers
// win on the third occurrence) and shieldwall are on.
var midPerfts = []midPerft{
	{
		// Escape, defenders to move. The lone king on c1, an attacker on e1.
		// King c1: west b1, a1 (corner: escape); east d1 (e1 blocks); north
		// c2..c7 (6): 9 plies, 1 of them (c1-a1) ends the game.
		// Depth 2: after each of the 8 other plies the attacker e1 has
		// west d1, c1, b1 (not the corner a1), east f1 (not g1), north
		// e2..e7 = 10 plies, less what the king blocks: king on b1 → 9
		// (west d1, c1), king on d1 → 7 (nothing west); c2..c7 → 10 each.
		// 9 + 7 + 6×10 = 76. One attacker cannot capture a strong king, and
		// nothing else can end the game (the open board touches the
		// attacker, so no fort; the king is on the edge, so no
		// encirclement): 0 ends.
		name: "escape/defenders", rules: "copenhagen", toMove: Defenders,
		rows: []string{
			".......",
			".......",
			".......",
			".......",
			".......",
			".......",
			"..K.t..",
		},
		want: [3]PerftResult{pr(0, 1, 0), pr(1, 9, 1), pr(2, 76, 0)},
		divide: map[string][2]PerftResult{
			"c1-a1": {pr(0, 1, 1), pr(1, 0, 0)},
			"c1-b1": {pr(0, 1, 0), pr(1, 9, 0)},
			"c1-d1": {pr(0, 1, 0), pr(1, 7, 0)},
		},
	},
	{
		// Escape, attackers to move: the same board. Attacker e1: west d1
		// (the king blocks), east f1, north e2..e7: 8 plies, no end.
		// Depth 2, the king's replies (west b1, a1; east up to the corner
		// g1; north c2..c7): after e1-d1 → 2 + 0 + 6 = 8, 1 escape (a1);
		// after e1-f1 → 2 + 2 (d1, e1) + 6 = 10 with 2 ends: the escape
		// c1-a1, and c1-e1, where the armed king captures f1 against the
		// corner g1 (hostile to every piece, §1.3) and leaves the attackers
		// without a piece, so without a legal ply (§1.6.6: they lose);
		// after e1-e2..e7 (6 plies) → 2 + 4 (d1, e1, f1, g1) + 6 = 12, 2
		// escapes (a1, g1). 8 + 10 + 6×12 = 90 nodes, 1 + 2 + 6×2 = 15 ends.
		name: "escape/attackers", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			".......",
			".......",
			".......",
			".......",
			".......",
			".......",
			"..K.t..",
		},
		want: [3]PerftResult{pr(0, 1, 0), pr(1, 8, 0), pr(2, 90, 15)},
		divide: map[string][2]PerftResult{
			"e1-d1": {pr(0, 1, 0), pr(1, 8, 1)},
			"e1-f1": {pr(0, 1, 0), pr(1, 10, 2)},
			"e1-e7": {pr(0, 1, 0), pr(1, 12, 2)},
		},
	},
	{
		// Edge fort, defenders to move. King d1, defenders b1 c2 d2 e3, an
		// attacker on g4. e3-e1 closes F = {c1, d1} behind the wall b1 c2
		// d2 e1: no attacker touches F, the king can move (to c1), and
		// every wall piece has on its rank and on its file a neighbour off
		// the board, in F or in the wall (b1: c1, edge; c2: d2, c1; d2: c2,
		// d1; e1: d1, edge) → §1.6.3 fort, defenders win.
		// Depth 1: king d1: c1; e1, f1, g1 (corner: escape); north blocked
		// → 4 (1 end). b1: c1; b2..b7 (a1 is a corner) → 7. c2: b2, a2;
		// c3..c7; c1 → 8. d2: e2, f2, g2; d3, d5, d6, d7 (not on the
		// throne d4, but through it) → 7. e3: d3, c3, b3, a3; f3, g3;
		// e4..e7; e2, e1 → 12 (e3-e1: the fort). 38 plies, 2 ends.
		// Depth 2: the attacker g4 has west f4, e4, c4, b4, a4 (passing the
		// empty throne), north g5, g6, south g3, g2 (not the corners) = 9.
		// Defender plies that block it: b1-b4 → 7, c2-c4 → 6 (f4, e4 west),
		// d2-g2 → 8, e3-g3 → 7, e3-e4 → 5 (f4 west). The other 31 non-ending
		// plies leave 9. 31×9 + 7 + 6 + 8 + 7 + 5 = 312. No attacker ply
		// ends the game (the king stays on the edge: no capture, no
		// encirclement; no fort can be closed by an attacker).
		name: "fort", rules: "copenhagen", toMove: Defenders,
		rows: []string{
			".......",
			".......",
			".......",
			"......t",
			"....T..",
			"..TT...",
			".T.K...",
		},
		want: [3]PerftResult{pr(0, 1, 0), pr(1, 38, 2), pr(2, 312, 0)},
		divide: map[string][2]PerftResult{
			"e3-e1": {pr(0, 1, 1), pr(1, 0, 0)},
			"d1-g1": {pr(0, 1, 1), pr(1, 0, 0)},
			"e3-e2": {pr(0, 1, 0), pr(1, 9, 0)},
			"e3-e4": {pr(0, 1, 0), pr(1, 5, 0)},
		},
	},
	{
		// Encirclement, attackers to move. King c3; attackers b3 d3 c4 b2
		// c1 f2; c2 and d2 empty. The ring round {c3, c2} lacks d2.
		// Depth 1: b3: a3; b4..b7 → 5. d3: e3, f3, g3; d5, d6, d7
		// (through the throne); d2, d1 → 8. c4: b4, a4; e4, f4, g4; c5, c6,
		// c7 → 8. b2: a2; c2, d2, e2; b1 → 5. c1: b1; d1, e1, f1; c2 → 5.
		// f2: e2, d2, c2; g2; f3..f7; f1 → 10. 41 plies.
		// Ends: b2-c2, c1-c2, f2-c2 put a fourth attacker next to the king
		// (c3 is neither the throne, beside it, nor on the edge): king
		// captured. f2-d2 closes the ring: no defender reaches the edge,
		// encirclement. d3-d2 and b2-d2 fill d2 but open the ring
		// elsewhere. 4 ends.
		// Depth 2, the king's replies after the 37 other plies: normally
		// only c3-c2 (1). Moving b3 opens b3 (and a3 unless it went there):
		// a3 → 2, b4..b7 → 3 each: 14. Moving d3 opens d3..g3 up to the
		// piece: e3 → 2, f3 → 3, g3 → 4, d5, d6, d7, d2, d1 → 5 each: 34.
		// Moving c4 opens c4..c7 up to the piece: b4, a4, e4, f4, g4 → 5
		// each, c5 → 2, c6 → 3, c7 → 4: 34. b2's 4 others → 1 each: 4.
		// c1's 4 others open c1 → 2 each: 8. f2's 8 others → 1 each: 8.
		// 14 + 34 + 34 + 4 + 8 + 8 = 102; no king ply can reach a corner
		// (none lies on rank 3 or file c), so 0 ends.
		name: "encirclement", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			".......",
			".......",
			".......",
			"..t....",
			".tKt...",
			".t...t.",
			"..t....",
		},
		want: [3]PerftResult{pr(0, 1, 0), pr(1, 41, 4), pr(2, 102, 0)},
		divide: map[string][2]PerftResult{
			"f2-d2": {pr(0, 1, 1), pr(1, 0, 0)},
			"f2-c2": {pr(0, 1, 1), pr(1, 0, 0)},
			"b2-d2": {pr(0, 1, 0), pr(1, 1, 0)},
			"d3-g3": {pr(0, 1, 0), pr(1, 4, 0)},
		},
	},
	{
		// Repetition, attackers to move. From the diagram (king c3,
		// attacker e5, attackers to move: position S0) the line e5-e6
		// c3-c2 e6-e5 c2-c3 (S0 again, 2nd time) e5-e6 c3-c2 leaves S6 =
		// king c2, attacker e6, attackers to move, seen twice.
		// Depth 1: attacker e6: a6, b6, c6, d6; f6, g6; e7; e5..e1 → 12;
		// none ends (e6-e5 makes king c2 / attacker e5 a second time).
		// Depth 2: the king c2 has b2, a2; d2, e2, f2, g2; c3..c7; c1 =
		// 12, less what the attacker blocks: after e6-c6 → 10 (north only
		// c3, c4, c5), after e6-e2 → 9 (east only d2): 10×12 + 10 + 9 = 139.
		// One of them ends: e6-e5 then c2-c3 is S0 for the third time
		// (R1: the set-up position is its first occurrence) → repetition,
		// attackers win.
		name: "repetition", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			".......",
			".......",
			"....t..",
			".......",
			"..K....",
			".......",
			".......",
		},
		line: []string{"e5-e6", "c3-c2", "e6-e5", "c2-c3", "e5-e6", "c3-c2"},
		want: [3]PerftResult{pr(0, 1, 0), pr(1, 12, 0), pr(2, 139, 1)},
		divide: map[string][2]PerftResult{
			"e6-e5": {pr(0, 1, 0), pr(1, 12, 1)},
			"e6-c6": {pr(0, 1, 0), pr(1, 10, 0)},
			"e6-e2": {pr(0, 1, 0), pr(1, 9, 0)},
		},
	},
}

// TestPerftMidGame checks perft and divide from positions near each game
// end against counts made by hand (see midPerfts), against the reference
// implementation's perft, and ParallelPerft against Perft.
func TestPerftMidGame(t *testing.T) {
	for _, c := range midPerfts {
		t.Run(c.name, func(t *testing.T) {
			p := diagram(t, c.rules, c.toMove, c.rows...)
			r := newRefGame(p.Variant(), p.Board(), p.ToMove())
			for _, s := range c.line {
				m := mv(t, s)
				if _, err := p.Play(m); err != nil {
					t.Fatalf("Play(%s): %v", s, err)
				}
				r.play(m)
			}
			if p.Outcome().Over() {
				t.Fatalf("Outcome() = %+v before counting", p.Outcome())
			}
			for depth, want := range c.want {
				if got := Perft(p, depth); got != want {
					t.Errorf("Perft(%d) = %+v, want %+v (by hand)", depth, got, want)
				}
				n, e := refPerft(r, depth)
				if got := pr(depth, n, e); got != want {
					t.Errorf("reference perft(%d) = %+v, want %+v (by hand)", depth, got, want)
				}
				if got := ParallelPerft(p, depth, 3); got != want {
					t.Errorf("ParallelPerft(%d, 3) = %+v, want %+v", depth, got, want)
				}
			}
			for depth := 1; depth <= 2; depth++ {
				got := map[string]PerftResult{}
				for _, e := range Divide(p, depth) {
					got[e.Move.String()] = e.PerftResult
				}
				for m, want := range c.divide {
					if g, ok := got[m]; !ok || g != want[depth-1] {
						t.Errorf("Divide(%d)[%s] = %+v (present %v), want %+v", depth, m, g, ok, want[depth-1])
					}
				}
			}
			// Deeper, against the reference only.
			if !testing.Short() {
				n, e := refPerft(r, 3)
				if got, want := Perft(p, 3), pr(3, n, e); got != want {
					t.Errorf("Perft(3) = %+v, reference %+v", got, want)
				}
			}
		})
	}
}

// TestRepetitionNeedsHistory: the position of the repetition case without
// its history has no repetition below it, and the ply that repeats it for
// the third time gives the attackers the win (Copenhagen).
func TestRepetitionNeedsHistory(t *testing.T) {
	var c midPerft
	for _, m := range midPerfts {
		if m.name == "repetition" {
			c = m
		}
	}
	p := diagram(t, c.rules, c.toMove, c.rows...)
	for _, s := range c.line {
		if _, err := p.Play(mv(t, s)); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.Repetitions(); got != 2 {
		t.Errorf("Repetitions() after the line = %d, want 2", got)
	}
	fresh, err := NewPositionFromBoard(p.Variant(), p.Board(), p.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Perft(fresh, 2), pr(2, 139, 0); got != want {
		t.Errorf("Perft(2) without history = %+v, want %+v", got, want)
	}
	if _, err := p.Play(mv(t, "e6-e5")); err != nil {
		t.Fatal(err)
	}
	res, err := p.Play(mv(t, "c2-c3"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Outcome{Result: AttackersWin, Reason: ReasonRepetition, Ply: 8}); res.Outcome != want {
		t.Errorf("third occurrence: Outcome = %+v, want %+v", res.Outcome, want)
	}
}
