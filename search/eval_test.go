package search

import (
	"math/rand/v2"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// mirror returns the position with files reversed (a↔k on 11×11), the
// same side to move.
func mirror(t *testing.T, p *engine.Position) *engine.Position {
	t.Helper()
	b := p.Board()
	m := engine.NewBoard(b.Size)
	for r := 0; r < b.Size; r++ {
		for f := 0; f < b.Size; f++ {
			m.Set(engine.SquareAt(b.Size-1-f, r), b.At(engine.SquareAt(f, r)))
		}
	}
	q, err := engine.NewPositionFromBoard(p.Variant(), m, p.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// evaluators holds, for one variant, an evaluation with the default
// weights and one where the fork weighs the same for either side to move.
type evaluators struct {
	g         *geometry
	def, even *evaluator
	b         board
}

func newEvaluators(v *engine.Variant) *evaluators {
	w := DefaultWeights(v)
	e := &evaluators{g: newGeometry(v), def: newEvaluator(v, w)}
	w.ForkToMove = w.Fork
	e.even = newEvaluator(v, w)
	e.b.reset(e.g)
	return e
}

// of evaluates p: the full evaluation and the lazy lower bound.
func (e *evaluators) of(p *engine.Position, even bool) (full, lower Score) {
	ev := e.def
	if even {
		ev = e.even
	}
	e.b.load(p)
	return ev.evaluate(&e.b), ev.lowerBound(&e.b)
}

// TestEvaluation: along random games of every tier-1 variant, the
// evaluation is the same for a position and its mirror image, changes
// sign with the side to move (once the fork, the one term that asks who
// is to move, weighs the same for both), and
// never falls below the lazy bound the quiescence search cuts on; the
// start position scores 0 material.
func TestEvaluation(t *testing.T) {
	for _, v := range engine.Variants() {
		if v.Tier != 1 {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			p, err := engine.NewPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			g := newGeometry(p.Variant())
			if g.startAtt != p.Count(engine.Attacker) || g.startDef != p.Count(engine.Defender) {
				t.Errorf("start counts %d/%d, want %d/%d", g.startAtt, g.startDef, p.Count(engine.Attacker), p.Count(engine.Defender))
			}
			ev := newEvaluators(p.Variant())
			evalOf := ev.of
			rng := rand.New(rand.NewPCG(5, 8))
			for ply := 0; ply < 120 && !p.Outcome().Over(); ply++ {
				full, lower := evalOf(p, false)
				if lower > full {
					t.Fatalf("ply %d: lower bound %d above the evaluation %d", ply, lower, full)
				}
				if mf, _ := evalOf(mirror(t, p), false); mf != full {
					t.Fatalf("ply %d: evaluation %d, of the mirror image %d", ply, full, mf)
				}
				other, err := engine.NewPositionFromBoard(p.Variant(), p.Board(), p.ToMove().Opponent())
				if err == nil && !other.Outcome().Over() {
					even, _ := evalOf(p, true)
					if of, _ := evalOf(other, true); of != -even {
						t.Fatalf("ply %d: evaluation %d, with the other side to move %d, want %d", ply, even, of, -even)
					}
				}
				moves := p.LegalMoves(nil)
				p.Make(moves[rng.IntN(len(moves))])
			}
		})
	}
}

// TestDefaultWeightsFollowRules: the weights come from the rules, not the
// name: a renamed Copenhagen gets Copenhagen's weights, and changing one
// rule changes only the terms that depend on it.
func TestDefaultWeightsFollowRules(t *testing.T) {
	cph, _ := engine.Lookup("copenhagen")
	renamed := *cph
	renamed.Name, renamed.Title = "mine", "My rules"
	if DefaultWeights(cph) != DefaultWeights(&renamed) {
		t.Errorf("renaming the variant changes its weights")
	}
	edge := *cph
	edge.Escape = engine.EscapeEdge
	we, wc := DefaultWeights(&edge), DefaultWeights(cph)
	if we.CornerGuard != 0 || wc.CornerGuard == 0 {
		t.Errorf("corner guards: edge escape %d, corner escape %d; want 0 and more", we.CornerGuard, wc.CornerGuard)
	}
	noFort := *cph
	noFort.EdgeFort = false
	if DefaultWeights(&noFort).Fort != 0 || wc.Fort == 0 {
		t.Errorf("Fort weight without an edge fort rule %d, with %d", DefaultWeights(&noFort).Fort, wc.Fort)
	}
	noRing := *cph
	noRing.Encirclement = false
	if DefaultWeights(&noRing).Freedom != 0 || wc.Freedom == 0 {
		t.Errorf("Freedom weight without encirclement %d, with %d", DefaultWeights(&noRing).Freedom, wc.Freedom)
	}
	weak := *cph
	weak.KingCapture = engine.CaptureWeak
	if DefaultWeights(&weak).KingDanger <= wc.KingDanger {
		t.Errorf("a weak king's danger weighs %d, a strong one's %d; want more", DefaultWeights(&weak).KingDanger, wc.KingDanger)
	}
	if w := wc.Only(TermMaterial); w.Attacker == 0 || w.KingMobility != 0 || w.Freedom != 0 || w.EscapeNow != 0 {
		t.Errorf("Only(TermMaterial) = %+v", w)
	}
}
