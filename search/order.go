package search

import (
	"github.com/taflmail/taflmail/engine"
)

// Move ordering keys, highest first: the table's move, a king escape,
// captures (more taflmen first) and attackers' moves onto the king's
// escape lines, the two killer moves of the ply, moves that attack the
// king (attackers next to him) or threaten an escape (the king onto a
// square that sees an escape square), then the rest by history.
const (
	orderTT         int32 = 2_000_000_000
	orderWin        int32 = 1_900_000_000
	orderCapture    int32 = 1_000_000_000 // + 10,000,000 per taflman taken
	orderKiller     int32 = 900_000_000   // +1 for the first killer
	orderKingAttack int32 = 800_000_000   // + history
)

// isTactical reports whether an ordering key belongs to a forcing move,
// which is never searched with reduced depth.
func isTactical(v int32) bool {
	return v >= orderCapture || v >= orderKingAttack && v < orderKiller
}

// pick moves the move with the highest key among moves[i:] to index i.
func pick(moves []engine.Move, ord []int32, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if ord[j] > ord[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	ord[i], ord[best] = ord[best], ord[i]
}

// pickSorted puts the move with the i-th highest key at index i: by
// selection for the first few (a cutoff usually comes early), then by
// sorting the rest once.
func pickSorted(moves []engine.Move, ord []int32, i int) {
	const selections = 5
	switch {
	case i < selections:
		pick(moves, ord, i)
	case i == selections:
		shellSort(moves[i:], ord[i:])
	}
}

// shellSort sorts moves by descending key (not stable).
func shellSort(moves []engine.Move, ord []int32) {
	n := len(moves)
	for gap := n / 2; gap > 0; gap /= 2 {
		if gap == 2 {
			gap = 1
		}
		for i := gap; i < n; i++ {
			m, k := moves[i], ord[i]
			j := i
			for ; j >= gap && ord[j-gap] < k; j -= gap {
				moves[j], ord[j] = moves[j-gap], ord[j-gap]
			}
			moves[j], ord[j] = m, k
		}
	}
}

// sortByOrder sorts moves by descending key, keeping the order of equal
// keys (insertion sort; the root's moves only).
func sortByOrder(moves []engine.Move, ord []int32) {
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && ord[j] > ord[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			ord[j], ord[j-1] = ord[j-1], ord[j]
		}
	}
}

// countCaptures marks, for this node, how many taflmen a ply to each
// square would take (engine.Position.CaptureTargets).
func (s *Searcher) countCaptures() {
	g := s.g
	s.targets = s.pos.CaptureTargets(s.targets[:0])
	s.capNow++
	if s.capNow == 0 {
		s.capGen = [maxCells]uint32{}
		s.capNow = 1
	}
	for _, t := range s.targets {
		i := g.pad(t)
		if s.capGen[i] != s.capNow {
			s.capGen[i] = s.capNow
			s.capCnt[i] = 0
		}
		s.capCnt[i]++
	}
}

// captures returns how many taflmen a ply from `from` to `to` takes by
// custodial capture, after countCaptures.
func (s *Searcher) captures(b *board, from, to int) int {
	if s.capGen[to] != s.capNow || from == b.king && !s.kingHammer {
		return 0
	}
	return int(s.capCnt[to])
}

// order returns the ordering keys of moves at ply (in s.orders[ply]).
func (s *Searcher) order(ply int, moves []engine.Move, ttMove engine.Move, hasTT bool, b *board) []int32 {
	g := b.g
	side := b.toMove
	s.countCaptures()
	// Attackers: the squares on the king's open escape lines block them.
	var block [4]int // the escape square at the end of each open line, or -1
	nblock := 0
	if side == engine.Attackers && b.king >= 0 {
		for _, d := range g.dirs {
			if e := ray(b, b.king, d); e >= 0 {
				block[nblock] = e
				nblock++
			}
		}
	}
	k1, k2 := s.killers[ply][0], s.killers[ply][1]
	ord := s.orders[ply][:0]
	for _, m := range moves {
		from, to := g.pad(m.From), g.pad(m.To)
		var v int32
		switch {
		case hasTT && m == ttMove:
			v = orderTT
		case side == engine.Defenders && from == b.king && g.esc[to]:
			v = orderWin
		default:
			if c := s.captures(b, from, to); c > 0 {
				v = orderCapture + int32(c)*10_000_000
			}
			if nblock > 0 && onLine(b, to, block[:nblock]) {
				v = max(v, orderCapture)
			}
			if v != 0 {
				break
			}
			h := s.hist[s.histIndex(m)]
			switch {
			case m == k1:
				v = orderKiller + 1
			case m == k2:
				v = orderKiller
			case side == engine.Attackers && b.king >= 0 && nextTo(g, to, b.king):
				v = orderKingAttack + h
			case side == engine.Defenders && from == b.king && seesEscape(b, to):
				v = orderKingAttack + h
			default:
				v = h
			}
		}
		ord = append(ord, v)
	}
	s.orders[ply] = ord
	return ord
}

// nextTo reports whether padded squares a and b are orthogonal neighbours.
func nextTo(g *geometry, a, b int) bool {
	d := a - b
	return d == 1 || d == -1 || d == g.w || d == -g.w
}

// onLine reports whether square i lies between the king and one of the
// escape squares ends (inclusive of the escape square), on a straight line.
func onLine(b *board, i int, ends []int) bool {
	g := b.g
	k := b.king
	for _, e := range ends {
		d := lineStep(g, k, e)
		for x := k + d; ; x += d {
			if x == i {
				return true
			}
			if x == e {
				break
			}
		}
	}
	return false
}

// lineStep returns the step from a towards b on a shared rank or file.
func lineStep(g *geometry, a, b int) int {
	switch {
	case b > a && b-a < g.w:
		return 1
	case b < a && a-b < g.w:
		return -1
	case b > a:
		return g.w
	}
	return -g.w
}

// seesEscape reports whether the king, standing on i, would see an escape
// square along a free line (so that moving him there threatens to escape).
func seesEscape(b *board, i int) bool {
	for _, d := range b.g.dirs {
		if ray(b, i, d) >= 0 {
			return true
		}
	}
	return false
}
