package grammar

import (
	"encoding/binary"

	"github.com/alecthomas/participle/v2/lexer"
)

// plyMemo parses the ply texts of a long move list, such as a CSV file,
// where the same texts recur: copenhagen.csv has 44,294 plies but only
// 4,719 distinct texts, and the texts of both shared CSV files come in 14
// token shapes ("square - square", "square - square x square", …).
// participle stays the grammar, but is asked only once per shape:
//
//   - a text seen before gets the tree parsed for it then;
//   - a new text is lexed (with ParsePly's lexer) and its tokens reduced to
//     a shape: the token types, and the token values except those of
//     squares. A text whose shape was parsed before gets the tree of that
//     shape's first text with the squares and positions of its own tokens;
//   - only a new shape goes to participle (ParsePly).
//
// This gives the tree ParsePly gives, because the parse of a ply depends on
// its tokens only through their types and values, and on a square token's
// value only through Square.Parse, which every square token reaches (no
// other rule takes the Square type) and which does not decide which rule
// matches: it converts the value with parseSquare, which plyMemo calls
// too. TestPlyMemo and FuzzPlyMemo check this against ParsePly.
//
// The trees are positioned as if the text stood alone (offset 0, line 1,
// column 1, no file name); plyPlacer copies them to where they stand. A
// plyMemo is not safe for concurrent use.
type plyMemo struct {
	short  []shortText          // texts of up to 16 bytes: a hash table
	nshort int                  // entries in short
	texts  map[string]*Ply      // longer texts → tree; nil when ParsePly fails
	shapes map[string]*plyShape // token shape → the first tree of that shape
	lx     genLexer             // the lexer of ParsePly
	blocks slab[plyBlock]       // the nodes of the trees made from shapes
	toks   []lexer.Token        // scratch: the tokens of the text being parsed
	key    []byte               // scratch: its shape
	square lexer.TokenType      // the lexer's Square token type
}

// plyShape is the tree of the first text of a token shape, and for each
// position in it, in the order walkPly visits them, the index of the token
// that starts there (len(tokens) for the end of input).
type plyShape struct {
	tree *Ply
	at   []int
}

// shortText is an entry of plyMemo.short: a text packed into two words
// and its length (cheaper to hash and compare than a string), and its tree.
type shortText struct {
	k0, k1 uint64
	tree   *Ply
	n      uint8 // the text's length; 0 for a free entry
}

func newPlyMemo() *plyMemo { return newPlyMemoFor(512) }

// newPlyMemoFor returns a plyMemo sized for about n distinct texts.
func newPlyMemoFor(n int) *plyMemo {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &plyMemo{
		short:  make([]shortText, size),
		texts:  make(map[string]*Ply),
		shapes: make(map[string]*plyShape, min(n, 64)),
		square: moveLexerGen.Symbols()["Square"],
	}
}

// ParsePlies parses each of texts as ParsePly(filename, text) does and
// returns the trees in order, each positioned in its own text. The plies
// of a game come in a few token shapes, so participle is asked once per
// shape (see plyMemo) rather than once per ply. When a text does not
// parse, it returns the index of the first such text and ParsePly's
// *Error for it.
func ParsePlies(filename string, texts []string) (plies []*Ply, bad int, err error) {
	defer guard(filename, &err)
	m := newPlyMemoFor(len(texts))
	var place plyPlacer
	place.filename = filename
	place.blocks.chunk = make([]plyBlock, len(texts))
	plies = make([]*Ply, len(texts))
	for i, text := range texts {
		var t *Ply
		if plainText(text) {
			t, _ = m.ply([]byte(text))
		}
		if t == nil {
			// Not plain (white space around it: the memo's trees are on
			// line 1), or not a ply: ParsePly's tree or error.
			p, err := ParsePly(filename, []byte(text))
			if err != nil {
				return nil, i, err
			}
			plies[i] = p
			continue
		}
		plies[i] = place.ply(t, 0, 1, 1)
	}
	return plies, 0, nil
}

// ply returns the tree of text as ParsePly("", text) returns it, or false
// when ParsePly fails. The tree is shared: the caller must not change it.
func (m *plyMemo) ply(text []byte) (*Ply, bool) {
	if n := len(text); n > 0 && n <= 16 {
		var b [16]byte
		copy(b[:], text)
		k0, k1 := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
		mask := len(m.short) - 1
		i := int((k0*0x9e3779b97f4a7c15^k1*0xc2b2ae3d27d4eb4f)>>32) & mask
		for ; m.short[i].n != 0; i = (i + 1) & mask {
			if e := &m.short[i]; e.k0 == k0 && e.k1 == k1 && int(e.n) == n {
				return e.tree, e.tree != nil
			}
		}
		t := m.parse(text)
		m.short[i] = shortText{k0: k0, k1: k1, n: uint8(n), tree: t}
		if m.nshort++; 4*m.nshort > 3*len(m.short) {
			m.growShort()
		}
		return t, t != nil
	}
	if t, ok := m.texts[string(text)]; ok {
		return t, t != nil
	}
	t := m.parse(text)
	m.texts[string(text)] = t
	return t, t != nil
}

// growShort doubles the hash table of short texts.
func (m *plyMemo) growShort() {
	old := m.short
	m.short = make([]shortText, 2*len(old))
	mask := len(m.short) - 1
	for _, e := range old {
		if e.n == 0 {
			continue
		}
		i := int((e.k0*0x9e3779b97f4a7c15^e.k1*0xc2b2ae3d27d4eb4f)>>32) & mask
		for m.short[i].n != 0 {
			i = (i + 1) & mask
		}
		m.short[i] = e
	}
}

// parse parses a text not seen before.
func (m *plyMemo) parse(text []byte) *Ply {
	s := string(text)
	if !plainText(s) {
		// White space or a character outside printable ASCII: positions
		// would not be one column per byte; leave it to the grammar.
		p, err := ParsePly("", text)
		if err != nil {
			return nil
		}
		return p
	}
	if !m.lex(s) {
		return nil // ParsePly reports the same lexer error
	}
	m.key = m.key[:0]
	for _, t := range m.toks {
		m.key = append(m.key, byte(-t.Type))
		if t.Type != m.square {
			m.key = append(m.key, t.Value...)
			m.key = append(m.key, 0)
		}
	}
	if sh, ok := m.shapes[string(m.key)]; ok {
		return sh.instantiate(m.toks, len(s), &m.blocks)
	}
	p, err := ParsePly("", text)
	if err != nil {
		return nil
	}
	if sh := newPlyShape(p, m.toks, len(s), m.square); sh != nil {
		m.shapes[string(m.key)] = sh
	}
	return p
}

// plainText reports whether s is one or more printable ASCII characters
// other than the blank.
func plainText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// lex reads the tokens of s into m.toks, the end-of-input token left out.
// It reports false on a lexer error.
func (m *plyMemo) lex(s string) bool {
	m.lx.reset(moveLexerGen, "", s)
	m.toks = m.toks[:0]
	for {
		t, err := m.lx.Next()
		if err != nil {
			return false
		}
		if t.EOF() {
			return true
		}
		m.toks = append(m.toks, t)
	}
}

// newPlyShape returns the shape of tree p, parsed from a text of length
// end with tokens toks, or nil when a node's position is not the start of
// a token or the end of input, or a square's is not that of a token of
// type square (so that the tree could not be moved onto another text's
// tokens).
func newPlyShape(p *Ply, toks []lexer.Token, end int, square lexer.TokenType) *plyShape {
	sh := &plyShape{tree: p}
	ok := true
	walkPly(p, func(pos lexer.Position, sq *Square) {
		k := -1
		for i, t := range toks {
			if t.Pos.Offset == pos.Offset {
				k = i
				break
			}
		}
		if k < 0 && pos.Offset == end {
			k = len(toks)
		}
		if k < 0 || sq != nil && (k == len(toks) || toks[k].Type != square) {
			ok = false
		}
		sh.at = append(sh.at, k)
	})
	if !ok {
		return nil
	}
	return sh
}

// instantiate returns the shape's tree moved onto toks, the tokens of a
// text of length end with the same shape, or nil when one of its squares is
// off the notation's board (then ParsePly fails too). The nodes of the ply
// and its move come from blocks. It visits the nodes in walkPly's order.
func (sh *plyShape) instantiate(toks []lexer.Token, end int, blocks *slab[plyBlock]) *Ply {
	next := 0
	at := func(dst *lexer.Position) {
		k := sh.at[next]
		next++
		if k < len(toks) {
			p := &toks[k].Pos
			dst.Offset, dst.Line, dst.Column = p.Offset, p.Line, p.Column
		} else {
			dst.Offset, dst.Line, dst.Column = end, 1, end+1
		}
	}
	ok := true
	square := func(s *Square, dst *Square) *Square {
		if s == nil {
			return nil
		}
		t := &toks[sh.at[next]]
		next++
		sq, err := parseSquare(t.Pos, t.Value)
		if err != nil {
			ok = false
		}
		if dst == nil {
			dst = new(Square)
		}
		dst.Pos.Offset, dst.Pos.Line, dst.Pos.Column = sq.Pos.Offset, sq.Pos.Line, sq.Pos.Column
		dst.File, dst.Rank = sq.File, sq.Rank
		return dst
	}
	// Field by field, as plyPlacer.ply does; the file name stays empty.
	t := sh.tree
	b := blocks.one()
	at(&b.ply.Pos)
	b.ply.Resign, b.ply.Timeout = t.Resign, t.Timeout
	if m := t.Move; m != nil {
		at(&b.move.Pos)
		b.move.King = m.King
		if m.Info != "" {
			b.move.Info = m.Info
		}
		b.move.From, b.move.To = square(m.From, &b.from), square(m.To, &b.to)
		if len(m.Captures) > 0 {
			b.move.Captures = make([]*Capture, len(m.Captures))
		}
		for i, c := range m.Captures {
			nc := new(Capture)
			at(&nc.Pos)
			if len(c.Pieces) > 0 {
				nc.Pieces = make([]*Captured, len(c.Pieces))
			}
			for j, pc := range c.Pieces {
				np := &Captured{King: pc.King}
				at(&np.Pos)
				np.Square = square(pc.Square, nil)
				nc.Pieces[j] = np
			}
			b.move.Captures[i] = nc
		}
		b.ply.Move = &b.move
	}
	if !ok {
		return nil
	}
	return &b.ply
}

// walkPly calls f with the position of every node of p, and the node
// itself for squares.
func walkPly(p *Ply, f func(lexer.Position, *Square)) {
	f(p.Pos, nil)
	m := p.Move
	if m == nil {
		return
	}
	f(m.Pos, nil)
	for _, s := range []*Square{m.From, m.To} {
		if s != nil {
			f(s.Pos, s)
		}
	}
	for _, c := range m.Captures {
		f(c.Pos, nil)
		for _, pc := range c.Pieces {
			f(pc.Pos, nil)
			if pc.Square != nil {
				f(pc.Square.Pos, pc.Square)
			}
		}
	}
}
