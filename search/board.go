package search

import (
	"math/bits"

	"github.com/taflmail/taflmail/engine"
)

// The search reads the position into a snapshot of its own at every node
// (Position.AppendCells, one copy of the board): a padded mailbox framed by
// one guard square on each side, so a ray stops at the frame without bounds
// checks, plus bitboards over the same indices for flood fills. Square
// (file f, rank r) of a board of side n has index (r+1)*(n+2) + f+1. The
// layout is the search's own; the engine's is private to it.
const (
	maxW     = engine.MaxSize + 2
	maxCells = maxW * maxW
	maxWords = (maxCells + 63) / 64
	maxSq    = engine.MaxSize * engine.MaxSize
)

// offBoard marks the frame in the snapshot's mailbox.
const offBoard engine.Piece = 4

// Square kinds of the snapshot.
const (
	kindNormal uint8 = iota
	kindThrone
	kindCorner
	kindOff
)

// bitboard is a set of padded indices.
type bitboard [maxWords]uint64

func (b *bitboard) set(i int)   { b[i>>6] |= 1 << (i & 63) }
func (b *bitboard) clear(i int) { b[i>>6] &^= 1 << (i & 63) }

// count returns the number of squares in b.
func (b *bitboard) count(nw int) int {
	n := 0
	for i := 0; i < nw; i++ {
		n += bits.OnesCount64(b[i])
	}
	return n
}

// spread returns b with every square's orthogonal neighbours added, masked
// by mask: one step of a flood fill on a board of padded width w.
func (b *bitboard) spread(mask *bitboard, nw, w int) bitboard {
	if nw <= 3 {
		return b.spread3(mask, uint(w))
	}
	var out bitboard
	for i := 0; i < nw; i++ {
		x := b[i]
		up := x<<1 | x<<uint(w)
		down := x>>1 | x>>uint(w)
		if i > 0 {
			up |= b[i-1]>>63 | b[i-1]>>uint(64-w)
		}
		if i+1 < nw {
			down |= b[i+1]<<63 | b[i+1]<<uint(64-w)
		}
		out[i] = (x | up | down) & mask[i]
	}
	return out
}

// spread3 is spread for boards of up to three words (11×11 and smaller:
// every tier-1 variant), without loops or branches.
func (b *bitboard) spread3(mask *bitboard, w uint) bitboard {
	x0, x1, x2 := b[0], b[1], b[2]
	var out bitboard
	out[0] = (x0 | x0<<1 | x0<<w | x0>>1 | x0>>w | x1<<63 | x1<<(64-w)) & mask[0]
	out[1] = (x1 | x1<<1 | x1<<w | x0>>63 | x0>>(64-w) | x1>>1 | x1>>w | x2<<63 | x2<<(64-w)) & mask[1]
	out[2] = (x2 | x2<<1 | x2<<w | x1>>63 | x1>>(64-w) | x2>>1 | x2>>w) & mask[2]
	return out
}

// flood grows b over mask by at most steps steps of spread (fewer when it
// stops growing) and returns the result. Boards of up to three words run
// in registers.
func (b bitboard) flood(mask *bitboard, nw, w, steps int) bitboard {
	if nw > 3 {
		for i := 0; i < steps; i++ {
			next := b.spread(mask, nw, w)
			if next == b {
				break
			}
			b = next
		}
		return b
	}
	x0, x1, x2 := b[0], b[1], b[2]
	m0, m1, m2 := mask[0], mask[1], mask[2]
	uw := uint(w)
	for i := 0; i < steps; i++ {
		y0 := (x0 | x0<<1 | x0<<uw | x0>>1 | x0>>uw | x1<<63 | x1<<(64-uw)) & m0
		y1 := (x1 | x1<<1 | x1<<uw | x0>>63 | x0>>(64-uw) | x1>>1 | x1>>uw | x2<<63 | x2<<(64-uw)) & m1
		y2 := (x2 | x2<<1 | x2<<uw | x1>>63 | x1>>(64-uw) | x2>>1 | x2>>uw) & m2
		if y0 == x0 && y1 == x1 && y2 == x2 {
			break
		}
		x0, x1, x2 = y0, y1, y2
	}
	return bitboard{x0, x1, x2}
}

// geometry is what a variant means for the snapshot: square kinds and the
// rules per kind, escape squares, the corner-guard squares and static
// distances. It is built once per variant (newGeometry) and read only.
type geometry struct {
	v     *engine.Variant
	n, w  int
	nw    int // words of a bitboard in use
	dirs  [4]int
	sq    [maxCells]engine.Square // padded index → square
	kind  [maxCells]uint8
	edge  [maxCells]bool
	esc   [maxCells]bool // the king wins by stopping here
	near  [maxCells]bool // the throne and its four neighbours
	guard [maxCells]int8 // corner-guard value of an attacker here
	dist  [maxCells]int8 // king steps (Manhattan) to the nearest escape square
	padOf [1024]int16    // engine.Square → padded index
	dense [1024]int16    // engine.Square → rank*n + file

	stop, pass, hostEmpty [4]engine.PieceSet // per kind

	onBoard, edgeBB, escBB bitboard
	maxDist                int   // the largest dist on the board
	startAtt, startDef     int   // attackers and defenders of the start position
	guards                 []int // squares with guard ≠ 0
}

// pad returns the padded index of an on-board square.
func (g *geometry) pad(s engine.Square) int { return int(g.padOf[s&1023]) }

func newGeometry(v *engine.Variant) *geometry {
	n := v.Size
	g := &geometry{v: v, n: n, w: n + 2}
	g.nw = (g.w*g.w + 63) / 64
	g.dirs = [4]int{1, -1, g.w, -g.w}
	for i := range g.kind {
		g.kind[i] = kindOff
	}
	g.stop[kindNormal], g.pass[kindNormal] = engine.AllPieces, engine.AllPieces
	g.stop[kindThrone], g.pass[kindThrone], g.hostEmpty[kindThrone] = v.Throne.Stop, v.Throne.Pass, v.Throne.HostileEmpty
	g.stop[kindCorner], g.pass[kindCorner], g.hostEmpty[kindCorner] = v.Corners.Stop, v.Corners.Pass, v.Corners.HostileEmpty
	throne, hasThrone := v.ThroneSquare()
	var escapes []engine.Square
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			s := engine.SquareAt(f, r)
			i := (r+1)*g.w + f + 1
			g.padOf[s] = int16(i)
			g.dense[s] = int16(r*n + f)
			g.sq[i] = s
			g.kind[i] = kindNormal
			g.onBoard.set(i)
			if hasThrone && s == throne {
				g.kind[i] = kindThrone
			}
			if v.Corners.Present && v.IsCorner(s) {
				g.kind[i] = kindCorner
			}
			if v.IsEdge(s) {
				g.edge[i] = true
				g.edgeBB.set(i)
			}
			if v.IsEscape(s) && v.MayStop(engine.King, s) {
				g.esc[i] = true
				g.escBB.set(i)
				escapes = append(escapes, s)
			}
		}
	}
	if hasThrone {
		t := g.pad(throne)
		g.near[t] = true
		for _, d := range g.dirs {
			g.near[t+d] = true
		}
	}
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			i := g.pad(engine.SquareAt(f, r))
			best := 2 * n
			for _, e := range escapes {
				d := abs(e.File()-f) + abs(e.Rank()-r)
				best = min(best, d)
			}
			g.dist[i] = int8(min(best, 127))
			g.maxDist = max(g.maxDist, int(g.dist[i]))
		}
	}
	if v.Escape == engine.EscapeCorners {
		g.placeGuards()
	}
	if start, err := v.StartBoard(); err == nil {
		for _, c := range start.Cells {
			switch c {
			case engine.Attacker:
				g.startAtt++
			case engine.Defender:
				g.startDef++
			}
		}
	}
	return g
}

// cornerGuard is the value of an attacker on the square (df, dr) steps from
// a corner towards the centre (df, dr in 0..2). The diagonal b2 and the
// squares b3/c2 close both lines out of the corner region and cannot be
// taken against the corner; a2/b1 block a line but stand next to the
// hostile corner; c1/a3 and c3 help a little.
var cornerGuard = [3][3]int8{
	{0, 1, 1},
	{1, 3, 3},
	{1, 3, 1},
}

func (g *geometry) placeGuards() {
	last := g.n - 1
	for _, c := range [][2]int{{0, 0}, {last, 0}, {0, last}, {last, last}} {
		s := engine.SquareAt(c[0], c[1])
		if !g.v.IsCorner(s) {
			continue
		}
		sf, sr := 1, 1
		if c[0] == last {
			sf = -1
		}
		if c[1] == last {
			sr = -1
		}
		for df := 0; df < 3; df++ {
			for dr := 0; dr < 3; dr++ {
				f, r := c[0]+sf*df, c[1]+sr*dr
				if f < 0 || r < 0 || f > last || r > last || 2*max(df, dr) >= g.n-1 {
					continue
				}
				i := g.pad(engine.SquareAt(f, r))
				if cornerGuard[df][dr] != 0 && g.guard[i] == 0 {
					g.guards = append(g.guards, i)
				}
				g.guard[i] = max(g.guard[i], cornerGuard[df][dr])
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// board is the snapshot of a position: mailbox, bitboards, piece counts.
type board struct {
	g      *geometry
	cells  [maxCells]engine.Piece
	att    bitboard // attackers
	def    bitboard // defenders and the king
	occ    bitboard // every piece
	king   int      // padded index of the king, -1 when captured
	nAtt   int
	nDef   int // defenders without the king
	toMove engine.Side
	buf    []engine.Piece
}

// reset prepares the snapshot for a new geometry.
func (b *board) reset(g *geometry) {
	b.g = g
	for i := range b.cells {
		b.cells[i] = offBoard
	}
	b.buf = make([]engine.Piece, 0, g.n*g.n)
}

// load reads p into the snapshot.
func (b *board) load(p *engine.Position) {
	g := b.g
	b.buf = p.AppendCells(b.buf[:0])
	b.att, b.def, b.occ = bitboard{}, bitboard{}, bitboard{}
	b.king, b.nAtt, b.nDef = -1, 0, 0
	b.toMove = p.ToMove()
	n, w := g.n, g.w
	for r := 0; r < n; r++ {
		row := b.buf[r*n : r*n+n]
		base := (r+1)*w + 1
		for f, c := range row {
			i := base + f
			b.cells[i] = c
			switch c {
			case engine.Empty:
				continue
			case engine.Attacker:
				b.att.set(i)
				b.nAtt++
			case engine.Defender:
				b.def.set(i)
				b.nDef++
			case engine.King:
				b.def.set(i)
				b.king = i
			}
			b.occ.set(i)
		}
	}
}

// move moves piece pc from one square to another (the caller knows the
// piece, which keeps the snapshot in step with a ply without reading the
// position).
func (b *board) move(from, to int, pc engine.Piece) {
	b.cells[from], b.cells[to] = engine.Empty, pc
	b.occ.clear(from)
	b.occ.set(to)
	if pc == engine.Attacker {
		b.att.clear(from)
		b.att.set(to)
	} else {
		b.def.clear(from)
		b.def.set(to)
		if pc == engine.King {
			b.king = to
		}
	}
}

// remove takes the piece off square i (a capture).
func (b *board) remove(i int) {
	pc := b.cells[i]
	b.cells[i] = engine.Empty
	b.occ.clear(i)
	switch pc {
	case engine.Attacker:
		b.att.clear(i)
		b.nAtt--
	case engine.Defender:
		b.def.clear(i)
		b.nDef--
	case engine.King:
		b.def.clear(i)
		b.king = -1
	}
}

// put puts pc back on the empty square i (a capture taken back).
func (b *board) put(i int, pc engine.Piece) {
	b.cells[i] = pc
	b.occ.set(i)
	switch pc {
	case engine.Attacker:
		b.att.set(i)
		b.nAtt++
	case engine.Defender:
		b.def.set(i)
		b.nDef++
	case engine.King:
		b.def.set(i)
		b.king = i
	}
}

// hostileToKing reports whether square i counts against the king in a king
// capture (an attacker, or an empty square hostile to the king), as the
// engine reads RULES.md §1.4.
func (b *board) hostileToKing(i int) bool {
	switch b.cells[i] {
	case engine.Attacker:
		return true
	case engine.Empty:
		return b.g.hostEmpty[b.g.kind[i]].Has(engine.King)
	}
	return false
}

// mine reports whether piece c belongs to side s.
func mine(c engine.Piece, s engine.Side) bool {
	if s == engine.Attackers {
		return c == engine.Attacker
	}
	return c == engine.Defender || c == engine.King
}

// reachers calls fn for every piece of side s that can move to the empty
// square t in one ply (RULES.md §1.1: along a line over empty squares,
// passing restricted squares only where its kind may, stopping on t only
// where its kind may), except a piece standing on skip (-1 for none).
func (b *board) reachers(t int, s engine.Side, skip int, fn func(from int, pc engine.Piece) bool) {
	g := b.g
	tk := g.kind[t]
	for _, d := range g.dirs {
		var crossed uint8 // bit k: a square of kind k was crossed
		i := t + d
		for b.cells[i] == engine.Empty {
			crossed |= 1 << g.kind[i]
			i += d
		}
		pc := b.cells[i]
		if i == skip || pc == offBoard || !mine(pc, s) || !g.stop[tk].Has(pc) {
			continue
		}
		ok := true
		for k := kindThrone; k <= kindCorner; k++ {
			if crossed&(1<<k) != 0 && !g.pass[k].Has(pc) {
				ok = false
			}
		}
		if ok && !fn(i, pc) {
			return
		}
	}
}
