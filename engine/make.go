package engine

// Undo is what Unmake needs to take back one Make. It is a plain value; keep
// it until the matching Unmake. Undo records must be used last in, first
// out.
type Undo struct {
	from, to  int16
	capStart  int32
	prevIrrev int32
	prevKey   uint64
}

// Make plays m in place without checking it and returns the record for
// Unmake. It computes the captures (RULES.md §1.2, §1.4, §1.5) and the
// outcome (§1.6), which Outcome then returns. The behaviour is undefined
// when m is not one of the moves LegalMoves returns for this position.
func (p *Position) Make(m Move) Undo { return p.make(p.g.pad(m.From), p.g.pad(m.To)) }

// Unmake takes back the ply recorded in u, restoring the position exactly.
// (The outcome before a valid Make is always ongoing: LegalMoves offers no
// move once the game is over.)
func (p *Position) Unmake(u Undo) {
	p.history = p.history[:len(p.history)-1]
	p.ply--
	p.toMove ^= 1
	for i := len(p.caps) - 1; i >= int(u.capStart); i-- {
		c := p.caps[i]
		p.cells[c.at] = c.piece
		p.bb[c.piece].set(int(c.at))
		if c.piece == King {
			p.king = int(c.at)
		}
	}
	p.caps = p.caps[:u.capStart]
	from, to := int(u.from), int(u.to)
	pc := p.cells[to]
	p.cells[to], p.cells[from] = Empty, pc
	p.bb[pc].clear(to)
	p.bb[pc].set(from)
	if pc == King {
		p.king = from
	}
	p.key = u.prevKey
	p.irrev = int(u.prevIrrev)
	p.outcome = Outcome{} // Make is only defined while the game runs
}

func (p *Position) make(from, to int) Undo {
	u := Undo{
		from: int16(from), to: int16(to),
		capStart:  int32(len(p.caps)),
		prevIrrev: int32(p.irrev),
		prevKey:   p.key,
	}
	g := p.g
	pc := p.cells[from]
	p.cells[from], p.cells[to] = Empty, pc
	p.bb[pc&3].clear(from)
	p.bb[pc&3].set(to)
	p.key ^= zobPiece[from][pc] ^ zobPiece[to][pc]
	if pc == King {
		p.king = to
	}
	mover := p.toMove
	kingCaptured := false
	if pc != King || g.kingHammer {
		enemy := Attacker // the enemy taflman that custodial capture takes
		if mover == Attackers {
			enemy = Defender
		}
		for _, d := range &g.dirs {
			n1 := to + d
			switch p.cells[n1] {
			case enemy:
				if p.anvil(n1+d, enemy, mover) {
					p.remove(n1)
				}
			case King:
				if mover == Attackers && p.kingCaptured(to) {
					kingCaptured = true
				}
			}
		}
	}
	if g.shieldwall && g.isEdge[to] && (pc != King || g.kingHammer) {
		p.shieldwall(to, mover)
	}
	if kingCaptured && p.king >= 0 {
		p.remove(p.king)
		p.king = -1
	}
	p.toMove ^= 1
	p.key ^= zobSide
	p.ply++
	if len(p.caps) > int(u.capStart) {
		p.irrev = p.ply
	}
	p.history = append(p.history, p.key)
	p.outcome = p.judge(pc, to, mover, kingCaptured)
	return u
}

// remove takes the piece on i off the board and records it for Unmake.
func (p *Position) remove(i int) {
	pc := p.cells[i]
	p.caps = append(p.caps, capture{at: int16(i), piece: pc})
	p.cells[i] = Empty
	p.bb[pc].clear(i)
	p.key ^= zobPiece[i][pc]
}

// anvil reports whether square i completes a custodial capture of victim by
// mover (RULES.md §1.2, §1.3): it holds a piece of the mover's side that
// may capture as the stationary piece, or it is a square hostile to the
// victim in its current state.
func (p *Position) anvil(i int, victim Piece, mover Side) bool {
	c := p.cells[i]
	k := p.g.kind[i]
	switch {
	case c == offBoard:
		return false
	case c == Empty:
		return p.g.hostEmpty[k].Has(victim)
	case c.Side() == mover && (c != King || p.g.kingAnvil):
		return true
	default:
		return p.g.hostOcc[k].Has(victim)
	}
}

// hostileToKing reports whether square i counts against the king in a king
// capture: an attacker, or an empty square hostile to the king. The edge
// beyond the board is handled by kingCaptured.
func (p *Position) hostileToKing(i int) bool {
	c := p.cells[i]
	switch c {
	case Attacker:
		return true
	case Empty:
		return p.g.hostEmpty[p.g.kind[i]].Has(King)
	}
	return false
}

// kingCaptured reports whether the attacker that just moved to `to`, next to
// the king, completes a king capture (RULES.md §1.4).
func (p *Position) kingCaptured(to int) bool {
	g := p.g
	k := p.king
	strong := p.v.KingCapture == CaptureStrong ||
		p.v.KingCapture == CaptureStrongNearThrone && g.nearThrone[k]
	if !strong {
		return p.hostileToKing(k + (k - to))
	}
	if g.isEdge[k] && p.v.KingEdge == EdgeNoCapture {
		return false
	}
	for _, d := range g.dirs {
		n := k + d
		if p.cells[n] == offBoard {
			continue // only on the edge, where KingEdge is EdgeThreeSides
		}
		if !p.hostileToKing(n) {
			return false
		}
	}
	return true
}

// shieldwall captures the rows of two or more enemy pieces along the edge
// that the mover, just arrived on edge square `to`, brackets (RULES.md §1.5,
// Decision S1): the far end holds a mover's piece (or is a corner where
// ShieldwallCorners), and every piece of the row has a mover's piece in
// front of it, one step in from the edge. A king in the row survives.
func (p *Position) shieldwall(to int, mover Side) {
	g := p.g
	in := g.inward[to]
	along := g.w
	if in == g.w || in == -g.w {
		along = 1
	}
	friend := func(c Piece) bool {
		if c == Empty || c == offBoard {
			return false
		}
		return c.Side() == mover && (c != King || p.v.KingArms != KingUnarmed)
	}
	for _, d := range [2]int{along, -along} {
		n := to + d
		count := 0
		for c := p.cells[n]; c != Empty && c != offBoard && c.Side() != mover; c = p.cells[n] {
			if !friend(p.cells[n+in]) {
				count = -1
				break
			}
			count++
			n += d
		}
		if count < 2 {
			continue
		}
		far := p.cells[n]
		if !friend(far) && !(p.v.ShieldwallCorners && g.kind[n] == kindCorner) {
			continue
		}
		for s := to + d; s != n; s += d {
			if p.cells[s] != King {
				p.remove(s)
			}
		}
	}
}
