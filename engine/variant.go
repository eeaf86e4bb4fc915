package engine

import (
	"errors"
	"fmt"
)

// Escape says which squares win the game for the defenders when the king
// stands on them (RULES.md §1.6.1).
type Escape uint8

const (
	// EscapeCorners: the four corner squares.
	EscapeCorners Escape = iota
	// EscapeEdge: every square on the board edge.
	EscapeEdge
)

// KingArms says whether the king takes part in captures (RULES.md §1.4).
type KingArms uint8

const (
	// KingArmed: the king captures as hammer (moving piece) and anvil.
	KingArmed KingArms = iota
	// KingUnarmed: the king never helps capture.
	KingUnarmed
	// KingHammerOnly: the king captures only as the moving piece.
	KingHammerOnly
	// KingAnvilOnly: the king captures only as the stationary piece.
	KingAnvilOnly
)

func (a KingArms) hammer() bool { return a == KingArmed || a == KingHammerOnly }
func (a KingArms) anvil() bool  { return a == KingArmed || a == KingAnvilOnly }

// KingCapture is how the king is captured (RULES.md §1.4).
type KingCapture uint8

const (
	// CaptureStrong: attackers or hostile squares on all four sides. Beside
	// the throne the empty throne counts when it is hostile to the king.
	CaptureStrong KingCapture = iota
	// CaptureWeak: like any taflman, between two attackers (or an attacker
	// and a hostile square) on one line.
	CaptureWeak
	// CaptureStrongNearThrone: weak, except on the throne (four sides) and
	// beside it (three sides and the throne).
	CaptureStrongNearThrone
)

// KingEdge is the edge rule for a king that must be captured on four sides
// (RULES.md §1.4). It has no effect where the king is captured weakly.
type KingEdge uint8

const (
	// EdgeNoCapture: the king cannot be captured on an edge square.
	EdgeNoCapture KingEdge = iota
	// EdgeThreeSides: on an edge square the edge is the fourth side, so
	// three attackers (or hostile squares) capture him.
	EdgeThreeSides
)

// Repetition is the outcome when a ply produces a position for the third
// time (RULES.md §1.6.5 and Decision R1).
type Repetition uint8

const (
	// RepetitionAttackersWin: the defenders lose (Copenhagen, Vingólf, Tablut…).
	RepetitionAttackersWin Repetition = iota
	// RepetitionDraw: the game is drawn (Fetlar, Decision F1).
	RepetitionDraw
	// RepetitionSideToMoveLoses: the side to move in the thrice-seen
	// position began the cycle and loses (Historical, Decision H1).
	RepetitionSideToMoveLoses
	// RepetitionDefendersWin: the attackers lose.
	RepetitionDefendersWin
	// RepetitionIgnored: repeating a position has no consequence.
	RepetitionIgnored
	// RepetitionSideToMoveWins: the side to move in the thrice-seen
	// position wins; the player whose ply completed the third repetition
	// loses. No built-in variant has it: it is how OpenTafl's code plays
	// the OTN rule tfr:w (docs/notation.md, "OTN rules strings"), which an
	// OpenTafl host sends for Copenhagen.
	RepetitionSideToMoveWins
)

// NoMove is the outcome when the side to move has no legal ply
// (RULES.md §1.6.6).
type NoMove uint8

const (
	// NoMoveLoses: the side that cannot move loses.
	NoMoveLoses NoMove = iota
	// NoMoveDraw: the game is drawn (Fetlar, Decision F1).
	NoMoveDraw
)

// SquareRule is the data for one kind of restricted square, the throne or
// the corners (RULES.md §1.1 and §1.3). The zero value means the square
// kind does not exist in the variant: such squares are ordinary.
type SquareRule struct {
	// Present makes the squares restricted; without it the other fields are
	// ignored.
	Present bool
	// Stop holds the pieces that may end a ply on the square.
	Stop PieceSet
	// Pass holds the pieces that may move through the square while it is
	// empty.
	Pass PieceSet
	// HostileEmpty holds the pieces for which the empty square acts as an
	// enemy piece in captures.
	HostileEmpty PieceSet
	// HostileOccupied holds the pieces for which the square acts as an
	// enemy piece while the king stands on it.
	HostileOccupied PieceSet
	// Squares places the squares of this kind. Empty means the usual
	// place: the centre for the throne (an odd board), the four corners
	// for corners. Puzzles and OTN rules strings (cor:, cen:) may put them
	// elsewhere; a throne has at most one square.
	Squares []Square
}

// Variant is a complete rule set as data (RULES.md §1 and §2). Built-in
// variants are returned by [Lookup] and [Variants]; other values can be
// built by hand or by the notation package from an OTN rules string, and
// must pass [Variant.Validate] before use.
type Variant struct {
	// Name is the identifier used in the CLI and in mail, e.g. "copenhagen".
	Name string
	// Title is the human name, e.g. "Copenhagen Hnefatafl".
	Title string
	// Summary is a one-line description of what sets the rules apart.
	Summary string
	// Source cites the rule sources (seed files, RULES.md decisions).
	Source string
	// Tier is 1 for the exact tournament variants, 2 for the others.
	Tier int
	// Size is the side of the square board, MinSize..MaxSize.
	Size int
	// Start is the start position, one string per rank from the top rank
	// (rank Size) down to rank 1, one byte per file from a: '.' empty,
	// 't' attacker, 'T' defender, 'K' king.
	Start []string
	// FirstSide is the side that plays the first ply.
	FirstSide Side
	// Escape says where the king escapes.
	Escape Escape
	// KingArms says whether the king captures.
	KingArms KingArms
	// KingCapture is how the king is captured.
	KingCapture KingCapture
	// KingEdge is the edge rule where the king is captured on four sides.
	KingEdge KingEdge
	// Throne is the rule for the central square.
	Throne SquareRule
	// Corners is the rule for the four corner squares.
	Corners SquareRule
	// Shieldwall enables shieldwall captures along the edge (§1.5).
	Shieldwall bool
	// ShieldwallCorners lets a corner act as the far bracket of a shieldwall.
	ShieldwallCorners bool
	// EdgeFort makes an edge fort a win for the defenders (§1.6.3).
	EdgeFort bool
	// Encirclement makes cutting every defender off from the edge a win for
	// the attackers (§1.6.4, Decision E1).
	Encirclement bool
	// Repetition is the outcome of a third repetition (§1.6.5).
	Repetition Repetition
	// NoMove is the outcome for a side without a legal ply (§1.6.6).
	NoMove NoMove
}

// ErrInvalidVariant is returned (wrapped) by Variant.Validate.
var ErrInvalidVariant = errors.New("engine: invalid variant")

// Validate checks that the variant is usable: board size, a start position
// of Size rows of Size squares with exactly one king, no piece on a square
// it may not stop on, and an odd size when a throne is present. It returns
// an error wrapping ErrInvalidVariant that says what is wrong.
func (v *Variant) Validate() error {
	if v.Size < MinSize || v.Size > MaxSize {
		return fmt.Errorf("%w %q: board size %d outside %d..%d", ErrInvalidVariant, v.Name, v.Size, MinSize, MaxSize)
	}
	if v.Throne.Present && len(v.Throne.Squares) == 0 && v.Size%2 == 0 {
		return fmt.Errorf("%w %q: a central throne needs an odd board size, not %d", ErrInvalidVariant, v.Name, v.Size)
	}
	if len(v.Throne.Squares) > 1 {
		return fmt.Errorf("%w %q: %d throne squares, at most 1", ErrInvalidVariant, v.Name, len(v.Throne.Squares))
	}
	for _, r := range []*SquareRule{&v.Throne, &v.Corners} {
		for _, s := range r.Squares {
			if !s.OnBoard(v.Size) {
				return fmt.Errorf("%w %q: restricted square %v is not on the board", ErrInvalidVariant, v.Name, s)
			}
		}
	}
	b, err := v.StartBoard()
	if err != nil {
		return err
	}
	return v.checkBoard(b)
}

// StartBoard decodes Start into a Board. It returns an error wrapping
// ErrInvalidVariant when Start does not have Size rows of Size squares or
// holds a byte other than '.', 't', 'T', 'K'.
func (v *Variant) StartBoard() (Board, error) {
	b := NewBoard(v.Size)
	if len(v.Start) != v.Size {
		return b, fmt.Errorf("%w %q: start has %d ranks, want %d", ErrInvalidVariant, v.Name, len(v.Start), v.Size)
	}
	for i, row := range v.Start {
		rank := v.Size - 1 - i
		if len(row) != v.Size {
			return b, fmt.Errorf("%w %q: start rank %d has %d squares, want %d", ErrInvalidVariant, v.Name, rank+1, len(row), v.Size)
		}
		for file := 0; file < v.Size; file++ {
			var p Piece
			switch row[file] {
			case '.':
			case 't':
				p = Attacker
			case 'T':
				p = Defender
			case 'K':
				p = King
			default:
				return b, fmt.Errorf("%w %q: start square %v holds %q", ErrInvalidVariant, v.Name, SquareAt(file, rank), row[file])
			}
			b.Set(SquareAt(file, rank), p)
		}
	}
	return b, nil
}

// ThroneSquare returns the throne square (Throne.Squares, by default the
// centre) and whether the variant has a throne.
func (v *Variant) ThroneSquare() (Square, bool) {
	if len(v.Throne.Squares) > 0 {
		return v.Throne.Squares[0], v.Throne.Present
	}
	c := v.Size / 2
	return SquareAt(c, c), v.Throne.Present
}

// IsCorner reports whether s is a corner square: one of Corners.Squares
// when the variant places them, else one of the four corners of the board
// (whether or not the variant restricts them).
func (v *Variant) IsCorner(s Square) bool {
	if len(v.Corners.Squares) > 0 {
		for _, c := range v.Corners.Squares {
			if c == s {
				return true
			}
		}
		return false
	}
	last := v.Size - 1
	f, r := s.File(), s.Rank()
	return (f == 0 || f == last) && (r == 0 || r == last)
}

// IsEdge reports whether s lies on the board edge.
func (v *Variant) IsEdge(s Square) bool {
	last := v.Size - 1
	f, r := s.File(), s.Rank()
	return f == 0 || r == 0 || f == last || r == last
}

// IsEscape reports whether the king wins by standing on s (§1.6.1).
func (v *Variant) IsEscape(s Square) bool {
	if v.Escape == EscapeEdge {
		return v.IsEdge(s)
	}
	return v.IsCorner(s)
}

// squareRule returns the rule that governs s: the throne's, the corners' or
// nil for an ordinary square.
func (v *Variant) squareRule(s Square) *SquareRule {
	if t, ok := v.ThroneSquare(); ok && s == t {
		return &v.Throne
	}
	if v.Corners.Present && v.IsCorner(s) {
		return &v.Corners
	}
	return nil
}

// MayStop reports whether piece p may end a ply on square s (§1.1).
func (v *Variant) MayStop(p Piece, s Square) bool {
	r := v.squareRule(s)
	return r == nil || r.Stop.Has(p)
}

// checkBoard validates a board against the variant: its size, exactly one
// king, and no piece on a restricted square it may not stop on.
func (v *Variant) checkBoard(b Board) error {
	if b.Size != v.Size {
		return fmt.Errorf("%w %q: board is %d×%d, want %d×%d", ErrInvalidPosition, v.Name, b.Size, b.Size, v.Size, v.Size)
	}
	kings := 0
	for i, p := range b.Cells {
		s := SquareAt(i%b.Size, i/b.Size)
		switch p {
		case Empty:
			continue
		case King:
			kings++
		case Attacker, Defender:
		default:
			return fmt.Errorf("%w: square %v holds an unknown piece %d", ErrInvalidPosition, s, p)
		}
		if !v.MayStop(p, s) {
			return fmt.Errorf("%w: a %v may not stand on %v", ErrInvalidPosition, p, s)
		}
	}
	if kings != 1 {
		return fmt.Errorf("%w: %d kings on the board, want 1", ErrInvalidPosition, kings)
	}
	return nil
}

// ErrInvalidPosition is returned (wrapped) for a set-up position that the
// variant cannot hold.
var ErrInvalidPosition = errors.New("engine: invalid position")

// Board is a plain array of pieces, used to set up positions and to read
// them out. Cells[rank*Size+file] is the piece on that square (0-based
// file and rank, rank 0 at the bottom).
type Board struct {
	Size  int
	Cells []Piece
}

// NewBoard returns an empty board of side size.
func NewBoard(size int) Board { return Board{Size: size, Cells: make([]Piece, size*size)} }

// At returns the piece on s, or Empty when s is off the board.
func (b Board) At(s Square) Piece {
	if !s.OnBoard(b.Size) {
		return Empty
	}
	return b.Cells[s.Rank()*b.Size+s.File()]
}

// Set puts p on s; it does nothing when s is off the board.
func (b Board) Set(s Square, p Piece) {
	if s.OnBoard(b.Size) {
		b.Cells[s.Rank()*b.Size+s.File()] = p
	}
}
