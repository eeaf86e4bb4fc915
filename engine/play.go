package engine

import (
	"errors"
	"fmt"
)

// Illegal says why a move is not legal.
type Illegal uint8

const (
	// IllegalGameOver: the game has already ended.
	IllegalGameOver Illegal = iota + 1
	// IllegalOffBoard: a square is not on this board.
	IllegalOffBoard
	// IllegalNoPiece: the from-square is empty.
	IllegalNoPiece
	// IllegalNotYourPiece: the piece belongs to the side not to move.
	IllegalNotYourPiece
	// IllegalNullMove: from and to are the same square.
	IllegalNullMove
	// IllegalNotStraight: from and to share neither rank nor file.
	IllegalNotStraight
	// IllegalBlocked: a piece stands between from and to (At says where).
	IllegalBlocked
	// IllegalOccupied: the to-square holds a piece.
	IllegalOccupied
	// IllegalRestrictedStop: the piece may not end its ply on the
	// restricted square To (the throne or a corner, RULES.md §1.1).
	IllegalRestrictedStop
	// IllegalRestrictedPass: the piece may not move through the restricted
	// square At (RULES.md §1.1).
	IllegalRestrictedPass
)

// IllegalMoveError is returned by Position.Check and Position.Play for a
// move the rules forbid. Move is the move as given; At is the square that
// blocks (IllegalBlocked, IllegalRestrictedPass), otherwise the square the
// reason is about.
type IllegalMoveError struct {
	Move   Move
	Reason Illegal
	At     Square
	Piece  Piece // the piece on Move.From, when there is one
}

// ErrIllegalMove matches every *IllegalMoveError with errors.Is.
var ErrIllegalMove = errors.New("engine: illegal move")

// Is makes errors.Is(err, ErrIllegalMove) true.
func (e *IllegalMoveError) Is(target error) bool { return target == ErrIllegalMove }

// Error returns e.g. "engine: d4-d8: path blocked at d6".
func (e *IllegalMoveError) Error() string {
	m := e.Move.String()
	var why string
	switch e.Reason {
	case IllegalGameOver:
		why = "the game is over"
	case IllegalOffBoard:
		why = fmt.Sprintf("%v is not on the board", e.At)
	case IllegalNoPiece:
		why = fmt.Sprintf("no piece on %v", e.At)
	case IllegalNotYourPiece:
		why = fmt.Sprintf("the %v on %v belongs to the side not to move", e.Piece, e.At)
	case IllegalNullMove:
		why = "a piece must move at least one square"
	case IllegalNotStraight:
		why = "pieces move along a rank or a file only"
	case IllegalBlocked:
		why = fmt.Sprintf("path blocked at %v", e.At)
	case IllegalOccupied:
		why = fmt.Sprintf("%v is occupied", e.At)
	case IllegalRestrictedStop:
		why = fmt.Sprintf("%s may not stop on %v", withArticle(e.Piece), e.At)
	case IllegalRestrictedPass:
		why = fmt.Sprintf("%s may not pass through %v", withArticle(e.Piece), e.At)
	default:
		why = "illegal"
	}
	return "engine: " + m + ": " + why
}

// Check reports whether m is legal in p, returning nil or an
// *IllegalMoveError that says why not (RULES.md §1.1).
func (p *Position) Check(m Move) error {
	bad := func(r Illegal, at Square, pc Piece) error {
		return &IllegalMoveError{Move: m, Reason: r, At: at, Piece: pc}
	}
	n := p.g.size
	if p.outcome.Over() {
		return bad(IllegalGameOver, m.From, Empty)
	}
	for _, s := range [2]Square{m.From, m.To} {
		if !s.OnBoard(n) {
			return bad(IllegalOffBoard, s, Empty)
		}
	}
	pc := p.At(m.From)
	switch {
	case pc == Empty:
		return bad(IllegalNoPiece, m.From, pc)
	case pc.Side() != p.toMove:
		return bad(IllegalNotYourPiece, m.From, pc)
	case m.From == m.To:
		return bad(IllegalNullMove, m.From, pc)
	case m.From.File() != m.To.File() && m.From.Rank() != m.To.Rank():
		return bad(IllegalNotStraight, m.To, pc)
	}
	g := p.g
	from, to := g.pad(m.From), g.pad(m.To)
	d := g.w
	switch {
	case m.From.Rank() == m.To.Rank() && to > from:
		d = 1
	case m.From.Rank() == m.To.Rank():
		d = -1
	case to < from:
		d = -g.w
	}
	for i := from + d; i != to; i += d {
		if p.cells[i] != Empty {
			return bad(IllegalBlocked, g.square(i), pc)
		}
		if k := g.kind[i]; !g.pass[k].Has(pc) {
			return bad(IllegalRestrictedPass, g.square(i), pc)
		}
	}
	if p.cells[to] != Empty {
		return bad(IllegalOccupied, m.To, pc)
	}
	if !g.stop[g.kind[to]].Has(pc) {
		return bad(IllegalRestrictedStop, m.To, pc)
	}
	return nil
}

// PlyResult is what one checked ply did: the move, the piece that moved,
// the squares whose pieces were captured (the king included, in capture
// order), and the outcome after the ply.
type PlyResult struct {
	Move     Move
	Piece    Piece
	Captures []Square
	Outcome  Outcome
}

// Play checks m and plays it. It returns an *IllegalMoveError (and leaves
// p unchanged) when m is illegal.
func (p *Position) Play(m Move) (PlyResult, error) {
	r, _, err := p.PlayAppend(m, nil)
	return r, err
}

// PlayAppend is Play with the captured squares appended to buf, so that a
// caller playing many plies (a replay) can keep them all in one buffer
// instead of one allocation per capturing ply. It returns the buffer as
// extended; the result's Captures is the part appended, with its capacity
// cut to its length, so appending to it never writes into buf. An illegal
// move leaves p and buf unchanged.
func (p *Position) PlayAppend(m Move, buf []Square) (PlyResult, []Square, error) {
	if err := p.Check(m); err != nil {
		return PlyResult{}, buf, err
	}
	pc := p.At(m.From)
	start := len(p.caps)
	p.Make(m)
	r := PlyResult{Move: m, Piece: pc, Outcome: p.outcome}
	if n := len(p.caps) - start; n > 0 {
		from := len(buf)
		for _, c := range p.caps[start:] {
			buf = append(buf, p.g.square(int(c.at)))
		}
		r.Captures = buf[from : from+n : from+n]
	}
	return r, buf, nil
}

// withArticle returns "an attacker", "a defender", "the king".
func withArticle(p Piece) string {
	switch p {
	case Attacker:
		return "an attacker"
	case King:
		return "the king"
	}
	return "a " + p.String()
}
