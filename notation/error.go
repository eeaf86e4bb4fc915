package notation

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// Kind says what an Error is about.
type Kind uint8

const (
	// KindSyntax: a position or rules string is malformed.
	KindSyntax Kind = iota + 1
	// KindUnsupported: a rules key or value, or a piece, that the engine
	// cannot play (jumps, berserk, fortresses, special pieces, …).
	KindUnsupported
	// KindSetup: the record's rules or start position cannot be used: an
	// unknown variant name, a board the variant cannot hold, a game decided
	// before its first ply.
	KindSetup
	// KindIllegal: the engine rejects a ply (Err is the
	// *engine.IllegalMoveError), or a "K" prefix names a piece that is not
	// the king.
	KindIllegal
	// KindAfterEnd: a ply (or resignation, or time-out) after the engine
	// had already ended the game, e.g. play on after a third repetition.
	KindAfterEnd
	// KindSequence: a move number out of sequence, a ply in the wrong half
	// of its numbered pair, or a resignation or time-out that is not the
	// last ply.
	KindSequence
	// KindCaptures: the ply's capture marks differ from the pieces the
	// engine captures.
	KindCaptures
	// KindResult: the record's result or termination contradicts the
	// engine's outcome, or a resignation or time-out.
	KindResult
	// KindClock: the clock data of a timed record (CORRESPONDENCE.md §5)
	// is malformed or incomplete: a clock tag or [%ts] that does not
	// parse, a ply without its arrival time, times out of order.
	KindClock
)

var kindNames = [...]string{
	KindSyntax: "syntax", KindUnsupported: "unsupported", KindSetup: "setup", KindIllegal: "illegal",
	KindAfterEnd: "after end", KindSequence: "sequence", KindCaptures: "captures", KindResult: "result",
	KindClock: "clock",
}

// String returns the kind in lower-case words, e.g. "after end".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Error is the one error type of this package: a problem with a position
// or rules string, or with a game record as the engine replays it. It
// carries what a reply or a validator line needs: where (file, line and
// column, 1-based, column in runes as grammar.Error counts them), which ply
// (1-based, counted from the game's first ply) and side, the ply as written,
// and what is wrong.
//
// Error() reads
//
//	file:line:col: ply 23 (attackers) d4-d8: path blocked at d6
//
// leaving out the parts that are unknown (no file, no position, no ply).
// Errors that wrap a cause (an *engine.IllegalMoveError, a *grammar.Error,
// an engine.ErrInvalidVariant) return it from Unwrap. The sentinels
// ErrSyntax … ErrClock match every Error of their Kind with errors.Is.
type Error struct {
	Filename string // the file, as the caller named it; may be empty
	Line     int    // 1-based; 0 when unknown
	Col      int    // 1-based, in runes; 0 when unknown
	// Game is the game's 1-based number in its file (for CSV: its line
	// number); 0 when the error is not about a game.
	Game int
	// Ply is the 1-based number of the ply in the game, 0 when the error is
	// not about one ply. Side is the side whose ply it is.
	Ply  int
	Side engine.Side
	// Move is the ply as written (normalised to lower case, e.g. "Kd4-d8"),
	// "" when the error is not about one ply.
	Move    string
	Kind    Kind   // what is wrong
	Message string // lower case, without position, ply or move
	Err     error  // the cause, or nil
}

// The sentinels: errors.Is(err, ErrIllegal) reports whether err is an
// *Error of KindIllegal, and so on.
var (
	ErrSyntax      = &Error{Kind: KindSyntax, Message: "malformed position or rules"}
	ErrUnsupported = &Error{Kind: KindUnsupported, Message: "not supported by the engine"}
	ErrSetup       = &Error{Kind: KindSetup, Message: "unusable rules or start position"}
	ErrIllegal     = &Error{Kind: KindIllegal, Message: "illegal ply"}
	ErrAfterEnd    = &Error{Kind: KindAfterEnd, Message: "ply after the end of the game"}
	ErrSequence    = &Error{Kind: KindSequence, Message: "ply out of sequence"}
	ErrCaptures    = &Error{Kind: KindCaptures, Message: "capture marks differ from the engine's captures"}
	ErrResult      = &Error{Kind: KindResult, Message: "result contradicts the engine"}
	ErrClock       = &Error{Kind: KindClock, Message: "malformed or incomplete clock data"}
)

// Error formats e as described on the type, with the position printed
// as every positioned error of taflmail prints it (grammar.Positioned),
// and "notation: " in its place when e has neither file nor line.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Ply > 0 {
		fmt.Fprintf(&b, "ply %d (%s) ", e.Ply, e.Side)
	}
	if e.Move != "" {
		b.WriteString(e.Move)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Filename == "" && e.Line <= 0 {
		return "notation: " + b.String()
	}
	return grammar.Positioned(e.Filename, e.Line, e.Col, b.String())
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel of e's Kind.
func (e *Error) Is(target error) bool {
	for _, s := range []*Error{ErrSyntax, ErrUnsupported, ErrSetup, ErrIllegal, ErrAfterEnd, ErrSequence, ErrCaptures, ErrResult, ErrClock} {
		if target == s {
			return e.Kind == s.Kind
		}
	}
	return false
}

// errorf returns an *Error of kind k at column col of a one-line string.
func errorf(k Kind, col int, format string, args ...any) *Error {
	return &Error{Kind: k, Line: 1, Col: col, Message: fmt.Sprintf(format, args...)}
}
