package grammar

import (
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// recordSplitter reads a native record file of the plain form that
// WriteRecord and the archive write, without participle for anything but
// ply shapes (see ParseRecords):
//
//   - tag pairs written [Name "value"], one blank between name and value;
//   - {comments} anywhere the grammar allows them;
//   - move numbers "12." followed by two plies, or "12..." by one, each
//     number and ply a run of non-blank characters of its own;
//   - a result token, "attackers", "defenders", "draw" or "*".
//
// Every node gets the position the grammar gives it: byte offset, line,
// and column in runes. Anything else (a number with a leading zero, a ply
// glued to a comment, a tag written with more blanks, text the splitter
// does not expect where it stands) makes it give up, and the file goes to
// the grammar. The nodes come from slabs, a few allocations for a file.
type recordSplitter struct {
	filename string
	src      []byte
	text     string // src as a string, which the tag values and comments share
	memo     *plyMemo
	place    plyPlacer

	// The position of the next byte to read.
	off, line, col int
	// start is where the record next read starts (next sets it), from
	// which grammarWindow reads one the splitter does not understand.
	start lexer.Position

	records  slab[Record]
	tags     slab[Tag]
	tagPtrs  slab[*Tag]
	comments slab[Comment]
	comPtrs  slab[*Comment]
	turns    slab[Turn]
	turnPtrs slab[*Turn]
	annots   slab[AnnotatedPly]
	results  slab[Result]

	// Scratch lists of the record being read.
	tagList  []*Tag
	comList  []*Comment
	turnList []*Turn
}

// newRecordSplitter returns a splitter at the start of src.
func newRecordSplitter(filename string, src []byte) *recordSplitter {
	p := &recordSplitter{filename: filename, src: src, text: string(src), memo: newPlyMemo(), line: 1, col: 1}
	p.place.filename = filename
	return p
}

// splitRecords parses src as ParseRecords does: the records of the plain
// form (see recordSplitter) with the splitter, the others, and an error,
// with the grammar, a record's window at a time (grammarWindow; windows
// counts them). A file that is not clean text goes to the grammar whole,
// which reports it.
func splitRecords(filename string, src []byte) (recs []*Record, windows int, err error) {
	if checkText(filename, src) != nil {
		recs, err := parseRecordsGrammar(filename, src)
		return recs, 1, err
	}
	p := newRecordSplitter(filename, src)
	// One block of nodes for all plies and turns of the file, as in
	// splitCSV: fewer collector cycles than growing a slab at a time.
	if plies, turns := countRecordWords(src); plies > 256 {
		p.place.blocks.chunk = make([]plyBlock, plies)
		p.annots.chunk = make([]AnnotatedPly, plies)
		p.turns.chunk = make([]Turn, turns)
	}
	recs = []*Record{}
	for {
		r, ok := p.next()
		switch {
		case !ok:
			rs, end, err, checked := grammarWindow(filename, src, p.text, p.start, true)
			windows++
			if checked {
				err = p.laterSyntaxError(err, end)
			}
			if err != nil {
				return nil, windows, err
			}
			recs = append(recs, rs...)
			p.resume(end)
		case r == nil:
			return recs, windows, nil
		default:
			recs = append(recs, r)
		}
	}
}

// resume moves the splitter to byte offset end, where the records the
// grammar read from p.start end.
func (p *recordSplitter) resume(end int) {
	p.off, p.line, p.col = p.start.Offset, p.start.Line, p.start.Column
	p.advance(end)
}

// next reads the next record; nil, true at the end of the file, and false
// when the file is not of the plain form there or the grammar would
// reject the record.
func (p *recordSplitter) next() (*Record, bool) {
	p.skipBlanks()
	if p.off == len(p.src) {
		return nil, true
	}
	p.start = p.pos()
	r, ok := p.record()
	if !ok || checkRecord(r, p.src) != nil {
		return nil, false // the grammar gives the error
	}
	return r, true
}

// reset hands out the slabs' memory again from the front: the records
// made before must no longer be used. The ply nodes are written whole by
// plyPlacer.ply; the record's own nodes are cleared, as the splitter
// leaves fields it does not read zero.
func (p *recordSplitter) reset() {
	p.records.clearReset()
	p.tags.clearReset()
	p.tagPtrs.clearReset()
	p.comments.clearReset()
	p.comPtrs.clearReset()
	p.turns.clearReset()
	p.turnPtrs.clearReset()
	p.annots.clearReset()
	p.results.clearReset()
	p.place.reset()
}

// RecordScanner reads the records of a native file one at a time, for a
// program that looks at each once (taflmail validate), as CSVScanner
// reads a CSV file: the memory of a record's tree is used again for the
// next. It gives the records ParseRecords gives, in the same order, with
// the same positions, and ends with the same error. A record the
// splitter does not understand (see recordSplitter) goes to the grammar
// in a window of its own (grammarWindow), and the scan goes on with the
// splitter after it, or ends with the grammar's error after the records
// returned before: what the scan holds is a record, or a window, not the
// file. A file that is not clean text goes to the grammar whole. A
// RecordScanner is not safe for concurrent use.
type RecordScanner struct {
	split *recordSplitter
	rec   *Record
	err   error
	// whole is set for a file that is not clean text, which the grammar
	// reads whole (loaded once it has); rest holds the grammar's records
	// not yet returned, of that file or of the last window.
	whole, loaded bool
	rest          []*Record
}

// NewRecordScanner returns a scanner of src; filename is used in
// positions.
func NewRecordScanner(filename string, src []byte) *RecordScanner {
	// A file that is not clean text goes to the grammar, which reports
	// it, as in splitRecords.
	return &RecordScanner{split: newRecordSplitter(filename, src), whole: checkText(filename, src) != nil}
}

// Scan reads the next record, which Record then returns. It returns false
// at the end of the file or on a syntax error (Err says which). It reuses
// the nodes of the record returned before: that tree must no longer be
// used.
func (s *RecordScanner) Scan() bool {
	s.rec = nil
	if s.err != nil {
		return false
	}
	if s.whole && !s.loaded {
		s.loaded = true
		if s.rest, s.err = parseRecordsGrammar(s.split.filename, s.split.src); s.err != nil {
			return false
		}
	}
	for len(s.rest) == 0 {
		if s.whole {
			return false
		}
		r, ok := s.splitNext()
		if s.err != nil {
			return false
		}
		if ok {
			s.rec = r
			return r != nil
		}
		start := s.split.start.Offset
		rs, end, gerr, checked := grammarWindow(s.split.filename, s.split.src, s.split.text, s.split.start, true)
		if checked {
			gerr = s.split.laterSyntaxError(gerr, end)
		}
		var err error
		if gerr != nil {
			err = gerr
		}
		if err == nil && len(rs) == 0 && end <= start {
			err = &Error{Filename: s.split.filename, Line: s.split.start.Line, Col: s.split.start.Column, Message: "internal error: the grammar read nothing"}
		}
		if err != nil {
			s.err = err
			return false
		}
		s.rest = rs
		s.split.resume(end)
	}
	s.rec, s.rest = s.rest[0], s.rest[1:]
	return true
}

// splitNext reads the next record with the splitter, reusing its slabs; a
// panic becomes Err, as in ParseRecords.
func (s *RecordScanner) splitNext() (r *Record, ok bool) {
	defer func() {
		if s.err != nil {
			r, ok = nil, false
		}
	}()
	defer guard(s.split.filename, &s.err)
	s.split.reset()
	return s.split.next()
}

// Record returns the record the last Scan read, or nil. Its tree is valid
// until the next call of Scan.
func (s *RecordScanner) Record() *Record { return s.rec }

// Err returns the syntax error that ended the scan (an *Error), or nil at
// the end of the file.
func (s *RecordScanner) Err() error { return s.err }

// pos returns the position of the next byte.
func (p *recordSplitter) pos() lexer.Position {
	return lexer.Position{Filename: p.filename, Offset: p.off, Line: p.line, Column: p.col}
}

// advance moves the position to byte offset end, counting lines and runes
// as lexer.Position.Advance does (the source is valid UTF-8).
func (p *recordSplitter) advance(end int) {
	for ; p.off < end; p.off++ {
		switch c := p.src[p.off]; {
		case c == '\n':
			p.line, p.col = p.line+1, 1
		case c < utf8.RuneSelf || c >= 0xc0:
			p.col++ // an ASCII character or the first byte of a rune
		}
	}
}

// skipBlanks skips white space, which the grammar drops.
func (p *recordSplitter) skipBlanks() {
	end := p.off
	for end < len(p.src) && isBlank(p.src[end]) {
		end++
	}
	p.advance(end)
}

// word returns the end of the run of non-blank characters at the position.
func (p *recordSplitter) word() int {
	end := p.off
	for end < len(p.src) && !isBlank(p.src[end]) {
		end++
	}
	return end
}

// record reads one record: tags, comments, turns and the result.
func (p *recordSplitter) record() (*Record, bool) {
	r := p.records.one()
	r.Pos = p.pos()
	p.tagList = p.tagList[:0]
	for p.off < len(p.src) && p.src[p.off] == '[' {
		if p.off-p.start.Offset > MaxRecordBytes {
			return nil, false // grammarWindow refuses it
		}
		t, ok := p.tag()
		if !ok {
			return nil, false
		}
		p.tagList = append(p.tagList, t)
		p.skipBlanks()
	}
	r.Tags = listOf(&p.tagPtrs, p.tagList)
	r.Comments = p.commentList()
	p.turnList = p.turnList[:0]
	for p.off < len(p.src) && p.src[p.off] >= '0' && p.src[p.off] <= '9' {
		if p.off-p.start.Offset > MaxRecordBytes {
			return nil, false // grammarWindow refuses it
		}
		t, ok := p.turn()
		if !ok {
			return nil, false
		}
		p.turnList = append(p.turnList, t)
	}
	r.Turns = listOf(&p.turnPtrs, p.turnList)
	res, ok := p.result()
	if !ok {
		return nil, false
	}
	r.Result = res
	return r, true
}

// listOf returns a copy of list from s, or nil for an empty list (as the
// grammar leaves it).
func listOf[T any](s *slab[*T], list []*T) []*T {
	if len(list) == 0 {
		return nil
	}
	out := s.take(len(list))
	copy(out, list)
	return out
}

// tag reads [Name "value"] at the position.
func (p *recordSplitter) tag() (*Tag, bool) {
	src := p.src
	i := p.off + 1
	nameStart := i
	if i >= len(src) || !isLetter(src[i]) {
		return nil, false
	}
	for i < len(src) && (isLetter(src[i]) || src[i] >= '0' && src[i] <= '9' || src[i] == '_') {
		i++
	}
	nameEnd := i
	if i+1 >= len(src) || src[i] != ' ' || src[i+1] != '"' {
		return nil, false
	}
	valueStart := i + 1
	for i += 2; ; i++ {
		if i >= len(src) {
			return nil, false
		}
		c := src[i]
		if c == '"' {
			break
		}
		if c == '\r' || c == '\n' {
			return nil, false
		}
		if c == '\\' {
			if i+1 >= len(src) || src[i+1] != '"' && src[i+1] != '\\' {
				return nil, false
			}
			i++
		}
	}
	valueEnd := i + 1
	if valueEnd >= len(src) || src[valueEnd] != ']' {
		return nil, false
	}
	t := p.tags.one()
	t.Pos = p.pos()
	t.Name = p.text[nameStart:nameEnd]
	t.Value = unquoteTagValue(p.text[valueStart:valueEnd])
	p.advance(valueEnd + 1)
	return t, true
}

// commentList reads the comments at the position and the blanks after
// each; nil when there are none.
func (p *recordSplitter) commentList() []*Comment {
	p.comList = p.comList[:0]
	for p.off < len(p.src) && p.src[p.off] == '{' {
		end := p.off + 1
		for end < len(p.src) && p.src[end] != '}' {
			end++
		}
		if end == len(p.src) {
			break // unclosed: the grammar reports it
		}
		c := p.comments.one()
		c.Pos = p.pos()
		c.Text = p.text[p.off+1 : end]
		p.advance(end + 1)
		p.comList = append(p.comList, c)
		p.skipBlanks()
	}
	return listOf(&p.comPtrs, p.comList)
}

// turn reads a move number with its plies and their comments.
func (p *recordSplitter) turn() (*Turn, bool) {
	src := p.src
	start := p.off
	end := start
	n := 0
	for end < len(src) && src[end] >= '0' && src[end] <= '9' {
		n = n*10 + int(src[end]-'0')
		end++
	}
	digits := end - start
	if digits > 9 || digits > 1 && src[start] == '0' {
		return nil, false // a leading zero or a large number: the grammar's
	}
	dots := end
	for dots < len(src) && src[dots] == '.' {
		dots++
	}
	if dots < len(src) && !isBlank(src[dots]) {
		return nil, false
	}
	t := p.turns.one()
	t.Pos = p.pos()
	t.Number = n
	switch dots - end {
	case 1:
		p.advance(dots)
		p.skipBlanks()
		a, ok := p.annotatedPly()
		if !ok {
			return nil, false
		}
		t.First = a
		if p.plyAhead() {
			if t.Second, ok = p.annotatedPly(); !ok {
				return nil, false
			}
		}
	case 3:
		p.advance(dots)
		p.skipBlanks()
		a, ok := p.annotatedPly()
		if !ok {
			return nil, false
		}
		t.Second = a
	default:
		return nil, false
	}
	return t, true
}

// plyAhead reports whether the text at the position is to be read as a
// ply: neither a move number, a comment, a tag, a result nor the end.
func (p *recordSplitter) plyAhead() bool {
	if p.off == len(p.src) {
		return false
	}
	switch c := p.src[p.off]; {
	case c >= '0' && c <= '9', c == '{', c == '[', c == '*':
		return false
	}
	_, isResult := parseOutcome(p.text[p.off:p.word()])
	return !isResult
}

// annotatedPly reads a ply and the comments after it.
func (p *recordSplitter) annotatedPly() (*AnnotatedPly, bool) {
	end := p.word()
	text := p.src[p.off:end]
	if len(text) == 0 || text[0] == 'x' || text[0] == 'X' {
		// A capture mark after a blank: the grammar might join it to
		// the ply before (checkContiguous then rejects it).
		return nil, false
	}
	if _, isResult := parseOutcome(string(text)); isResult {
		return nil, false
	}
	tree, ok := p.memo.ply(text)
	if !ok {
		return nil, false
	}
	a := p.annots.one()
	a.Ply = p.place.ply(tree, p.off, p.line, p.col)
	a.Pos = a.Ply.Pos
	p.advance(end)
	p.skipBlanks()
	a.Comments = p.commentList()
	return a, true
}

// result reads the result token that ends a record, and the blanks after
// it.
func (p *recordSplitter) result() (*Result, bool) {
	end := p.word()
	o, ok := parseOutcome(p.text[p.off:end])
	if !ok {
		return nil, false
	}
	r := p.results.one()
	r.Pos = p.pos()
	r.Outcome = o
	p.advance(end)
	p.skipBlanks()
	return r, true
}

// countRecordWords counts the runs of non-blank characters outside tags
// and comments that start with a letter or "-" (the plies, and a result
// word per record) and those that start with a digit (the move numbers),
// to size the splitter's blocks.
func countRecordWords(src []byte) (plies, numbers int) {
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case isBlank(c):
			i++
			continue
		case c == '[' || c == '{':
			close := byte(']')
			if c == '{' {
				close = '}'
			}
			for i < len(src) && src[i] != close {
				i++
			}
			continue
		case isLetter(c) || c == '-':
			plies++
		case c >= '0' && c <= '9':
			numbers++
		}
		for i < len(src) && !isBlank(src[i]) {
			i++
		}
	}
	return plies, numbers
}
