package engine

import "strconv"

// MaxSize is the largest board side the engine supports (19×19, files a–s).
const MaxSize = 19

// MinSize is the smallest board side the engine supports.
const MinSize = 5

// Square is a board coordinate independent of the board size: the file
// (0 = a, leftmost) in the low five bits and the rank (0 = rank 1, bottom) in
// the next five. The zero value is a1. See RULES.md §0.
type Square uint16

// SquareAt returns the square on the given file and rank, both 0-based
// (SquareAt(0, 0) is a1, SquareAt(5, 5) is f6). Values outside 0..MaxSize-1
// give a square that no board contains.
func SquareAt(file, rank int) Square { return Square(file&31 | (rank&31)<<5) }

// File returns the 0-based file (0 = a).
func (s Square) File() int { return int(s & 31) }

// Rank returns the 0-based rank (0 = rank 1).
func (s Square) Rank() int { return int(s>>5) & 31 }

// OnBoard reports whether s lies on a board of side size.
func (s Square) OnBoard(size int) bool { return s.File() < size && s.Rank() < size && s < 1024 }

// String returns the square in lower-case OTN form, e.g. "f6" or "s19".
func (s Square) String() string {
	return string(rune('a'+s.File())) + strconv.Itoa(s.Rank()+1)
}

// Side is one of the two players. The zero value is Attackers.
type Side uint8

const (
	// Attackers are the side without the king ("black", Angreifer).
	Attackers Side = iota
	// Defenders are the king's side ("white", Verteidiger).
	Defenders
)

// Opponent returns the other side.
func (s Side) Opponent() Side { return s ^ 1 }

// String returns "attackers" or "defenders".
func (s Side) String() string {
	if s == Defenders {
		return "defenders"
	}
	return "attackers"
}

// Piece is the content of a square: Empty or one taflman.
type Piece uint8

const (
	// Empty is a square with no piece.
	Empty Piece = iota
	// Attacker is an attacking taflman.
	Attacker
	// Defender is a defending taflman other than the king.
	Defender
	// King is the defenders' king.
	King
	// offBoard marks the guard frame around the board in the padded mailbox.
	offBoard
)

// Side returns the side a piece belongs to. It is meaningless for Empty.
func (p Piece) Side() Side {
	if p == Attacker {
		return Attackers
	}
	return Defenders
}

// String returns "attacker", "defender", "king" or "empty".
func (p Piece) String() string {
	switch p {
	case Attacker:
		return "attacker"
	case Defender:
		return "defender"
	case King:
		return "king"
	}
	return "empty"
}

// PieceSet is a set of piece kinds (Attacker, Defender, King), used in
// square rules: who may stop on or pass a square, and to whom it is hostile.
type PieceSet uint8

// Pieces returns the set holding the given pieces.
func Pieces(ps ...Piece) PieceSet {
	var s PieceSet
	for _, p := range ps {
		s |= 1 << p
	}
	return s
}

// Has reports whether p is in the set.
func (s PieceSet) Has(p Piece) bool { return s&(1<<p) != 0 }

// Common piece sets.
const (
	NoPieces     PieceSet = 0
	OnlyKing     PieceSet = 1 << King
	AllPieces    PieceSet = 1<<Attacker | 1<<Defender | 1<<King
	NonKing      PieceSet = 1<<Attacker | 1<<Defender
	AttackerOnly PieceSet = 1 << Attacker
)

// Move is one ply: a taflman moves from From to To along a rank or file.
// Captures are not part of a Move; the engine computes them.
type Move struct {
	From, To Square
}

// String returns the move as "from-to" in OTN, e.g. "d1-d3".
func (m Move) String() string { return m.From.String() + "-" + m.To.String() }
