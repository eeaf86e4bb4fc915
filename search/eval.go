package search

import (
	"github.com/taflmail/taflmail/engine"
)

// Weights are the evaluation's terms and their weights, in points: 100
// points are one attacker. The evaluation adds them up from the defenders'
// point of view (positive: good for the defenders) and hands the search
// the sum from the side to move's point of view. A zero weight switches a
// term off. docs/engine.md describes every term; DefaultWeights chooses
// them from the rules of a variant.
type Weights struct {
	// Attacker and Defender are the material values of one attacker and
	// one defender, counted against the variant's start position (the
	// start scores 0; the king is not counted: he is never traded).
	Attacker, Defender int

	// KingMobility is added for every square the king can reach in one
	// ply (his freedom).
	KingMobility int
	// EscapeNow is added for every escape square the king reaches in one
	// ply: a threat the attackers must meet at once.
	EscapeNow int
	// EscapeNext is added for every other escape square the king reaches
	// in two plies (over one empty square he can stop on).
	EscapeNext int
	// Fork is added when the king can reach, in one ply, a square from
	// which he sees two or more escape squares: the attackers can block
	// only one of them. ForkToMove replaces it when the defenders are to
	// move (then the fork is usually a forced escape).
	Fork, ForkToMove int
	// EscapeDistance is added for every king step (Manhattan distance) by
	// which the king is nearer an escape square than the farthest square
	// of the board is.
	EscapeDistance int
	// CornerGuard is subtracted for every guard point of an attacker next
	// to a corner (corner-escape variants only): 3 for b2, b3 and c2 and
	// their mirror images, 1 for a2, b1, a3, c1 and c3.
	CornerGuard int

	// KingDanger is subtracted per danger point of the king: for a king
	// captured on four (or three) sides, 1 point when two of his sides
	// are hostile and 4 when all but one are; for a king captured on two
	// sides, 4 points per line with an attacker (or hostile square) on
	// one side and an empty square on the other, plus 1 per attacker next
	// to him.
	KingDanger int

	// KingRoom is added per escape square that the king could reach over
	// the empty squares around him, within 12 orthogonal steps (at most 4
	// corners, or 12 edge squares where the king escapes on the edge): he
	// is not yet shut in.
	KingRoom int
	// Fort is added when the king stands on an edge square and no
	// attacker touches the empty region around him (only in variants
	// with an edge fort): the fort is nearly complete.
	Fort int
	// Freedom is added per edge square (at most FreedomCap; 0: no limit)
	// that a defender or the king could still reach, within 12 orthogonal
	// steps, over squares free of attackers (only in variants where
	// encirclement wins): the attackers' ring is open.
	Freedom, FreedomCap int

	// KingPressure is subtracted for every attacker within two squares of
	// the king (Chebyshev distance), the attackers closing in.
	KingPressure int
}

// Terms names groups of weights, so that levels can switch whole terms
// off (Weights.Only).
type Terms uint16

// The evaluation terms.
const (
	TermMaterial Terms = 1 << iota // Attacker, Defender
	TermEscape                     // EscapeNow, EscapeNext, Fork, ForkToMove, EscapeDistance
	TermMobility                   // KingMobility
	TermCorners                    // CornerGuard
	TermDanger                     // KingDanger
	TermRegion                     // KingRoom, Fort
	TermFreedom                    // Freedom
	AllTerms     = TermMaterial | TermEscape | TermMobility | TermCorners | TermDanger | TermRegion | TermFreedom
)

// Only returns w with the weights of every term not in t set to zero.
func (w Weights) Only(t Terms) Weights {
	if t&TermMaterial == 0 {
		w.Attacker, w.Defender = 0, 0
	}
	if t&TermEscape == 0 {
		w.EscapeNow, w.EscapeNext, w.Fork, w.ForkToMove, w.EscapeDistance = 0, 0, 0, 0, 0
	}
	if t&TermMobility == 0 {
		w.KingMobility = 0
	}
	if t&TermCorners == 0 {
		w.CornerGuard = 0
	}
	if t&TermDanger == 0 {
		w.KingDanger, w.KingPressure = 0, 0
	}
	if t&TermRegion == 0 {
		w.KingRoom, w.Fort = 0, 0
	}
	if t&TermFreedom == 0 {
		w.Freedom = 0
	}
	return w
}

// DefaultWeights returns the weights for a variant, chosen from its rules
// (never from its name):
//   - corner escape (Escape): corner guards count, escape squares are few
//     and each is worth more; edge escape: no corner guards, the king's
//     room counts edge squares;
//   - a king captured on two sides (KingCapture weak, or strong only near
//     the throne) is in more danger than a strong one; a strong king who
//     cannot be captured on the edge (KingEdge) is in none there;
//   - edge fort (EdgeFort) and encirclement (Encirclement) switch on
//     Fort and Freedom.
func DefaultWeights(v *engine.Variant) Weights {
	w := Weights{
		Attacker:       100,
		Defender:       160,
		KingMobility:   4,
		EscapeNow:      400,
		EscapeNext:     40,
		Fork:           150,
		ForkToMove:     900,
		EscapeDistance: 6,
		KingDanger:     25,
		KingRoom:       12,
	}
	if v.Escape == engine.EscapeCorners {
		w.CornerGuard = 12
		w.KingRoom = 30
		w.EscapeNext = 60
	}
	if v.KingCapture != engine.CaptureStrong {
		w.KingDanger = 35
	}
	if v.EdgeFort {
		w.Fort = 250
	}
	if v.Encirclement {
		w.Freedom, w.FreedomCap = 5, 20
	}
	return w
}

// evaluator scores snapshots with one set of weights.
type evaluator struct {
	w      Weights
	mark   [maxCells]uint32 // stamp per square, for counting distinct squares
	stamp  uint32
	strong bool // KingCapture is CaptureStrong
	near   bool // KingCapture is CaptureStrongNearThrone
	edgeOK bool // a strong king cannot be captured on the edge
}

func newEvaluator(v *engine.Variant, w Weights) *evaluator {
	return &evaluator{
		w:      w,
		strong: v.KingCapture == engine.CaptureStrong,
		near:   v.KingCapture == engine.CaptureStrongNearThrone,
		edgeOK: v.KingEdge == engine.EdgeNoCapture,
	}
}

// evaluate returns the score of b for the side to move.
func (e *evaluator) evaluate(b *board) Score {
	s := e.defenders(b)
	if b.toMove == engine.Attackers {
		s = -s
	}
	return Score(max(min(s, int(winBound)-1), -int(winBound)+1))
}

// defenders returns the score of b from the defenders' point of view.
func (e *evaluator) defenders(b *board) int {
	score := e.cheap(b)
	if b.king < 0 {
		return score
	}
	w := &e.w
	if w.KingRoom != 0 || w.Fort != 0 {
		score += e.region(b)
	}
	if w.Freedom != 0 {
		score += e.freedom(b)
	}
	return score
}

// floodMax is the most that the flood-fill terms (region and freedom) can
// add for the defenders; they never subtract.
func (e *evaluator) floodMax(b *board) int {
	w := &e.w
	capRoom := 12
	if b.g.v.Escape == engine.EscapeCorners {
		capRoom = 4
	}
	edges := 4*b.g.n - 4
	if c := w.FreedomCap; c > 0 {
		edges = min(edges, c)
	}
	return w.KingRoom*capRoom + w.Fort + w.Freedom*edges
}

// lowerBound returns a score for the side to move that the full evaluation
// is never below, without the flood fills.
func (e *evaluator) lowerBound(b *board) Score {
	s := e.cheap(b)
	if b.toMove == engine.Attackers {
		s = -s - e.floodMax(b)
	}
	return Score(max(min(s, int(winBound)-1), -int(winBound)+1))
}

// cheap returns the defenders' score without the flood-fill terms.
func (e *evaluator) cheap(b *board) int {
	g, w := b.g, &e.w
	score := w.Defender*(b.nDef-g.startDef) - w.Attacker*(b.nAtt-g.startAtt)
	k := b.king
	if k < 0 {
		return score
	}
	if w.CornerGuard != 0 {
		guard := 0
		for _, i := range g.guards {
			if b.cells[i] == engine.Attacker {
				guard += int(g.guard[i])
			}
		}
		score -= w.CornerGuard * guard
	}
	score += w.EscapeDistance * (g.maxDist - int(g.dist[k]))
	score += e.escapes(b)
	score -= w.KingDanger * e.danger(b)
	if w.KingPressure != 0 {
		score -= w.KingPressure * pressure(b)
	}
	return score
}

// pressure counts the attackers within two squares of the king (Chebyshev
// distance).
func pressure(b *board) int {
	g := b.g
	n := 0
	for dr := -2; dr <= 2; dr++ {
		row := b.king + dr*g.w
		for df := -2; df <= 2; df++ {
			i := row + df
			if i >= 0 && i < maxCells && b.cells[i] == engine.Attacker {
				n++
			}
		}
	}
	return n
}

// escapes scores the king's mobility and his escape routes in one and two
// plies.
func (e *evaluator) escapes(b *board) int {
	g, w := b.g, &e.w
	k := b.king
	e.stamp++
	if e.stamp == 0 {
		e.mark = [maxCells]uint32{}
		e.stamp = 1
	}
	mob, now, next, fork := 0, 0, 0, false
	for di, d := range g.dirs {
		for to := k + d; b.cells[to] == engine.Empty; to += d {
			kd := g.kind[to]
			if kd == kindNormal || g.stop[kd].Has(engine.King) {
				mob++
				if g.esc[to] {
					now++
					e.mark[to] = e.stamp
				} else if w.EscapeNext != 0 || w.Fork != 0 {
					seen := 0
					for dj, d2 := range g.dirs {
						if dj>>1 == di>>1 {
							continue // the same line as the first ply
						}
						if esc := ray(b, to, d2); esc >= 0 {
							seen++
							if e.mark[esc] != e.stamp {
								e.mark[esc] = e.stamp
								next++
							}
						}
					}
					if seen >= 2 {
						fork = true
					}
				}
			}
			if kd != kindNormal && !g.pass[kd].Has(engine.King) {
				break
			}
		}
	}
	score := w.KingMobility*mob + w.EscapeNow*now + w.EscapeNext*next
	if fork {
		if b.toMove == engine.Defenders {
			score += w.ForkToMove
		} else {
			score += w.Fork
		}
	}
	return score
}

// ray returns the escape square the king would reach from `from` along d
// in one ply, or -1.
func ray(b *board, from, d int) int {
	g := b.g
	for to := from + d; b.cells[to] == engine.Empty; to += d {
		kd := g.kind[to]
		if g.esc[to] {
			return to
		}
		if kd != kindNormal && !g.pass[kd].Has(engine.King) {
			break
		}
	}
	return -1
}

// danger returns the king's danger points (see Weights.KingDanger).
func (e *evaluator) danger(b *board) int {
	g := b.g
	k := b.king
	if e.strong || e.near && g.near[k] {
		if g.edge[k] && e.edgeOK {
			return 0
		}
		h := 0
		for _, d := range g.dirs {
			if b.cells[k+d] == offBoard || b.hostileToKing(k+d) {
				h++
			}
		}
		switch h {
		case 2:
			return 1
		case 3, 4:
			return 4
		}
		return 0
	}
	pts := 0
	for _, d := range [2]int{1, g.w} {
		a, c := b.hostileToKing(k+d), b.hostileToKing(k-d)
		if a && b.cells[k-d] == engine.Empty || c && b.cells[k+d] == engine.Empty {
			pts += 4
		}
	}
	for _, d := range g.dirs {
		if b.cells[k+d] == engine.Attacker {
			pts++
		}
	}
	return pts
}

// Flood-fill horizons: the region and freedom terms look this many steps
// (orthogonal, over the squares they may cross) from the king and the
// defenders; the edge fort term, which needs the whole region, looks to
// the end.
const (
	regionSteps  = 12
	freedomSteps = 12
)

// region scores the empty region around the king: the escape squares in it
// (within regionSteps steps) and, in variants with an edge fort, a king on
// the edge whom no attacker touches.
func (e *evaluator) region(b *board) int {
	g, w := b.g, &e.w
	nw := g.nw
	var empty bitboard
	for i := 0; i < nw; i++ {
		empty[i] = g.onBoard[i] &^ b.occ[i]
	}
	var f bitboard
	f.set(b.king)
	empty.set(b.king)
	fort := w.Fort != 0 && g.edge[b.king]
	steps := regionSteps
	if fort {
		steps = maxCells
	}
	f = f.flood(&empty, nw, g.w, steps)
	capRoom := 12
	if g.v.Escape == engine.EscapeCorners {
		capRoom = 4
	}
	var esc bitboard
	for i := 0; i < nw; i++ {
		esc[i] = f[i] & g.escBB[i]
	}
	score := w.KingRoom * min(esc.count(nw), capRoom)
	if fort {
		border := f.spread(&g.onBoard, nw, g.w)
		touch := false
		for i := 0; i < nw; i++ {
			if border[i]&b.att[i] != 0 {
				touch = true
				break
			}
		}
		if !touch {
			score += w.Fort
		}
	}
	return score
}

// freedom scores the edge squares the defenders can still reach (within
// freedomSteps steps) over squares free of attackers (RULES.md §1.6.4
// counts none as encircled), at most FreedomCap of them.
func (e *evaluator) freedom(b *board) int {
	g := b.g
	nw := g.nw
	var free bitboard
	for i := 0; i < nw; i++ {
		free[i] = g.onBoard[i] &^ b.att[i]
	}
	f := b.def.flood(&free, nw, g.w, freedomSteps)
	for i := 0; i < nw; i++ {
		f[i] &= g.edgeBB[i]
	}
	n := f.count(nw)
	if c := e.w.FreedomCap; c > 0 {
		n = min(n, c)
	}
	return e.w.Freedom * n
}
