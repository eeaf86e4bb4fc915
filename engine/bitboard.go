package engine

import "math/bits"

// Board layout of the padded mailbox and of the bitboards.
//
// The engine keeps every position twice: as a mailbox of Pieces and as one
// bitboard per piece kind. Both use the same index: the board is framed by
// one guard square on each side, so a board of side n is stored as
// w = n+2 columns and rows, and square (file f, rank r) has index
//
//	i = (r+1)*w + (f+1)
//
// For 11×11 that is 13×13 = 169 indices, three 64-bit words; for 19×19 it
// is 21×21 = 441 indices, seven words:
//
//	rank 12 (frame)  156 157 … 168
//	rank 11          143 [144 … 154] 155
//	…
//	rank 1            13 [ 14 …  24]  25
//	rank 0 (frame)     0   1 …  12
//
// Bit i of the bitboard lives in word i/64 at bit i%64. Stepping one file
// is ±1 and one rank is ±w; the frame stops every ray in the mailbox and
// keeps shifted bitboards from wrapping to the other side of the board.
const (
	maxW     = MaxSize + 2
	maxCells = maxW * maxW
	maxWords = 8 // (maxCells+63)/64 = 7, rounded up so that i>>6&7 needs no bounds check
)

// bitboard is a set of padded indices; only the first nw words of a board
// are in use, the rest stay zero.
type bitboard [maxWords]uint64

func (b *bitboard) set(i int)      { b[i>>6&7] |= 1 << (i & 63) }
func (b *bitboard) clear(i int)    { b[i>>6&7] &^= 1 << (i & 63) }
func (b *bitboard) has(i int) bool { return b[i>>6&7]&(1<<(i&63)) != 0 }

// intersects reports whether b and c share a square.
func (b *bitboard) intersects(c *bitboard, nw int) bool {
	for i := 0; i < nw; i++ {
		if b[i]&c[i] != 0 {
			return true
		}
	}
	return false
}

// spread returns b with every square's four orthogonal neighbours added,
// masked by mask: one step of a flood fill over a board of width w.
func (b *bitboard) spread(mask *bitboard, nw, w int) bitboard {
	var out bitboard
	for i := 0; i < nw; i++ {
		x := b[i]
		// neighbours at +1 and +w come from lower bits, -1 and -w from higher.
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

// shiftedOr returns the squares whose neighbour at offset +d or -d (d = 1
// or w) is in b: a square s is in the result when s+d or s-d is in b.
func (b *bitboard) shiftedOr(d, nw int) bitboard {
	var out bitboard
	for i := 0; i < nw; i++ {
		x := b[i]
		v := x<<uint(d) | x>>uint(d)
		if i > 0 {
			v |= b[i-1] >> uint(64-d)
		}
		if i+1 < nw {
			v |= b[i+1] << uint(64-d)
		}
		out[i] = v
	}
	return out
}

// equal reports whether b and c hold the same squares.
func (b *bitboard) equal(c *bitboard, nw int) bool {
	for i := 0; i < nw; i++ {
		if b[i] != c[i] {
			return false
		}
	}
	return true
}

// first returns the lowest index in b, or -1 when b is empty.
func (b *bitboard) first(nw int) int {
	for i := 0; i < nw; i++ {
		if b[i] != 0 {
			return i<<6 | bits.TrailingZeros64(b[i])
		}
	}
	return -1
}
