package engine

import "math/bits"

// LegalMoves appends every legal ply of the side to move to dst and returns
// the extended slice (RULES.md §1.1). It appends nothing once the game is
// over. The order is fixed for a given position: pieces by square from a1
// along rank 1 upwards, then direction (east, west, north, south), then
// distance.
func (p *Position) LegalMoves(dst []Move) []Move {
	if p.outcome.Over() {
		return dst
	}
	var buf [256]uint32
	ms := p.genMoves(buf[:0])
	g := p.g
	for _, m := range ms {
		dst = append(dst, Move{From: g.square(int(m & 0xffff)), To: g.square(int(m >> 16))})
	}
	return dst
}

// genMoves appends the side to move's plies as packed padded indices
// (from | to<<16), ignoring whether the game is over.
func (p *Position) genMoves(dst []uint32) []uint32 {
	if p.toMove == Attackers {
		return p.genPieces(dst, &p.bb[Attacker], Attacker)
	}
	dst = p.genPieces(dst, &p.bb[Defender], Defender)
	if p.king >= 0 {
		dst = p.genFrom(dst, p.king, King)
	}
	return dst
}

func (p *Position) genPieces(dst []uint32, b *bitboard, pc Piece) []uint32 {
	for w := 0; w < p.g.nw; w++ {
		for x := b[w]; x != 0; x &= x - 1 {
			dst = p.genFrom(dst, w<<6|bits.TrailingZeros64(x), pc)
		}
	}
	return dst
}

// genFrom appends the plies of piece pc standing on padded index from.
func (p *Position) genFrom(dst []uint32, from int, pc Piece) []uint32 {
	g := p.g
	for _, d := range g.dirs {
		for to := from + d; p.cells[to] == Empty; to += d {
			k := g.kind[to]
			if k == kindNormal {
				dst = append(dst, uint32(from)|uint32(to)<<16)
				continue
			}
			if g.stop[k].Has(pc) {
				dst = append(dst, uint32(from)|uint32(to)<<16)
			}
			if !g.pass[k].Has(pc) {
				break
			}
		}
	}
	return dst
}

// hasMoveFrom reports whether the piece pc on padded index from has a legal
// ply.
func (p *Position) hasMoveFrom(from int, pc Piece) bool {
	g := p.g
	for _, d := range g.dirs {
		for to := from + d; p.cells[to] == Empty; to += d {
			k := g.kind[to]
			if k == kindNormal || g.stop[k].Has(pc) {
				return true
			}
			if !g.pass[k].Has(pc) {
				break
			}
		}
	}
	return false
}

// hasLegalMove reports whether the side to move has any legal ply. It
// tries first the piece that had a move the last time it was asked (a
// hint that Unmake need not restore), then every piece, stopping at the
// first that can move, so it is cheap in ordinary positions.
func (p *Position) hasLegalMove() bool {
	side := p.toMove
	w := p.witness[side]
	if pc := p.cells[w]; (pc == Attacker) == (side == Attackers) && pc != Empty && pc != offBoard && p.hasMoveFrom(w, pc) {
		return true
	}
	if side == Defenders {
		if p.king >= 0 && p.hasMoveFrom(p.king, King) {
			p.witness[side] = p.king
			return true
		}
		return p.anyPieceMoves(&p.bb[Defender], Defender)
	}
	return p.anyPieceMoves(&p.bb[Attacker], Attacker)
}

func (p *Position) anyPieceMoves(b *bitboard, pc Piece) bool {
	for w := 0; w < p.g.nw; w++ {
		for x := b[w]; x != 0; x &= x - 1 {
			if i := w<<6 | bits.TrailingZeros64(x); p.hasMoveFrom(i, pc) {
				p.witness[pc.Side()] = i
				return true
			}
		}
	}
	return false
}
