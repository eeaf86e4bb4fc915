package grammar

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// CSVGame is one line of the CSV exchange format of open-source tafl engines
// (shared/records/README.md):
//
//	<plies>,<attacker captures>,<defender captures>,<outcome>
//
// The plies are separated by blanks, attackers first; the last may be
// "timeout" (the side to move lost on time). A captured king is never marked
// and a doubled mark (e7-k7xk6xk6) is one capture; both are kept as written.
type CSVGame struct {
	Pos lexer.Position
	// Line is the game's 1-based line number in the file.
	Line  int
	Plies []*Ply `parser:"@@*"`
	// AttackerCaptures and DefenderCaptures are the numbers of pieces each
	// side captured, as the file says.
	AttackerCaptures int `parser:"',':Comma @Int"`
	DefenderCaptures int `parser:"',':Comma @Int"`
	// Outcome is as written: "Black" (attackers won), "White" (defenders
	// won), "Draw" or "Ongoing"; see Result.
	Outcome string `parser:"',':Comma @('Black':Word | 'White':Word | 'Draw':Word | 'Ongoing':Word)"`
}

// Result returns the game's outcome: Black is AttackersWin, White is
// DefendersWin, Draw is Draw and Ongoing is Unfinished. Many wins in the
// corpus are resignations or time-outs rather than rule events.
func (g *CSVGame) Result() Outcome {
	switch g.Outcome {
	case "Black":
		return AttackersWin
	case "White":
		return DefendersWin
	case "Draw":
		return Draw
	}
	return Unfinished
}

type csvFile struct {
	Games []*CSVGame `parser:"Newline* ( @@ ( Newline+ | EOF ) )*"`
}

var csvParser = participle.MustBuild[csvFile](
	participle.Lexer(csvLexerGen),
	participle.CaseInsensitive("Letter"),
	participle.UseLookahead(0),
)

// ParseCSV parses a CSV file of games, one game per line. Blank lines are
// skipped; line ends may be LF or CRLF. filename is used in error positions
// only. Errors are *Error.
//
// The grammar (csvParser) is the definition, but reading a long file
// through it costs about 17 µs a ply, so ParseCSV first splits each line
// itself, at its blanks and its last three commas, and reads the ply texts
// through a plyMemo (participle once per token shape). Whenever a line is
// not of the plain form this splitting understands (a character outside
// printable ASCII, a ply the grammar rejects, a malformed count or outcome,
// anything after the outcome), the whole file goes to the grammar, so every
// error, and every input the shortcut might read differently, is the
// grammar's. TestParseCSVSame and FuzzParseCSVSame check that both give
// the same trees, positions included (docs/performance.md).
func ParseCSV(filename string, src []byte) (games []*CSVGame, err error) {
	if games, ok := splitCSV(filename, src); ok {
		return games, nil
	}
	return parseCSVGrammar(filename, src)
}

// parseCSVGrammar parses a CSV file with the grammar alone.
func parseCSVGrammar(filename string, src []byte) (games []*CSVGame, err error) {
	defer guard(filename, &err)
	if e := checkText(filename, src); e != nil {
		return nil, e
	}
	f, err := csvParser.ParseBytes(filename, src)
	if err != nil {
		return nil, convertError(err, filename, src, "")
	}
	for _, g := range f.Games {
		g.Line = g.Pos.Line
		if err := checkPlies(src, g.Plies...); err != nil {
			return nil, convertError(err, filename, src, "")
		}
	}
	if f.Games == nil {
		return []*CSVGame{}, nil
	}
	return f.Games, nil
}

// csvSplitter holds the state of one split parse: the ply memo, and slabs
// from which the trees are allocated, a few allocations for a whole file.
type csvSplitter struct {
	filename string
	memo     *plyMemo
	place    plyPlacer
	games    []CSVGame
	plies    []*Ply // the plies of the line being read
}

// splitCSV parses src by splitting lines, or reports false when a line is
// not of the plain form (see ParseCSV).
func splitCSV(filename string, src []byte) ([]*CSVGame, bool) {
	p := &csvSplitter{filename: filename, memo: newPlyMemo()}
	p.place.filename = filename
	games := []*CSVGame{}
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
func (p *csvSplitter) game(text []byte, line, off int) (*CSVGame, bool) {
	// The last three commas separate the plies, the two counts and the
	// outcome; plies hold no commas.
	var commas [3]int
	n := 0
	for i, c := range text {
		switch {
		case c < ' ' && c != '\t' || c > '~':
			return nil, false
		case c == ',':
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
	if len(p.games) == 0 {
		p.games = make([]CSVGame, 64)
	}
	g := &p.games[0]
	p.games = p.games[1:]
	g.Line = line
	pos := func(col int) lexer.Position {
		return lexer.Position{Filename: p.filename, Offset: off + col, Line: line, Column: col + 1}
	}
	// Plies: texts separated by blanks.
	p.plies = p.plies[:0]
	for i := 0; i < commas[0]; {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < commas[0] && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		t, ok := p.memo.ply(text[i:j])
		if !ok {
			return nil, false
		}
		p.plies = append(p.plies, p.place.ply(t, off+i, line, i+1))
		i = j
	}
	if len(p.plies) > 0 {
		g.Plies = p.place.list(p.plies)
		g.Pos = g.Plies[0].Pos
	} else {
		g.Pos = pos(commas[0])
	}
	var ok bool
	if g.AttackerCaptures, ok = csvInt(text[commas[0]+1 : commas[1]]); !ok {
		return nil, false
	}
	if g.DefenderCaptures, ok = csvInt(text[commas[1]+1 : commas[2]]); !ok {
		return nil, false
	}
	switch o := trimBlanks(text[commas[2]+1:]); string(o) {
	case "Black":
		g.Outcome = "Black"
	case "White":
		g.Outcome = "White"
	case "Draw":
		g.Outcome = "Draw"
	case "Ongoing":
		g.Outcome = "Ongoing"
	default:
		return nil, false
	}
	return g, true
}

// csvInt reads a count between blanks: digits without a leading zero, at
// most 18 of them (the grammar fails on a number too large for an int).
func csvInt(b []byte) (int, bool) {
	b = trimBlanks(b)
	if len(b) == 0 || len(b) > 18 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
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

// plyPlacer copies ply trees from a plyMemo, where they stand alone, to
// where they stand in a file. The copies come from slabs.
type plyPlacer struct {
	filename  string
	blocks    []plyBlock
	captures  []Capture
	capPtrs   []*Capture
	pieces    []Captured
	piecePtrs []*Captured
	squares   []Square
	lists     []*Ply
}

// plyBlock holds the nodes of a ply with a move.
type plyBlock struct {
	ply      Ply
	move     Move
	from, to Square
}

// take returns n elements from the front of a slab, refilling it when it
// runs short. The result's capacity is n, so that appending to it never
// writes into the rest of the slab.
func take[T any](slab *[]T, n int) []T {
	if len(*slab) < n {
		*slab = make([]T, max(n, 256))
	}
	s := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return s
}

// ply returns a copy of t placed at byte offset off of the file, on line
// line at column col.
func (p *plyPlacer) ply(t *Ply, off, line, col int) *Ply {
	at := func(pos lexer.Position) lexer.Position {
		return lexer.Position{Filename: p.filename, Offset: off + pos.Offset, Line: line, Column: col + pos.Column - 1}
	}
	b := &take(&p.blocks, 1)[0]
	b.ply = Ply{Pos: at(t.Pos), Resign: t.Resign, Timeout: t.Timeout}
	m := t.Move
	if m == nil {
		return &b.ply
	}
	b.move = Move{Pos: at(m.Pos), King: m.King, Info: m.Info}
	if m.From != nil {
		b.from = Square{Pos: at(m.From.Pos), File: m.From.File, Rank: m.From.Rank}
		b.move.From = &b.from
	}
	if m.To != nil {
		b.to = Square{Pos: at(m.To.Pos), File: m.To.File, Rank: m.To.Rank}
		b.move.To = &b.to
	}
	if len(m.Captures) > 0 {
		b.move.Captures = take(&p.capPtrs, len(m.Captures))
		caps := take(&p.captures, len(m.Captures))
		for i, c := range m.Captures {
			nc := &caps[i]
			nc.Pos = at(c.Pos)
			if len(c.Pieces) > 0 {
				nc.Pieces = take(&p.piecePtrs, len(c.Pieces))
				pieces := take(&p.pieces, len(c.Pieces))
				for j, pc := range c.Pieces {
					np := &pieces[j]
					np.Pos, np.King = at(pc.Pos), pc.King
					if pc.Square != nil {
						sq := &take(&p.squares, 1)[0]
						*sq = Square{Pos: at(pc.Square.Pos), File: pc.Square.File, Rank: pc.Square.Rank}
						np.Square = sq
					}
					nc.Pieces[j] = np
				}
			}
			b.move.Captures[i] = nc
		}
	}
	b.ply.Move = &b.move
	return &b.ply
}

// list returns a copy of ps.
func (p *plyPlacer) list(ps []*Ply) []*Ply {
	out := take(&p.lists, len(ps))
	copy(out, ps)
	return out
}
