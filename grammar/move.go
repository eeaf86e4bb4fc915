package grammar

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// MaxBoardSize is the largest board the notation can name: 19×19, files a–s
// and ranks 1–19 (RULES.md §0; Alea Evangelii is the largest variant).
const MaxBoardSize = 19

// Square is a board square as written in OpenTafl notation (OTN): a file
// letter and a rank number, "a1" being the bottom-left square (RULES.md §0).
// Input may be upper case ("E7"); String is always lower case.
//
// Whether the square lies on a particular variant's board (e.g. k11 on an
// 11×11 board) is not checked here; only the notation's limit MaxBoardSize.
type Square struct {
	Pos  lexer.Position
	File int // 0 = a, 1 = b, … 18 = s
	Rank int // 1-based: 1 … 19
}

// String returns the square in lower case, e.g. "e7".
func (s Square) String() string {
	return string(rune('a'+s.File)) + strconv.Itoa(s.Rank)
}

// Parse implements participle.Parseable: it consumes one square token and
// checks that the file is a–s and the rank 1–19, returning a *Error
// otherwise. The error for a bad file is reported at the letter, the one for
// a bad rank at the first digit. Callers use the Parse functions, not this.
func (s *Square) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.EOF() || !isSquareToken(t.Value) {
		return participle.NextMatch
	}
	lex.Next()
	sq, err := parseSquare(t.Pos, t.Value)
	if err != nil {
		return err
	}
	*s = sq
	return nil
}

func isSquareToken(v string) bool {
	if len(v) < 2 || !isLetter(v[0]) {
		return false
	}
	for i := 1; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// parseSquare converts a square token (letter + digits) at pos.
func parseSquare(pos lexer.Position, v string) (Square, error) {
	f := v[0] | 0x20 // lower case
	if f > 'a'+MaxBoardSize-1 {
		return Square{}, expectedError(pos, "file a to s", quoteFound(v[:1]))
	}
	digits := v[1:]
	rankPos := pos
	rankPos.Advance(v[:1])
	rank, err := strconv.Atoi(digits)
	if err != nil || rank < 1 || rank > MaxBoardSize {
		return Square{}, expectedError(rankPos, "rank 1 to 19", quoteFound(digits))
	}
	return Square{Pos: pos, File: int(f - 'a'), Rank: rank}, nil
}

// Move is one move in OpenTafl notation (see the OTN spec, "Move Records"):
//
//	[K]<from>-<to>[captures][info]
//
// for example d1-d3, Kf6-c6, g3-e3xe2, e5-e8xe9/f8, d5-d8xd9xe8, d4-c4xKc5,
// g7-g10x, Ke1-a1--. The grammar only records what is written; whether the
// capture marks are right is checked when the record is replayed.
type Move struct {
	Pos lexer.Position
	// King is true when the move is prefixed with "K" (the king moves). OTN
	// writes the prefix for special pieces only; plain moves of the king are
	// also common.
	King bool    `parser:"@'K':Letter?"`
	From *Square `parser:"@@"`
	To   *Square `parser:"'-':Dash @@"`
	// Captures holds the capture marks in the order written, duplicates
	// included (e7-k7xk6xk6 has two marks for k6); see CaptureSquares.
	Captures []*Capture `parser:"@@*"`
	// Info is the OTN info mark: "" (none), "+" (king may be captured next
	// ply), "-" (king has a route to escape), "++" (king captured) or "--"
	// (king escaped).
	Info string `parser:"@('+':Plus | '++':Plus | '-':Dash | '--':Dash)?"`
}

// Capture is one capture mark: "x" followed by the captured pieces separated
// by "/" (OTN capture-record), e.g. "xe9/f8", "xKc5". A bare "x" (g7-g10x)
// says something was captured without naming it: Pieces is empty.
type Capture struct {
	Pos lexer.Position
	// Pieces are the captured pieces; empty for a bare "x" (which, when
	// white space follows, is lexed with it as one token, see moveState).
	Pieces []*Captured `parser:"( BareX | 'x':Letter ( @@ ( '/':Slash @@ )* )? )"`
}

// Captured is one captured piece in a capture mark: its square, optionally
// prefixed with "K" for the king (d4-c4xKc5). "xK" alone names the king
// without its square; then Square is nil.
type Captured struct {
	Pos    lexer.Position
	King   bool    `parser:"( @BareKing | @'K':Letter"`
	Square *Square `parser:"  @@? | @@ )"`
}

// Ply is one side's turn as written in a game record: a move, a resignation
// "---" (OTN resignation-symbol) or a loss on time "timeout" (the last token
// of some CSV move lists, see shared/records/README.md). Exactly one of
// Resign, Timeout and Move is set.
type Ply struct {
	Pos     lexer.Position
	Move    *Move `parser:"  @@"`
	Resign  bool  `parser:"| @'---':Resign"`
	Timeout bool  `parser:"| @'timeout':Word"`
}

// String returns the ply in canonical notation: "---", "timeout" or the move.
func (p *Ply) String() string {
	switch {
	case p == nil:
		return ""
	case p.Resign:
		return "---"
	case p.Timeout:
		return "timeout"
	}
	return p.Move.String()
}

// String returns the move in canonical lower-case OTN, e.g. "Kf6-c6xc5/d6+".
func (m *Move) String() string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	if m.King {
		b.WriteByte('K')
	}
	b.WriteString(squareString(m.From))
	b.WriteByte('-')
	b.WriteString(squareString(m.To))
	for _, c := range m.Captures {
		b.WriteString(c.String())
	}
	b.WriteString(m.Info)
	return b.String()
}

// String returns the capture mark, e.g. "xe9/f8" or "x".
func (c *Capture) String() string {
	var b strings.Builder
	b.WriteByte('x')
	for i, p := range c.Pieces {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// String returns the captured piece, e.g. "Kc5", "e9" or "K".
func (c *Captured) String() string {
	s := squareString(c.Square)
	if c.King {
		return "K" + s
	}
	return s
}

func squareString(s *Square) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// CaptureSquares returns the distinct squares named in the move's capture
// marks, in the order of their first mention (e7-k7xk6xk6 gives [k6]). Each
// returned Square keeps the position of its first mention.
func (m *Move) CaptureSquares() []Square {
	var out []Square
	seen := map[[2]int]bool{}
	for _, c := range m.Captures {
		for _, p := range c.Pieces {
			if p.Square == nil {
				continue
			}
			k := [2]int{p.Square.File, p.Square.Rank}
			if !seen[k] {
				seen[k] = true
				out = append(out, *p.Square)
			}
		}
	}
	return out
}

// KingCaptured reports whether a capture mark names the king ("xK…").
func (m *Move) KingCaptured() bool {
	for _, c := range m.Captures {
		for _, p := range c.Pieces {
			if p.King {
				return true
			}
		}
	}
	return false
}

// checkContiguous reports white space inside a move, and a move glued to the
// one before it. The lexers end a move at the first blank, but a square or a
// K/x letter after the blank starts a new token run that the parser could
// still take as part of the move ("d1- d3", "d1-d3 xe4"); every part of a
// move must lie in the run of non-blank characters that starts at the move.
// Likewise "d1-d3e4-e5" lexes as two moves; a move must not follow a
// character that could belong to a move. src is the whole input.
func checkContiguous(m *Move, src []byte) error {
	if m == nil || m.Pos.Offset < 0 || m.Pos.Offset > len(src) {
		return nil
	}
	if o := m.Pos.Offset; o > 0 && isMoveChar(src[o-1]) {
		return newError(m.Pos, "expected white space before move")
	}
	end := m.Pos.Offset
	for end < len(src) && !isBlank(src[end]) {
		end++
	}
	inside := func(p lexer.Position) error {
		if p.Offset < end {
			return nil
		}
		pos := m.Pos
		pos.Advance(string(src[m.Pos.Offset:end]))
		return newError(pos, "unexpected white space inside move")
	}
	if m.To != nil {
		if err := inside(m.To.Pos); err != nil {
			return err
		}
	}
	for _, c := range m.Captures {
		if err := inside(c.Pos); err != nil {
			return err
		}
		for _, p := range c.Pieces {
			if err := inside(p.Pos); err != nil {
				return err
			}
			if p.Square != nil {
				if err := inside(p.Square.Pos); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func isMoveChar(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '/'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// checkPlies applies checkContiguous to the moves among plies.
func checkPlies(src []byte, plies ...*Ply) error {
	for _, p := range plies {
		if p != nil {
			if err := checkContiguous(p.Move, src); err != nil {
				return err
			}
		}
	}
	return nil
}

var moveOptions = []participle.Option{
	participle.Lexer(moveLexerGen),
	participle.CaseInsensitive("Letter"),
	participle.UseLookahead(0),
}

var (
	moveParser = participle.MustBuild[Move](moveOptions...)
	plyParser  = participle.MustBuild[Ply](moveOptions...)
)

// ParseMove parses a single move such as "Kf6-c6" or "E7-E6xF6++" (white
// space around it is allowed, inside it not). A resignation or "timeout" is
// not a move: see ParsePly. filename is used in error positions only. Errors
// are *Error.
func ParseMove(filename string, src []byte) (m *Move, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	m, err = moveParser.ParseBytes(filename, src)
	if err == nil {
		err = checkContiguous(m, src)
	}
	if err != nil {
		return nil, convertError(err, filename, src, "end of input")
	}
	return m, nil
}

// ParsePly parses a single ply: a move, "---" (resignation) or "timeout".
// filename is used in error positions only. Errors are *Error.
func ParsePly(filename string, src []byte) (p *Ply, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	p, err = plyParser.ParseBytes(filename, src)
	if err == nil {
		err = checkPlies(src, p)
	}
	if err != nil {
		return nil, convertError(err, filename, src, "end of input")
	}
	return p, nil
}
