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
// began the cycle and loses (Decision H1).
func (p *Position) repetitionResult() Result {
	switch p.v.Repetition {
	case RepetitionDraw:
		return Draw
	case RepetitionSideToMoveLoses:
		return winFor(p.toMove.Opponent())
	case RepetitionDefendersWin:
		return DefendersWin
	}
	return AttackersWin
}

// encircled reports whether no defender and not the king can reach the
// board edge over squares free of attackers (RULES.md §1.6.4; separate
// pockets count, Decision E1).
func (p *Position) encircled() bool {
	g := p.g
	nw := g.nw
	var reach bitboard
	for i := 0; i < nw; i++ {
		reach[i] = p.bb[Defender][i] | p.bb[King][i]
	}
	var free bitboard
	for i := 0; i < nw; i++ {
		free[i] = g.onBoard[i] &^ p.bb[Attacker][i]
	}
	for {
		if reach.intersects(&g.edge, nw) {
			return false
		}
		next := reach.spread(&free, nw, g.w)
		if next.equal(&reach, nw) {
			return true
		}
		reach = next
	}
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
	for {
		next := f.spread(&empty, nw, g.w)
		if next.equal(&f, nw) {
			break
		}
		f = next
	}
	var all bitboard
	for i := 0; i < nw; i++ {
		all[i] = ^uint64(0)
	}
	border := f.spread(&all, nw, g.w)
	for i := 0; i < nw; i++ {
		border[i] &^= f[i]
	}
	if border.intersects(&p.bb[Attacker], nw) {
		return false
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
