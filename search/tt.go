package search

import (
	"github.com/taflmail/taflmail/engine"
)

// The transposition table: a fixed number of two-entry buckets indexed by
// the low bits of the engine's Zobrist key (engine.Position.Key), each
// entry verified against the whole key. Replacement: the first entry of a
// bucket keeps the deepest result of the current search (it is replaced by
// a result at least as deep, or by any result once it is from an earlier
// search); the second always takes what the first refuses. A result for a
// position already in the bucket replaces it in place. Decided scores are
// stored relative to the node (distance from it), not to the root.

// Bounds of a stored score.
const (
	boundUpper uint8 = 1 // the score is at most this (every move failed low)
	boundLower uint8 = 2 // at least this (a move failed high)
	boundExact uint8 = 3
)

// ttEntry is 16 bytes.
type ttEntry struct {
	key   uint64
	move  uint32 // packMove; 0 for none
	score int16
	depth int8
	bound uint8 // low 2 bits: bound; high 6 bits: the search's generation
}

type ttBucket [2]ttEntry

type table struct {
	buckets []ttBucket
	mask    uint64
	gen     uint8
}

// DefaultTableBytes is the transposition table's size when Options.TableBytes
// is zero: 16 MiB, a million entries.
const DefaultTableBytes = 16 << 20

// newTable returns a table of at most bytes bytes (at least one bucket),
// rounded down to a power of two buckets.
func newTable(bytes int) *table {
	n := 1
	for n*2*32 <= bytes {
		n *= 2
	}
	return &table{buckets: make([]ttBucket, n), mask: uint64(n - 1)}
}

func (t *table) clear() {
	clear(t.buckets)
	t.gen = 0
}

// newSearch starts a new generation, so that old entries give way.
func (t *table) newSearch() { t.gen = (t.gen + 1) & 63 }

// probe returns the entry for key.
func (t *table) probe(key uint64) (ttEntry, bool) {
	b := &t.buckets[key&t.mask]
	for i := range b {
		if b[i].key == key && b[i].bound&3 != 0 {
			return b[i], true
		}
	}
	return ttEntry{}, false
}

// store records a search result for key.
func (t *table) store(key uint64, move uint32, score Score, depth int, bound uint8) {
	b := &t.buckets[key&t.mask]
	e := ttEntry{key: key, move: move, score: int16(score), depth: int8(min(depth, 127)), bound: bound | t.gen<<2}
	for i := range b {
		if b[i].key == key {
			if move == 0 {
				e.move = b[i].move
			}
			b[i] = e
			return
		}
	}
	if b[0].bound>>2 != t.gen || depth >= int(b[0].depth) {
		b[1] = b[0]
		b[0] = e
		return
	}
	b[1] = e
}

// packMove packs a move into 21 bits (0 stays free for "no move").
func packMove(m engine.Move) uint32 { return uint32(m.From) | uint32(m.To)<<10 | 1<<20 }

// unpackMove reverses packMove.
func unpackMove(x uint32) (engine.Move, bool) {
	if x == 0 {
		return engine.Move{}, false
	}
	return engine.Move{From: engine.Square(x & 1023), To: engine.Square(x >> 10 & 1023)}, true
}

// toTT turns a score relative to the root into one relative to the node at
// ply; fromTT reverses it.
func toTT(s Score, ply int) Score {
	switch {
	case s > winBound:
		return s + Score(ply)
	case s < -winBound:
		return s - Score(ply)
	}
	return s
}

func fromTT(s Score, ply int) Score {
	switch {
	case s > winBound:
		return s - Score(ply)
	case s < -winBound:
		return s + Score(ply)
	}
	return s
}
