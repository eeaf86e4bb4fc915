package engine

import (
	"fmt"
	"math/bits"
)

// Position is a game in progress: the board, the side to move, the Zobrist
// key, the keys of every earlier position (for repetition, RULES.md §1.6.5)
// and the outcome after the last ply. Change it with Play (checked) or
// Make/Unmake (trusted); copy it with Clone, not by assignment.
type Position struct {
	v *Variant
	g *geometry

	cells  [maxCells]Piece
	bb     [4]bitboard // by Piece: Attacker, Defender, King
	king   int         // padded index of the king, -1 once captured
	toMove Side
	key    uint64

	ply     int      // plies played since the set-up position
	history []uint64 // history[i] is the key after i plies
	irrev   int      // index in history of the last position after a capture
	outcome Outcome
	caps    []capture            // captured pieces of every ply made, for Unmake
	witness [2]int               // per side, a piece that could move when last asked (a hint)
	path    [maxPathLayers]int16 // an escape path to the edge found by encircled (a hint)
	pathLen int
}

// capture records one captured piece for Unmake.
type capture struct {
	at    int16
	piece Piece
}

// NewPosition returns the variant's start position with its first side to
// move. It returns an error wrapping ErrInvalidVariant when v does not pass
// Validate.
func NewPosition(v *Variant) (*Position, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	b, _ := v.StartBoard()
	return newPosition(v, b, v.FirstSide), nil
}

// NewPositionFromBoard returns a set-up position (a puzzle, a study, an
// adjourned game) with toMove to move. The set-up position is the first
// occurrence for repetition (Decision R1). When it is already decided
// (the king on an escape square, an edge fort, an encirclement, or no legal
// move for toMove) its Outcome says so with Ply 0. It returns an error
// wrapping ErrInvalidVariant or ErrInvalidPosition when the variant or the
// board is unusable (wrong size, not exactly one king, a piece on a
// restricted square it may not stand on).
func NewPositionFromBoard(v *Variant, b Board, toMove Side) (*Position, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	if err := v.checkBoard(b); err != nil {
		return nil, err
	}
	if toMove > Defenders {
		return nil, fmt.Errorf("%w: side to move %d", ErrInvalidPosition, toMove)
	}
	return newPosition(v, b, toMove), nil
}

func newPosition(v *Variant, b Board, toMove Side) *Position {
	vc := *v
	p := &Position{v: &vc, g: newGeometry(&vc), king: -1, toMove: toMove}
	g := p.g
	for i := range p.cells {
		p.cells[i] = offBoard
	}
	for r := 0; r < b.Size; r++ {
		for f := 0; f < b.Size; f++ {
			s := SquareAt(f, r)
			i := g.pad(s)
			pc := b.At(s)
			p.cells[i] = pc
			if pc != Empty {
				p.bb[pc].set(i)
				p.key ^= zobPiece[i][pc]
			}
			if pc == King {
				p.king = i
			}
		}
	}
	if toMove == Defenders {
		p.key ^= zobSide
	}
	p.history = append(make([]uint64, 0, 256), p.key)
	p.caps = make([]capture, 0, 64)
	p.outcome = p.setupOutcome()
	return p
}

// Clone returns an independent copy of p.
func (p *Position) Clone() *Position {
	q := &Position{history: make([]uint64, 0, cap(p.history)), caps: make([]capture, 0, cap(p.caps))}
	p.CopyInto(q)
	return q
}

// CopyInto makes *q an independent copy of p, as Clone does, reusing the
// memory of q's history of keys and captures: a program that replays many
// games one after another copies the start position into the same q for
// each. q must not be p.
func (p *Position) CopyInto(q *Position) {
	history, caps := q.history[:0], q.caps[:0]
	*q = *p
	q.history = append(history, p.history...)
	q.caps = append(caps, p.caps...)
}

// Variant returns the rules the position is played under. The caller must
// not change it.
func (p *Position) Variant() *Variant { return p.v }

// Size returns the side of the board.
func (p *Position) Size() int { return p.g.size }

// ToMove returns the side whose ply is next.
func (p *Position) ToMove() Side { return p.toMove }

// Ply returns the number of plies played since the start or set-up
// position.
func (p *Position) Ply() int { return p.ply }

// Key returns the Zobrist key of the position (board and side to move).
func (p *Position) Key() uint64 { return p.key }

// Outcome returns the game's state after the last ply.
func (p *Position) Outcome() Outcome { return p.outcome }

// At returns the piece on s, or Empty when s is not on the board.
func (p *Position) At(s Square) Piece {
	if !s.OnBoard(p.g.size) {
		return Empty
	}
	return p.cells[p.g.pad(s)]
}

// King returns the king's square, and false once he has been captured.
func (p *Position) King() (Square, bool) {
	if p.king < 0 {
		return 0, false
	}
	return p.g.square(p.king), true
}

// Board returns a copy of the board.
func (p *Position) Board() Board {
	b := NewBoard(p.g.size)
	for r := 0; r < p.g.size; r++ {
		for f := 0; f < p.g.size; f++ {
			s := SquareAt(f, r)
			b.Set(s, p.cells[p.g.pad(s)])
		}
	}
	return b
}

// Count returns the number of pieces of kind pc on the board.
func (p *Position) Count(pc Piece) int {
	if pc < Attacker || pc > King {
		return 0
	}
	n := 0
	for i := 0; i < p.g.nw; i++ {
		n += bits.OnesCount64(p.bb[pc][i])
	}
	return n
}

// Repetitions returns how often the current position has occurred so far,
// this occurrence included (1 for a new position).
func (p *Position) Repetitions() int { return p.earlierOccurrences() + 1 }

// earlierOccurrences counts earlier positions equal to the current one.
// Only positions since the last capture can be equal, and only every
// second one has the same side to move.
func (p *Position) earlierOccurrences() int {
	n := 0
	h := p.history
	for i := len(h) - 3; i >= p.irrev; i -= 2 {
		if h[i] == p.key {
			n++
		}
	}
	return n
}
