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

// NullUndo is what UnmakeNull needs to take back one MakeNull.
type NullUndo struct {
	prevIrrev int32
}

// MakeNull passes the turn without moving: a "null move", which the rules
// do not allow (RULES.md §1.1 has every ply move a piece). A search uses it
// to ask what the opponent could do if the side to move did nothing
// (null-move pruning). It gives the turn to the other side, changes the key
// as a ply does and counts as a ply. It cuts the repetition history (no
// position before it counts as equal to one after it) and judges nothing:
// the outcome stays ongoing, even when the side now to move has no legal
// ply (LegalMoves then returns none). Call it only while the game is
// running, and take it back with UnmakeNull, last in, first out together
// with Make and Unmake.
func (p *Position) MakeNull() NullUndo {
	u := NullUndo{prevIrrev: int32(p.irrev)}
	p.toMove ^= 1
	p.key ^= zobSide
	p.ply++
	p.irrev = p.ply
	p.history = append(p.history, p.key)
	return u
}

// UnmakeNull takes back the MakeNull recorded in u.
func (p *Position) UnmakeNull(u NullUndo) {
	p.history = p.history[:len(p.history)-1]
	p.ply--
	p.toMove ^= 1
	p.key ^= zobSide
	p.irrev = int(u.prevIrrev)
}

// Captures returns the number of pieces (the king included) captured on
// the plies made since the position was set up; Unmake takes its ply's
// captures back. A search compares it before and after Make to learn
// whether a ply captured, without reading the board.
func (p *Position) Captures() int { return len(p.caps) }

// CapturedSquares appends to dst the squares of the captures numbered n
// and later (n as Captures returned before the plies in question), in the
// order they were made, and returns the extended slice. n outside
// 0..Captures() appends nothing. With n = Captures() before a Make, it
// gives that ply's captures, the same squares as Play's PlyResult.
func (p *Position) CapturedSquares(dst []Square, n int) []Square {
	if n < 0 || n > len(p.caps) {
		return dst
	}
	for _, c := range p.caps[n:] {
		dst = append(dst, p.g.square(int(c.at)))
	}
	return dst
}
