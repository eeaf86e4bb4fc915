package notation

import (
	"strconv"
	"strings"

	"github.com/taflmail/taflmail/engine"
)

// OTN position records (OTN spec §1 "Positional Records"; RULES.md §0):
//
//	/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/
//
// One row per rank, rank 1 first, each row a run of empty-square counts and
// piece letters from file a, every row closed by "/". The current OTN spec
// says so ("position records always start at the 'a' file on the first
// rank"), and so do the puzzle records of shared/records: the Fetlar puzzle
// (start:) replays only with rank 1 first. OpenTafl's starti: key holds the
// same record turned upside down (top rank first); see ParseBoardInverted.
//
// Letters: t attacker, T defender, K king. OTN's other letters (k, n, c,
// m, g and their capitals: berserk and Alea Evangelii pieces) name pieces
// the engine does not have; they are rejected, not read as plain men.

// ParseBoard reads an OTN position record, rank 1 first, into a board of the
// size the record has (engine.MinSize to engine.MaxSize squares a side). It
// checks only the form: every row as long as there are rows, known letters.
// Whether a variant can hold the board (one king, nobody on a square he may
// not stand on) is engine.NewPositionFromBoard's question. Errors are
// *Error of KindSyntax, or KindUnsupported for special pieces; Col counts
// from 1 at the first character of s.
func ParseBoard(s string) (engine.Board, error) { return parseBoard(s, false) }

// ParseBoardInverted reads a position record written top rank first, as in
// OpenTafl's starti: rules key. Otherwise it is ParseBoard.
func ParseBoardInverted(s string) (engine.Board, error) { return parseBoard(s, true) }

// FormatBoard writes b as an OTN position record, rank 1 first, e.g.
// "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/" for Brandubh's start.
func FormatBoard(b engine.Board) string {
	var sb strings.Builder
	sb.WriteByte('/')
	for r := 0; r < b.Size; r++ {
		empty := 0
		for f := 0; f < b.Size; f++ {
			var c byte
			switch b.At(engine.SquareAt(f, r)) {
			case engine.Attacker:
				c = 't'
			case engine.Defender:
				c = 'T'
			case engine.King:
				c = 'K'
			default:
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			sb.WriteByte(c)
		}
		if empty > 0 {
			sb.WriteString(strconv.Itoa(empty))
		}
		sb.WriteByte('/')
	}
	return sb.String()
}

// ParsePosition reads a set-up position: an OTN position record (rank 1
// first), optionally followed by white space and the side to move,
// "attackers" or "defenders" (RULES.md §0: a position is the board and the
// side to move). Without a side the attackers move. Errors as ParseBoard.
func ParsePosition(s string) (engine.Board, engine.Side, error) {
	board, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	b, err := ParseBoard(board)
	if err != nil {
		return b, engine.Attackers, err
	}
	switch side := strings.TrimSpace(rest); side {
	case "", "attackers":
		return b, engine.Attackers, nil
	case "defenders":
		return b, engine.Defenders, nil
	default:
		return b, engine.Attackers, &Error{Kind: KindSyntax, Line: 1, Col: len(board) + 2,
			Message: "expected side to move \"attackers\" or \"defenders\" after the position, found " + strconv.Quote(side)}
	}
}

// FormatPosition writes a set-up position as ParsePosition reads it: the
// board record, a blank, the side to move.
func FormatPosition(b engine.Board, toMove engine.Side) string {
	return FormatBoard(b) + " " + toMove.String()
}

// specialPieces names the OTN letters of pieces the engine lacks.
var specialPieces = map[byte]string{
	'k': "an attacking king", 'n': "a knight", 'N': "a knight", 'c': "a commander", 'C': "a commander",
	'm': "a mercenary", 'M': "a mercenary", 'g': "a guard", 'G': "a guard",
}

func parseBoard(s string, inverted bool) (engine.Board, error) {
	bad := func(col int, format string, args ...any) (engine.Board, error) {
		return engine.Board{}, errorf(KindSyntax, col, format, args...)
	}
	if s == "" || s[0] != '/' {
		return bad(1, "an OTN position starts with \"/\"")
	}
	if len(s) < 2 {
		return bad(1, "an OTN position holds ranks between slashes: /3t3/…/")
	}
	if s[len(s)-1] != '/' {
		return bad(len(s)+1, "an OTN position ends with \"/\"")
	}
	rows := strings.Split(s[1:len(s)-1], "/")
	n := len(rows)
	if n < engine.MinSize || n > engine.MaxSize {
		return bad(1, "position has %d ranks; boards have %d to %d", n, engine.MinSize, engine.MaxSize)
	}
	b := engine.NewBoard(n)
	col := 2 // column of the current row's first character
	for i, row := range rows {
		rank := i
		if inverted {
			rank = n - 1 - i
		}
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				k := j
				for k < len(row) && row[k] >= '0' && row[k] <= '9' {
					k++
				}
				count, err := strconv.Atoi(row[j:k])
				if err != nil || count == 0 || row[j] == '0' {
					return bad(col+j, "bad count of empty squares %q", row[j:k])
				}
				file += count
				j = k - 1
			case c == 't' || c == 'T' || c == 'K':
				if file < n {
					b.Set(engine.SquareAt(file, rank), pieceOf(c))
				}
				file++
			default:
				if what, ok := specialPieces[c]; ok {
					return engine.Board{}, errorf(KindUnsupported, col+j, "%q is %s; special pieces are not supported", string(c), what)
				}
				return bad(col+j, "unexpected %q in position (pieces are t, T and K)", string(c))
			}
			if file > n {
				return bad(col+j, "rank %d has more than %d squares", rank+1, n)
			}
		}
		if file < n {
			return bad(col+len(row), "rank %d has %d squares, want %d", rank+1, file, n)
		}
		col += len(row) + 1
	}
	return b, nil
}

// pieceOf returns the piece of an OTN letter t, T or K.
func pieceOf(c byte) engine.Piece {
	switch c {
	case 't':
		return engine.Attacker
	case 'T':
		return engine.Defender
	}
	return engine.King
}
