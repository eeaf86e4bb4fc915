package engine

// Zobrist keys: one random 64-bit key per (padded index, piece kind) and one
// for "defenders to move". A position's key is the XOR of the keys of its
// pieces and, when the defenders move, the side key. Keys come from a fixed
// splitmix64 sequence, so they are the same in every run and on every
// machine; equal positions (RULES.md §0: board and side to move) have equal
// keys.
var (
	zobPiece [maxCells][4]uint64
	zobSide  uint64
)

func init() {
	state := uint64(0x7461666c6d61696c) // "taflmail"
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for i := range zobPiece {
		for p := Attacker; p <= King; p++ {
			zobPiece[i][p] = next()
		}
	}
	zobSide = next()
}
