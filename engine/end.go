package engine

// judge returns the outcome after the ply that moved pc to `to` for mover,
// checking the game-end conditions of RULES.md §1.6 in its order.
func (p *Position) judge(pc Piece, to int, mover Side, kingCaptured bool) Outcome {
	v := p.v
	switch {
	case pc == King && p.g.isEscape[to]:
		return Outcome{DefendersWin, ReasonEscape, p.ply}
	case kingCaptured:
		return Outcome{AttackersWin, ReasonKingCaptured, p.ply}
	case v.EdgeFort && p.g.isEdge[p.king] && p.edgeFort():
		return Outcome{DefendersWin, ReasonEdgeFort, p.ply}
	// A defender's ply cannot create an encirclement: it only frees squares
	// (captured attackers) and moves a defender within its own region of
	// non-attacker squares, so every region that touched the edge still
	// does. The position before the ply was not encircled (the game would
	// be over, see setupOutcome), so only attacker plies need the fill.
	case v.Encirclement && mover == Attackers && p.encircled():
		return Outcome{AttackersWin, ReasonEncirclement, p.ply}
	}
	if v.Repetition != RepetitionIgnored && p.earlierOccurrences() >= 2 {
		return Outcome{p.repetitionResult(), ReasonRepetition, p.ply}
	}
	if !p.hasLegalMove() {
		return p.noMoveOutcome()
	}
	return Outcome{}
}

// setupOutcome decides a start or set-up position before any ply: the
// conditions of §1.6 that do not depend on the last ply (escape square,
// edge fort, encirclement, no legal move), with Ply 0.
func (p *Position) setupOutcome() Outcome {
	v := p.v
	switch {
	case p.king >= 0 && p.g.isEscape[p.king]:
		return Outcome{DefendersWin, ReasonEscape, 0}
	case v.EdgeFort && p.king >= 0 && p.g.isEdge[p.king] && p.edgeFort():
		return Outcome{DefendersWin, ReasonEdgeFort, 0}
	case v.Encirclement && p.encircled():
		return Outcome{AttackersWin, ReasonEncirclement, 0}
	case !p.hasLegalMove():
		return p.noMoveOutcome()
	}
	return Outcome{}
}

func (p *Position) noMoveOutcome() Outcome {
	if p.v.NoMove == NoMoveDraw {
		return Outcome{Draw, ReasonNoLegalMove, p.ply}
	}
	return Outcome{winFor(p.toMove.Opponent()), ReasonNoLegalMove, p.ply}
}

// repetitionResult applies the variant's repetition rule (§1.6.5). For
// RepetitionSideToMoveLoses the side to move in the thrice-seen position
// began the cycle and loses (Decision H1); for RepetitionSideToMoveWins it
// wins (OpenTafl's tfr:w).
func (p *Position) repetitionResult() Result {
	switch p.v.Repetition {
	case RepetitionDraw:
		return Draw
	case RepetitionSideToMoveLoses:
		return winFor(p.toMove.Opponent())
	case RepetitionSideToMoveWins:
		return winFor(p.toMove)
	case RepetitionDefendersWin:
		return DefendersWin
	}
	return AttackersWin
}

// encircled reports whether no defender and not the king can reach the
// board edge over squares free of attackers (RULES.md §1.6.4; separate
// pockets count, Decision E1).
//
// It first tries the escape path found last time (a hint, never trusted
// unchecked): if its first square still holds a defender or the king and
// no attacker stands on it, the position is not encircled. Otherwise it
// flood-fills from every defender and the king, and on reaching the edge
// records one shortest path back for the next call.
func (p *Position) encircled() bool {
	if p.pathOpen() {
		return false
	}
	g := p.g
	nw := g.nw
	var layers [maxPathLayers]bitboard
	reach := &layers[0]
	for i := 0; i < nw; i++ {
		reach[i] = p.bb[Defender][i] | p.bb[King][i]
	}
	var free bitboard
	for i := 0; i < nw; i++ {
		free[i] = g.onBoard[i] &^ p.bb[Attacker][i]
	}
	cur := layers[0]
	for k := 0; ; k++ {
		if cur.intersects(&g.edge, nw) {
			p.recordPath(&layers, k, &cur)
			return false
		}
		next := cur.spread(&free, nw, g.w)
		if next.equal(&cur, nw) {
			return true
		}
		if k+1 < maxPathLayers {
			layers[k+1] = next
		}
		cur = next
	}
}

// maxPathLayers bounds the flood-fill layers kept for the escape-path hint;
// a longer path is simply not recorded.
const maxPathLayers = 24

// recordPath stores one shortest path from a defender to the edge, given
// the cumulative flood layers 0..k (layer j holds every square reached in
// j steps or fewer) and the last layer cur that touches the edge.
func (p *Position) recordPath(layers *[maxPathLayers]bitboard, k int, cur *bitboard) {
	p.pathLen = 0
	if k >= maxPathLayers {
		return
	}
	g := p.g
	var hit bitboard
	for i := 0; i < g.nw; i++ {
		hit[i] = cur[i] & g.edge[i]
	}
	s := hit.first(g.nw)
	p.path[0] = int16(s)
	n := 1
	for j := k - 1; j >= 0; j-- {
		found := false
		for _, d := range g.dirs {
			if t := s + d; layers[j].has(t) {
				s = t
				found = true
				break
			}
		}
		if !found {
			return
		}
		p.path[n] = int16(s)
		n++
	}
	p.pathLen = n
}

// pathOpen reports whether the recorded escape path still leads a defender
// or the king to the edge: its last square holds one of them and no square
// of it holds an attacker. The path was contiguous when recorded and its
// first square is on the edge.
func (p *Position) pathOpen() bool {
	n := p.pathLen
	if n == 0 {
		return false
	}
	if src := p.cells[p.path[n-1]]; src != Defender && src != King {
		return false
	}
	for _, s := range p.path[:n-1] {
		if p.cells[s] == Attacker {
			return false
		}
	}
	return true
}

// edgeFort reports whether the king, on an edge square, stands in an edge
// fort (RULES.md §1.6.3): F, the empty squares the king reaches plus his
// own, borders no attacker; the king can move; and every defender
// bordering F (a wall defender) has on its rank and on its file a
// neighbour that is off the board, in F, or another wall defender, so no
// wall defender can ever be captured.
func (p *Position) edgeFort() bool {
	g := p.g
	nw := g.nw
	if !p.hasMoveFrom(p.king, King) {
		return false
	}
	var empty bitboard
	for i := 0; i < nw; i++ {
		empty[i] = g.onBoard[i] &^ (p.bb[Attacker][i] | p.bb[Defender][i] | p.bb[King][i])
	}
	var f bitboard
	f.set(p.king)
	for i := 0; i < nw; i++ {
		empty[i] |= f[i]
	}
	// Grow F one step at a time; F plus its neighbours must hold no
	// attacker, which usually fails within a few steps.
	var all bitboard
	for i := 0; i < nw; i++ {
		all[i] = ^uint64(0)
	}
	var border bitboard
	for {
		reach := f.spread(&all, nw, g.w) // F and its neighbours
		if reach.intersects(&p.bb[Attacker], nw) {
			return false
		}
		next := reach
		for i := 0; i < nw; i++ {
			next[i] &= empty[i]
		}
		if next.equal(&f, nw) {
			for i := 0; i < nw; i++ {
				border[i] = reach[i] &^ f[i]
			}
			break
		}
		f = next
	}
	var wall, safe bitboard
	for i := 0; i < nw; i++ {
		wall[i] = border[i] & p.bb[Defender][i]
		safe[i] = f[i] | wall[i] | g.frame[i]
	}
	horiz := safe.shiftedOr(1, nw)
	vert := safe.shiftedOr(g.w, nw)
	for i := 0; i < nw; i++ {
		if wall[i]&^(horiz[i]&vert[i]) != 0 {
			return false
		}
	}
	return true
}
