package search

import (
	"slices"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// The tactics suite (issue 13): positions drawn as diagrams, each with the
// moves that solve it. Every row is checked twice: an independent
// full-width search (forcedWin, no evaluation, no pruning) confirms that
// the listed moves are exactly the solutions, and the Searcher must play
// one of them with the right score at a fixed depth (deterministic; far
// inside the default budget of level 5: the deepest row takes a few
// thousand nodes, milliseconds).
type tactic struct {
	name    string
	rules   string
	toMove  engine.Side // to move in the diagram
	board   string
	history string // plies played from the diagram before the puzzle
	kind    tacticKind
	plies   int      // win: the win takes this many plies; hold: against wins within this many
	solve   []string // the solving moves, sorted
	reason  engine.Reason
	depth   int // search depth
}

type tacticKind uint8

const (
	// win: the solving moves force a win in exactly plies plies.
	win tacticKind = iota
	// hold: the solving moves are the only ones after which the opponent
	// cannot force a win within plies plies; the engine must not see a
	// loss.
	hold
	// drawn: the solving move ends the game in a draw at once (the
	// losing side takes a drawing repetition); every other move lets the
	// opponent force a win within plies plies.
	drawn
)

var tactics = []tactic{
	{
		name: "copenhagen: the king escapes to a corner in one ply", rules: "copenhagen",
		toMove: engine.Defenders, kind: win, plies: 1, solve: []string{"a4-a1"}, reason: engine.ReasonEscape, depth: 2,
		board: `
			. . . t t t t t . . .
			. . . . . t . . . . .
			. . . . . . . . . . .
			t . . . . T . . . . t
			t . . . T T T . . . t
			t t . T T . T T . t t
			. . . . T T T . . . t
			K . . . . T . . . . t
			. . . . . . . . . . .
			. . . . . t . . . . .
			. . . t t t t t . . .`,
	},
	{
		name: "copenhagen: the king forks two corners from the edge, escape in three plies", rules: "copenhagen",
		toMove: engine.Defenders, kind: win, plies: 3, solve: []string{"f4-f1"}, reason: engine.ReasonEscape, depth: 4,
		board: `
			. . . t t t t t . . .
			. . . . . t . . . . .
			. . . . . . . . . . .
			t . . . . T . . . . t
			t . . . T T T . . . t
			t t . T T . T T . t t
			t . . . T T T . . . t
			t . . . . K . . . . t
			. . . . t . . . . . .
			. t . . . . . . . t .
			. . . . . . . . . . .`,
	},
	{
		name: "historical: the king forks two edges, escape in three plies", rules: "historical",
		toMove: engine.Defenders, kind: win, plies: 3, solve: []string{"e8-c8"}, reason: engine.ReasonEscape, depth: 4,
		board: `
			. . . t . . . . . T .
			. . . . t . . . . T .
			t . . . . . . . . . .
			t . . . K . . t . . .
			. . . . T . . . . . .
			. . . . . . . . . . .
			. . . t . . . . . . .
			. . . t . . . . . . .
			. . . . . . . . . . .
			. . . . t . . . . . .
			. . . . . t . . . t .`,
	},
	{
		name: "copenhagen: the strong king is captured on four sides in one ply", rules: "copenhagen",
		toMove: engine.Attackers, kind: win, plies: 1, solve: []string{"b7-e7"}, reason: engine.ReasonKingCaptured, depth: 2,
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t . . . . . .
			. . . t K t . . . . .
			. t . . . . . . . . .
			. . . . . . . . T . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . T . . . . t . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "vingolf: the king is captured on the edge by three in one ply", rules: "vingolf",
		toMove: engine.Attackers, kind: win, plies: 1, solve: []string{"d5-b5"}, reason: engine.ReasonKingCaptured, depth: 2,
		board: `
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . . . . T . . .
			. . . . . . . . . . .
			t . . . . . . . . . .
			K . . t . . . . . . .
			t . . . . . . . . . .
			. . . . . T . . . . .
			. . . . . . . . . . .
			. . . . . . . . . . .`,
	},
	{
		name: "brandubh: every king move ends in a capture, forced capture in three plies", rules: "brandubh",
		toMove: engine.Attackers, kind: win, plies: 3, solve: []string{"f3-f7"}, reason: engine.ReasonKingCaptured, depth: 4,
		board: `
			. . . . . . .
			. K . t . . .
			. t . . . . .
			. t . . . . .
			T . . . . t t
			. T . T . . t
			. . . . . . .`,
	},
	{
		name: "tablut: the weak king is caught between two attackers, forced capture in three plies", rules: "tablut",
		toMove: engine.Attackers, kind: win, plies: 3, solve: []string{"e6-e4"}, reason: engine.ReasonKingCaptured, depth: 4,
		board: `
			. . . . t t . . .
			. . . . t . . . .
			. . . . . . . . .
			. . . . t . . T .
			. . . . . . . . .
			. . . . . . . . .
			. . . t K T . T .
			. . . . . . . . .
			. . . . t . . . .`,
	},
	{
		name: "brandubh: a quiet attacker move builds a net, the king is captured in five plies", rules: "brandubh",
		toMove: engine.Attackers, kind: win, plies: 5, solve: []string{"e4-g4"}, reason: engine.ReasonKingCaptured, depth: 5,
		board: `
			. . . . . . .
			. . . . . T .
			. t . . t . .
			. . T . t . .
			. . . . . t .
			. t T . t K .
			. . . . . . .`,
	},
	{
		name: "brandubh: the king on the top edge is run down, captured in five plies", rules: "brandubh",
		toMove: engine.Attackers, kind: win, plies: 5, solve: []string{"a5-c5"}, reason: engine.ReasonKingCaptured, depth: 5,
		board: `
			. t K t t t .
			. . . . . . .
			t . . . T . .
			. . . . . . t
			. . . . . . T
			. . . . . . .
			. . T . . . .`,
	},
	{
		name: "brandubh: two attackers threaten the king; the only defence captures their anvil", rules: "brandubh",
		toMove: engine.Defenders, kind: hold, plies: 3, solve: []string{"f3-g3"}, depth: 4,
		board: `
			. . . . . . .
			T . . . . . .
			. . t . . . .
			. . T . t . .
			. . . . . T .
			t . . t . K t
			. . . . . t .`,
	},
	{
		name: "brandubh: the king threatens two escapes; the only defence blocks one and sets a trap on the other", rules: "brandubh",
		toMove: engine.Attackers, kind: hold, plies: 3, solve: []string{"g5-d5"}, depth: 5,
		board: `
			. . . T . t .
			. . . K . . .
			. t . . . . t
			. . . . . T t
			. . . . . . .
			t . . . T . .
			. . t . . . .`,
	},
	{
		name: "copenhagen: a shieldwall capture takes the last defenders on the edge and completes the encirclement", rules: "copenhagen",
		toMove: engine.Attackers, kind: win, plies: 1, solve: []string{"c5-c1"}, reason: engine.ReasonEncirclement, depth: 2,
		board: `
			. . . t . . . t . . .
			. . . . . . . . . . .
			. . . . . . . . . . .
			. . . . t t t . . . .
			. . . t T . T t . . .
			. . . t . K . t . . .
			. . t t T . T t . . .
			. . . . t t t . . . .
			. . . . . . . . . . .
			. . . t t . . . . . .
			. . . T T t . . . . .`,
	},
	{
		name: "copenhagen: a defender closes an edge fort around the king", rules: "copenhagen",
		toMove: engine.Defenders, kind: win, plies: 1, solve: []string{"g5-g1"}, reason: engine.ReasonEdgeFort, depth: 2,
		board: `
			. . . t t t t t . . .
			. . . . . t . . . . .
			. . . . . . . . . . .
			t . . . . . . . . . t
			t . . . . . . . . . t
			t t . . . . . . . t t
			t . . . . . T . . . t
			t . . . . . . . . . t
			. . . . . . . . . . .
			. . . . T T . . . . .
			. . . T . K . . t . .`,
	},
	{
		name: "fetlar: lost attackers take the draw by a third repetition", rules: "fetlar",
		toMove: engine.Defenders, history: "b3-b2 j10-j9 b2-b3 j9-j10 b3-b2 j10-j9 b2-b3",
		kind: drawn, plies: 3, solve: []string{"j9-j10"}, reason: engine.ReasonRepetition, depth: 5,
		board: repetitionBoard,
	},
	{
		name: "copenhagen: the same third repetition wins for the attackers", rules: "copenhagen",
		toMove: engine.Defenders, history: "b3-b2 j10-j9 b2-b3 j9-j10 b3-b2 j10-j9 b2-b3",
		kind: win, plies: 1, solve: []string{"j9-j10"}, reason: engine.ReasonRepetition, depth: 3,
		board: repetitionBoard,
	},
}

// repetitionBoard: the king behind a wall of defenders threatens to fork
// two corners from f1, and no attacker can stop him; the attackers can only
// shuffle j10-j9-j10 while a defender shuffles b3-b2-b3.
const repetitionBoard = `
	. . . . . . . . . . .
	. . . . . . . . . t .
	. . . t . t . t . . .
	. . . . . . . . . . .
	. . . . . . . . . . .
	. . . . . . . . . . .
	T T T T T T T T T T T
	. . . . . K . . . . .
	. T . . . . . . . . .
	. . . . . . . . . . .
	. . . . . . . . . . .`

func TestTactics(t *testing.T) {
	for _, tc := range tactics {
		t.Run(tc.name, func(t *testing.T) {
			p := diagram(t, tc.rules, tc.toMove, tc.board)
			play(t, p, tc.history)

			// The puzzle is what it claims to be. The full-width search of
			// five plies takes seconds; it runs without -short and -race.
			if tc.plies < 5 || !testing.Short() && !raceEnabled {
				verifyPuzzle(t, p, tc)
			}

			// The engine solves it.
			res := searchDepth(t, p, tc.depth)
			if !slices.Contains(tc.solve, res.Move.String()) {
				t.Errorf("engine plays %v (score %v, PV %v), want one of %v", res.Move, res.Score, res.PV, tc.solve)
			}
			switch tc.kind {
			case win:
				if !res.Score.IsWin() || res.Score.Plies() != tc.plies {
					t.Errorf("score %v, want win in %d", res.Score, tc.plies)
				}
			case hold:
				if res.Score.IsLoss() {
					t.Errorf("score %v after the only defence, want no proven loss", res.Score)
				}
			case drawn:
				if res.Score != 0 {
					t.Errorf("score %v, want 0 (a draw)", res.Score)
				}
			}
			checkPV(t, p, res)
		})
	}
}

// verifyPuzzle checks with the full-width search that tc.solve are exactly
// the solutions of the puzzle p, and that the first solution ends the game
// as the row says.
func verifyPuzzle(t *testing.T, p *engine.Position, tc tactic) {
	t.Helper()
	var solutions []string
	switch tc.kind {
	case win:
		solutions = winningMoves(p, tc.plies)
		if tc.plies > 1 {
			if quick := winningMoves(p, tc.plies-2); len(quick) > 0 {
				t.Fatalf("the puzzle is solved faster, in %d plies, by %v", tc.plies-2, quick)
			}
		}
	case hold, drawn:
		solutions = holdingMoves(p, tc.plies)
	}
	if !slices.Equal(solutions, tc.solve) {
		t.Fatalf("full-width search: the solutions are %v, the table says %v", solutions, tc.solve)
	}
	if tc.kind == hold {
		return
	}
	q := p.Clone()
	r, err := q.Play(mv(t, tc.solve[0]))
	if err != nil {
		t.Fatal(err)
	}
	if tc.kind == win && tc.plies == 1 && r.Outcome.Reason != tc.reason {
		t.Fatalf("%s ends the game by %v, want %v", tc.solve[0], r.Outcome.Reason, tc.reason)
	}
	if tc.kind == drawn && (r.Outcome.Result != engine.Draw || r.Outcome.Reason != tc.reason) {
		t.Fatalf("%s gives %+v, want a draw by %v", tc.solve[0], r.Outcome, tc.reason)
	}
}

// checkPV: the principal variation starts with the move and is legal ply
// by ply.
func checkPV(t *testing.T, p *engine.Position, r Result) {
	t.Helper()
	if len(r.PV) == 0 || r.PV[0] != r.Move {
		t.Errorf("PV %v does not start with the move %v", r.PV, r.Move)
		return
	}
	q := p.Clone()
	for i, m := range r.PV {
		if _, err := q.Play(m); err != nil {
			t.Errorf("PV %v: ply %d: %v", r.PV, i+1, err)
			return
		}
	}
}

// TestAvoidsLosingRepetition: in Copenhagen a third repetition wins for
// the attackers, so the defenders, to move in a position whose natural
// move f3-f4 would produce the start position for the third time, play
// something else that keeps the game going.
func TestAvoidsLosingRepetition(t *testing.T) {
	v, _ := engine.Lookup("copenhagen")
	p, err := engine.NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	play(t, p, "d1-d3 f4-f3 d3-d1 f3-f4 d1-d3 f4-f3 d3-d1")
	q := p.Clone()
	if r, _ := q.Play(mv(t, "f3-f4")); r.Outcome.Result != engine.AttackersWin || r.Outcome.Reason != engine.ReasonRepetition {
		t.Fatalf("f3-f4 gives %+v, want the attackers' win by repetition", r.Outcome)
	}
	for _, d := range []int{1, 2, 4} {
		r := searchDepth(t, p, d)
		if r.Move == mv(t, "f3-f4") || r.Score.IsLoss() {
			t.Errorf("depth %d: engine plays %v with score %v, want any move but f3-f4 and no loss", d, r.Move, r.Score)
		}
		q := p.Clone()
		if res, err := q.Play(r.Move); err != nil || res.Outcome.Over() {
			t.Errorf("depth %d: %v: %v, %+v", d, r.Move, err, res.Outcome)
		}
	}
}
