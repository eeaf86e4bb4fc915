package engine

import "math/bits"

// Read-only accessors for a search (package search): cheap views of the
// position that the public API would otherwise give only square by square.
// They change nothing and allocate only when dst must grow.

// AppendCells appends the board to dst, Size*Size pieces in the order of
// Board.Cells (index rank*Size + file, a1 first, rank 1 first), and
// returns the extended slice. It is Board without the allocation: a search
// that reads the whole board at every node passes the same buffer each
// time.
func (p *Position) AppendCells(dst []Piece) []Piece {
	g := p.g
	for r := 0; r < g.size; r++ {
		start := (r+1)*g.w + 1
		dst = append(dst, p.cells[start:start+g.size]...)
	}
	return dst
}

// CaptureTargets appends to dst the squares on which a taflman of the side
// to move, arriving there by a ply, captures an enemy taflman by custodial
// capture (RULES.md §1.2, §1.3): an empty square next to an enemy taflman
// (not the king) whose square on the far side is an anvil for the mover —
// one of the mover's pieces that may capture as the stationary piece, or a
// square hostile to that taflman. A square appears once per taflman it
// would capture, so a square listed twice captures two. It returns the
// extended slice; nothing once the game is over.
//
// It is a move-ordering hint and says nothing about which pieces can reach
// a square: a ply of the side to move that ends on a listed square
// captures exactly as many taflmen by custodial capture as the square is
// listed, provided the moving piece captures as the moving piece (every
// taflman does; the king only where KingArms is KingArmed or
// KingHammerOnly). Shieldwall captures (§1.5) and the capture of the king
// (§1.4) are not counted. The result is in a fixed order for a given
// position.
func (p *Position) CaptureTargets(dst []Square) []Square {
	if p.outcome.Over() {
		return dst
	}
	g := p.g
	mover := p.toMove
	enemy := Attacker
	if mover == Attackers {
		enemy = Defender
	}
	b := &p.bb[enemy]
	for w := 0; w < g.nw; w++ {
		for x := b[w]; x != 0; x &= x - 1 {
			victim := w<<6 | bits.TrailingZeros64(x)
			for _, d := range &g.dirs {
				arrive := victim + d
				if p.cells[arrive] != Empty {
					continue
				}
				if p.anvil(victim-d, enemy, mover) {
					dst = append(dst, g.square(arrive))
				}
			}
		}
	}
	return dst
}
