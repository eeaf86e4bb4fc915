package notation

import (
	"strconv"

	"github.com/taflmail/taflmail/grammar"
)

// ParseCSV parses a CSV file of games (shared/records/README.md) and
// returns exactly what grammar.ParseCSV returns, syntax trees and
// positions included, only faster: about twenty times on the Copenhagen
// corpus (docs/performance.md).
//
// The grammar stays the definition. ParseCSV splits each line at its
// blanks and its last three commas, and hands every distinct ply text to
// participle once (grammar.ParsePly); the same text recurs thousands of
// times (44,294 plies, 4,719 texts in copenhagen.csv), so each further
// occurrence is a copy of the parsed ply with its positions moved to where
// it stands. Whenever a line is not of the plain form this splitting
// understands (a character outside printable ASCII, a ply participle
// rejects, a malformed count or outcome, anything after the outcome), the
// whole file goes to grammar.ParseCSV, so every error, and every input the
// shortcut might read differently, is the grammar's. TestParseCSVSame and
// FuzzParseCSVSame check that both agree.
func ParseCSV(filename string, src []byte) ([]*grammar.CSVGame, error) {
	if games, ok := parseCSVFast(filename, src); ok {
		return games, nil
	}
	return grammar.ParseCSV(filename, src)
}

// csvParser holds the state of one fast parse: the ply memo and slabs from
// which the syntax trees are allocated.
type csvParser struct {
	filename string
	memo     map[string]*grammar.Ply
	plies    []grammar.Ply
	moves    []grammar.Move
	squares  []grammar.Square
}

// parseCSVFast parses src by splitting lines, or reports false when a line
// is not of the plain form (see ParseCSV).
func parseCSVFast(filename string, src []byte) ([]*grammar.CSVGame, bool) {
	p := &csvParser{filename: filename, memo: make(map[string]*grammar.Ply, 1024)}
	games := []*grammar.CSVGame{}
	line, off := 1, 0
	for off < len(src) {
		end := off
		for end < len(src) && src[end] != '\n' {
			end++
		}
		text := src[off:end]
		if n := len(text); n > 0 && text[n-1] == '\r' && end < len(src) {
			text = text[:n-1] // CRLF; a lone CR is not a line end
		}
		if !blankLine(text) {
			g, ok := p.game(text, line, off)
			if !ok {
				return nil, false
			}
			games = append(games, g)
		}
		line++
		off = end + 1
	}
	return games, true
}

// blankLine reports whether a line holds only blanks and tabs (the
// grammar skips such lines).
func blankLine(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// game parses one line, which starts at byte offset off of the file.
func (p *csvParser) game(text []byte, line, off int) (*grammar.CSVGame, bool) {
	for _, c := range text {
		if c < ' ' && c != '\t' || c > '~' {
			return nil, false
		}
	}
	// The last three commas separate the plies, the two counts and the
	// outcome; plies hold no commas.
	var commas [3]int
	n := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ',' {
			if n == 3 {
				return nil, false
			}
			commas[n] = i
			n++
		}
	}
	if n != 3 {
		return nil, false
	}
	g := &grammar.CSVGame{Line: line}
	pos := func(col int) grammar.Position {
		return grammar.Position{Filename: p.filename, Offset: off + col, Line: line, Column: col + 1}
	}
	// Plies: tokens separated by blanks.
	for i := 0; i < commas[0]; {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < commas[0] && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		if n := len(g.Plies); n > 0 && endsBare(g.Plies[n-1]) {
			// The grammar lets a bare "x" at the end of a ply take the
			// next ply's square (grammar bug, see docs/performance.md);
			// leave such lines to it.
			return nil, false
		}
		ply, ok := p.ply(string(text[i:j]), pos(i))
		if !ok {
			return nil, false
		}
		g.Plies = append(g.Plies, ply)
		i = j
	}
	g.Pos = pos(commas[0])
	if len(g.Plies) > 0 {
		g.Pos = g.Plies[0].Pos
	}
	var ok bool
	if g.AttackerCaptures, ok = csvInt(text[commas[0]+1 : commas[1]]); !ok {
		return nil, false
	}
	if g.DefenderCaptures, ok = csvInt(text[commas[1]+1 : commas[2]]); !ok {
		return nil, false
	}
	switch o := string(trimBlanks(text[commas[2]+1:])); o {
	case "Black", "White", "Draw", "Ongoing":
		g.Outcome = o
	default:
		return nil, false
	}
	return g, true
}

// endsBare reports whether a ply ends with a bare capture mark "x".
func endsBare(p *grammar.Ply) bool {
	if p.Move == nil || p.Move.Info != "" || len(p.Move.Captures) == 0 {
		return false
	}
	return len(p.Move.Captures[len(p.Move.Captures)-1].Pieces) == 0
}

// csvInt reads a count between blanks: digits without a leading zero.
func csvInt(b []byte) (int, bool) {
	b = trimBlanks(b)
	if len(b) == 0 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(string(b))
	return v, err == nil
}

func trimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// ply returns the ply written as text at pos: participle parses each
// distinct text once; the tree is copied with its positions moved.
func (p *csvParser) ply(text string, at grammar.Position) (*grammar.Ply, bool) {
	tmpl, ok := p.memo[text]
	if !ok {
		parsed, err := grammar.ParsePly("", []byte(text))
		if err != nil {
			return nil, false
		}
		p.memo[text] = parsed
		tmpl = parsed
	}
	return p.place(tmpl, at), true
}

// place copies a ply parsed at the start of its own text to position at
// of the file. The copies come from slabs, so that a file's plies cost a
// few allocations in all.
func (p *csvParser) place(t *grammar.Ply, at grammar.Position) *grammar.Ply {
	if len(p.plies) == 0 {
		p.plies = make([]grammar.Ply, 512)
	}
	out := &p.plies[0]
	p.plies = p.plies[1:]
	*out = *t
	out.Pos = shiftPos(at, t.Pos)
	if t.Move == nil {
		return out
	}
	if len(p.moves) == 0 {
		p.moves = make([]grammar.Move, 512)
	}
	m := &p.moves[0]
	p.moves = p.moves[1:]
	*m = *t.Move
	m.Pos = shiftPos(at, t.Move.Pos)
	m.From, m.To = p.square(t.Move.From, at), p.square(t.Move.To, at)
	if len(t.Move.Captures) > 0 {
		m.Captures = make([]*grammar.Capture, len(t.Move.Captures))
		for i, c := range t.Move.Captures {
			nc := &grammar.Capture{Pos: shiftPos(at, c.Pos), Pieces: c.Pieces}
			if len(c.Pieces) > 0 {
				nc.Pieces = make([]*grammar.Captured, len(c.Pieces))
			}
			for j, pc := range c.Pieces {
				nc.Pieces[j] = &grammar.Captured{Pos: shiftPos(at, pc.Pos), King: pc.King, Square: p.square(pc.Square, at)}
			}
			m.Captures[i] = nc
		}
	}
	out.Move = m
	return out
}

func (p *csvParser) square(s *grammar.Square, at grammar.Position) *grammar.Square {
	if s == nil {
		return nil
	}
	if len(p.squares) == 0 {
		p.squares = make([]grammar.Square, 1024)
	}
	out := &p.squares[0]
	p.squares = p.squares[1:]
	*out = *s
	out.Pos = shiftPos(at, s.Pos)
	return out
}

// shiftPos moves a position within a one-line ply text (line 1, column 1
// at its start) to a text that starts at at.
func shiftPos(at, pos grammar.Position) grammar.Position {
	return grammar.Position{Filename: at.Filename, Offset: at.Offset + pos.Offset, Line: at.Line, Column: at.Column + pos.Column - 1}
}
