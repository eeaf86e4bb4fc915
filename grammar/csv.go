package grammar

import (
	"bytes"
	"fmt"

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
// The grammar (csvParser) is the definition: a file is valid when the
// grammar reads it, and its trees are the grammar's. An invalid file's
// error is the grammar's for the first line it cannot read (what the
// grammar says of the file up to and including that line), so the first
// mistake in reading order is the one reported.
//
// Reading a long file through the grammar costs microseconds a ply and
// hundreds of bytes of memory a byte, so ParseCSV splits each line itself,
// at its blanks and its first comma and the two after it, and reads the
// ply texts through a plyMemo (participle once per token shape). A line
// that is not of the plain form this splitting understands (a character
// outside printable ASCII, a ply the grammar rejects, a malformed count or
// outcome, anything after the outcome) goes to the grammar alone, with its
// line end, its positions then moved to where it stands. TestParseCSVSame
// and FuzzParseCSVSame check this against the grammar reading the whole
// file, positions and errors included (docs/performance.md). The trees of
// a file share a few large blocks of memory.
func ParseCSV(filename string, src []byte) (games []*CSVGame, err error) {
	defer guard(filename, &err)
	return splitCSV(filename, src)
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

// csvSplitter holds the state of one split parse: the file, where the
// next line starts, the ply memo, and slabs from which the trees are
// allocated, a few allocations for a whole file.
type csvSplitter struct {
	filename  string
	src       []byte
	off, line int // the next line's byte offset and 1-based number
	memo      *plyMemo
	place     plyPlacer
	games     slab[CSVGame]
	plies     []*Ply // the plies of the line being read
	// grammarLines counts the lines read with the grammar (tests).
	grammarLines int
}

func newCSVSplitter(filename string, src []byte) *csvSplitter {
	p := &csvSplitter{filename: filename, src: src, line: 1, memo: newPlyMemo()}
	p.place.filename = filename
	return p
}

// splitCSV parses src as ParseCSV does.
func splitCSV(filename string, src []byte) ([]*CSVGame, error) {
	p := newCSVSplitter(filename, src)
	// One block of nodes for the whole file: the garbage collector then
	// runs fewer cycles (each marking every tree read so far) than when the
	// trees grow a few kilobytes at a time; about a tenth of the time.
	if n := countPlies(src); n > 256 {
		p.place.blocks.chunk = make([]plyBlock, n)
		p.place.lists.chunk = make([]*Ply, n)
	}
	games := []*CSVGame{}
	for {
		g, err := p.next()
		switch {
		case err != nil:
			return nil, err
		case g == nil:
			return games, nil
		}
		games = append(games, g)
	}
}

// next parses the next line that is not blank, by splitting it or, when
// it is not of the plain form, with the grammar (grammarLine). It returns
// nil, nil at the end of the file.
func (p *csvSplitter) next() (*CSVGame, error) {
	src := p.src
	for p.off < len(src) {
		off, end := p.off, len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			end = off + i
		}
		text := src[off:end]
		if n := len(text); n > 0 && text[n-1] == '\r' && end < len(src) {
			text = text[:n-1] // CRLF; a lone CR is not a line end
		}
		line := p.line
		p.line++
		p.off = end + 1
		if len(text) > MaxRecordBytes {
			return nil, tooLongError(lexer.Position{Filename: p.filename, Offset: off, Line: line, Column: 1}, "line")
		}
		if blankLine(text) {
			continue
		}
		if g, ok := p.game(text, line, off); ok {
			return g, nil
		}
		p.grammarLines++
		return p.grammarLine(src[off:min(end+1, len(src))], line, off)
	}
	return nil, nil
}

// grammarLine parses raw, line number line of the file at byte offset off
// with its line end, with the grammar alone, and moves the tree's
// positions, or the error's, to where the line stands.
func (p *csvSplitter) grammarLine(raw []byte, line, off int) (*CSVGame, error) {
	games, err := parseCSVGrammar(p.filename, raw)
	if err != nil {
		e := err.(*Error) // parseCSVGrammar's errors are *Error
		e.Line += line - 1
		return nil, e
	}
	if len(games) != 1 {
		// A line that is not blank holds one game or fails.
		return nil, &Error{Filename: p.filename, Line: line, Col: 1, Message: fmt.Sprintf("internal error: %d games on one line", len(games))}
	}
	g := games[0]
	g.Line = line
	moveTo(&g.Pos, line, off)
	for _, pl := range g.Plies {
		moveTo(&pl.Pos, line, off)
		if m := pl.Move; m != nil {
			moveTo(&m.Pos, line, off)
			for _, sq := range []*Square{m.From, m.To} {
				if sq != nil {
					moveTo(&sq.Pos, line, off)
				}
			}
			for _, c := range m.Captures {
				moveTo(&c.Pos, line, off)
				for _, pc := range c.Pieces {
					moveTo(&pc.Pos, line, off)
					if pc.Square != nil {
						moveTo(&pc.Square.Pos, line, off)
					}
				}
			}
		}
	}
	return g, nil
}

// moveTo moves a position on line 1 of a line parsed alone to that line,
// number line at byte offset off of the file.
func moveTo(pos *lexer.Position, line, off int) {
	pos.Line += line - 1
	pos.Offset += off
}

// CSVScanner reads the games of a CSV file one at a time, for a program
// that looks at each game once (taflmail validate): the memory of a game's
// tree is used again for the next game, so what a long file costs grows
// with its distinct ply texts (the memo of ParseCSV), not with its plies
// (docs/performance.md). It gives the games ParseCSV gives, in the same
// order, with the same positions, and ends with ParseCSV's error, after
// the games of the lines before it. A CSVScanner is not safe for
// concurrent use.
type CSVScanner struct {
	split *csvSplitter
	game  *CSVGame
	err   error
}

// NewCSVScanner returns a scanner of src; filename is used in positions.
func NewCSVScanner(filename string, src []byte) *CSVScanner {
	return &CSVScanner{split: newCSVSplitter(filename, src)}
}

// Scan reads the next game, which Game then returns. It returns false at
// the end of the file or on a syntax error (Err says which). It reuses the
// nodes of the game returned before: that tree must no longer be used.
func (s *CSVScanner) Scan() bool {
	s.game = nil
	if s.err != nil {
		return false
	}
	s.game, s.err = s.scan()
	return s.game != nil
}

// scan reads the next line with the splitter, reusing its slabs; a panic
// becomes the error, as in ParseCSV.
func (s *CSVScanner) scan() (g *CSVGame, err error) {
	defer guard(s.split.filename, &err)
	s.split.reset()
	return s.split.next()
}

// Game returns the game the last Scan read, or nil. Its tree is valid until
// the next call of Scan.
func (s *CSVScanner) Game() *CSVGame { return s.game }

// Err returns the syntax error that ended the scan (an *Error), or nil at
// the end of the file.
func (s *CSVScanner) Err() error { return s.err }

// reset hands out the slabs' memory again from the front: the trees made
// before must no longer be used.
func (p *csvSplitter) reset() {
	p.games.reset()
	p.place.reset()
}

// reset hands out the placer's memory again from the front (slab.reset:
// ply writes every field of the nodes it takes).
func (p *plyPlacer) reset() {
	p.blocks.reset()
	p.captures.reset()
	p.capPtrs.reset()
	p.pieces.reset()
	p.piecePtrs.reset()
	p.squares.reset()
	p.lists.reset()
}

// countPlies counts the texts a split parse of src reads as plies: the runs
// of ply characters before the first comma of each line.
func countPlies(src []byte) int {
	n, inPly, seenComma := 0, false, false
	for _, c := range src {
		switch csvClass[c] {
		case csvPly:
			if !inPly && !seenComma {
				n++
			}
			inPly = true
			continue
		case csvComma:
			seenComma = true
		default:
			if c == '\n' {
				seenComma = false
			}
		}
		inPly = false
	}
	return n
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

// csvClass sorts the bytes of a CSV line: ply characters (printable ASCII
// but blanks and commas), blanks, commas, and bytes the splitting leaves
// to the grammar (control characters, non-ASCII).
var csvClass = func() (c [256]uint8) {
	for b := range c {
		switch {
		case b == ' ' || b == '\t':
			c[b] = csvBlank
		case b == ',':
			c[b] = csvComma
		case b < ' ' || b > '~':
			c[b] = csvOther
		}
	}
	return c
}()

const (
	csvPly   = iota // a character of a ply
	csvBlank        // blank or tab
	csvComma
	csvOther
)

// game parses one line, which starts at byte offset off of the file.
func (p *csvSplitter) game(text []byte, line, off int) (*CSVGame, bool) {
	// Plies, separated by blanks, up to the first comma (they hold none).
	p.plies = p.plies[:0]
	i := 0
	for i < len(text) {
		switch csvClass[text[i]] {
		case csvBlank:
			i++
			continue
		case csvComma:
		case csvOther:
			return nil, false
		default:
			j := i + 1
			for j < len(text) && csvClass[text[j]] == csvPly {
				j++
			}
			t, ok := p.memo.ply(text[i:j])
			if !ok {
				return nil, false
			}
			p.plies = append(p.plies, p.place.ply(t, off+i, line, i+1))
			i = j
			continue
		}
		break
	}
	// Then two counts and the outcome: exactly two more commas.
	var commas [3]int
	n := 0
	for k := i; k < len(text); k++ {
		switch csvClass[text[k]] {
		case csvOther:
			return nil, false
		case csvComma:
			if n == 3 {
				return nil, false
			}
			commas[n] = k
			n++
		}
	}
	if n != 3 {
		return nil, false
	}
	g := p.games.one() // every field is set below (slab.reset)
	g.Line = line
	if len(p.plies) > 0 {
		g.Plies = p.place.list(p.plies)
		place(&g.Pos, g.Plies[0].Pos, p.filename, 0, line, 0)
	} else {
		g.Plies = nil
		place(&g.Pos, lexer.Position{Offset: off + i, Column: i + 1}, p.filename, 0, line, 0)
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
// where they stand in a file. The copies come from slabs, a few
// allocations for a whole file; a slab is used from the front by index, so
// that taking a node writes no pointer.
type plyPlacer struct {
	filename  string
	blocks    slab[plyBlock]
	captures  slab[Capture]
	capPtrs   slab[*Capture]
	pieces    slab[Captured]
	piecePtrs slab[*Captured]
	squares   slab[Square]
	lists     slab[*Ply]
}

// plyBlock holds the nodes of a ply with a move.
type plyBlock struct {
	ply      Ply
	move     Move
	from, to Square
}

// slab hands out elements of a chunk, allocating the next chunk when it
// runs short.
type slab[T any] struct {
	chunk   []T
	next    int
	spilled bool // a chunk ran short since the last reset (not the first)
}

// take returns n elements. The result's capacity is n, so that appending
// to it never writes into the rest of the chunk.
func (s *slab[T]) take(n int) []T {
	if s.next+n > len(s.chunk) {
		s.spill(n)
	}
	out := s.chunk[s.next : s.next+n : s.next+n]
	s.next += n
	return out
}

// one returns one element.
func (s *slab[T]) one() *T {
	if s.next == len(s.chunk) {
		s.spill(1)
	}
	s.next++
	return &s.chunk[s.next-1]
}

// spill starts a new chunk with room for at least n elements.
func (s *slab[T]) spill(n int) {
	s.spilled = s.spilled || len(s.chunk) > 0
	s.chunk, s.next = make([]T, max(n, 256)), 0
}

// reset hands out the chunk again from the front, as it is: the trees
// made from it before must no longer be used, and whoever takes an element
// must set every field of it (plyPlacer.ply, csvSplitter.game). A chunk
// that ran short is replaced by one twice its size, so that a slab reset
// for every game soon allocates nothing.
func (s *slab[T]) reset() {
	if s.spilled {
		s.chunk, s.spilled = make([]T, 2*len(s.chunk)), false
	}
	s.next = 0
}

// clearReset is reset for slabs whose takers leave zero fields alone: the
// elements handed out before are zeroed first.
func (s *slab[T]) clearReset() {
	clear(s.chunk[:s.next])
	s.reset()
}

// ply returns a copy of t placed at byte offset off of the file, on line
// line at column col.
//
// It writes only the fields that differ from what the nodes hold: they are
// either new (zero), or those of a ply of the game before (CSVScanner),
// mostly with the same file name and the same pointers between them.
// While the garbage collector marks, every pointer written goes through a
// write barrier, and assigning a whole struct that holds one (a
// lexer.Position holds its file name) through a bulk barrier, which cost
// more than the rest of the copy (docs/performance.md).
func (p *plyPlacer) ply(t *Ply, off, line, col int) *Ply {
	b := p.blocks.one()
	fn, col := p.filename, col-1
	place(&b.ply.Pos, t.Pos, fn, off, line, col)
	b.ply.Resign, b.ply.Timeout = t.Resign, t.Timeout
	m := t.Move
	if m == nil {
		setPtr(&b.ply.Move, nil)
		return &b.ply
	}
	setPtr(&b.ply.Move, &b.move)
	place(&b.move.Pos, m.Pos, fn, off, line, col)
	b.move.King = m.King
	if b.move.Info != m.Info {
		b.move.Info = m.Info
	}
	setPtr(&b.move.From, placeSquare(&b.from, m.From, fn, off, line, col))
	setPtr(&b.move.To, placeSquare(&b.to, m.To, fn, off, line, col))
	if len(m.Captures) > 0 {
		b.move.Captures = p.placeCaptures(m.Captures, off, line, col)
	} else if b.move.Captures != nil {
		b.move.Captures = nil
	}
	return &b.ply
}

// setPtr sets *dst to v unless it holds v already (no write barrier).
func setPtr[T any](dst **T, v *T) {
	if *dst != v {
		*dst = v
	}
}

// placeSquare copies sq, placed as by ply, to dst and returns dst; nil
// when sq is nil.
func placeSquare(dst, sq *Square, fn string, off, line, col int) *Square {
	if sq == nil {
		return nil
	}
	place(&dst.Pos, sq.Pos, fn, off, line, col)
	dst.File, dst.Rank = sq.File, sq.Rank
	return dst
}

// place sets *dst to pos moved to byte offset off of file fn, on line
// line, col columns to the right; the file name only when it differs.
func place(dst *lexer.Position, pos lexer.Position, fn string, off, line, col int) {
	if dst.Filename != fn {
		dst.Filename = fn
	}
	dst.Offset, dst.Line, dst.Column = off+pos.Offset, line, col+pos.Column
}

// placeCaptures copies the capture marks of a move placed as by ply; col is
// the placed text's column less one.
func (p *plyPlacer) placeCaptures(cs []*Capture, off, line, col int) []*Capture {
	fn := p.filename
	out := p.capPtrs.take(len(cs))
	caps := p.captures.take(len(cs))
	for i, c := range cs {
		nc := &caps[i]
		place(&nc.Pos, c.Pos, fn, off, line, col)
		if len(c.Pieces) > 0 {
			nc.Pieces = p.piecePtrs.take(len(c.Pieces))
			pieces := p.pieces.take(len(c.Pieces))
			for j, pc := range c.Pieces {
				np := &pieces[j]
				place(&np.Pos, pc.Pos, fn, off, line, col)
				np.King = pc.King
				var ns *Square
				if pc.Square != nil {
					ns = placeSquare(p.squares.one(), pc.Square, fn, off, line, col)
				}
				setPtr(&np.Square, ns)
				setPtr(&nc.Pieces[j], np)
			}
		} else if nc.Pieces != nil {
			nc.Pieces = nil
		}
		setPtr(&out[i], nc)
	}
	return out
}

// list returns a copy of ps.
func (p *plyPlacer) list(ps []*Ply) []*Ply {
	out := p.lists.take(len(ps))
	for i, q := range ps {
		setPtr(&out[i], q)
	}
	return out
}
