package search

import (
	"github.com/taflmail/taflmail/engine"
)

// Tafl's forcing moves: the king's escape (RULES.md §1.6.1) and his
// capture (§1.4). The search finds them from the snapshot without
// generating every move: an escape along one of the king's four lines, a
// king capture completed by an attacker arriving next to him.

// escapeRoute returns an escape square the king reaches in one ply (the
// padded index), or -1.
func escapeRoute(b *board) int {
	if b.king < 0 {
		return -1
	}
	for _, d := range b.g.dirs {
		if e := ray(b, b.king, d); e >= 0 {
			return e
		}
	}
	return -1
}

// completesCapture reports whether an attacker arriving on x, the king's
// neighbour in direction d from him, captures the king (as the engine
// reads §1.4: two sides for a weak king, four for a strong one with
// hostile empty squares counting and the edge as the fourth side where
// KingEdge says so).
func (s *Searcher) completesCapture(b *board, d int) bool {
	g, ev := b.g, s.ev
	k := b.king
	if !(ev.strong || ev.near && g.near[k]) {
		return b.hostileToKing(k - d)
	}
	if g.edge[k] && ev.edgeOK {
		return false
	}
	for _, d2 := range g.dirs {
		if d2 == d {
			continue
		}
		if n := k + d2; b.cells[n] != offBoard && !b.hostileToKing(n) {
			return false
		}
	}
	return true
}

// kingCapture returns an attacker ply that captures the king in b, as far
// as the snapshot tells: an attacker that can reach an empty neighbour of
// the king on which the capture completes.
func (s *Searcher) kingCapture(b *board) (engine.Move, bool) {
	g := b.g
	k := b.king
	if k < 0 {
		return engine.Move{}, false
	}
	var m engine.Move
	found := false
	for _, d := range g.dirs {
		x := k + d
		if b.cells[x] != engine.Empty || !g.stop[g.kind[x]].Has(engine.Attacker) || !s.completesCapture(b, d) {
			continue
		}
		b.reachers(x, engine.Attackers, -1, func(from int, _ engine.Piece) bool {
			m = engine.Move{From: g.sq[from], To: g.sq[x]}
			found = true
			return false
		})
		if found {
			return m, true
		}
	}
	return m, false
}

// winNow returns a ply that wins at once for the side to move: the king's
// escape, or a king capture that the engine confirms.
func (s *Searcher) winNow(b *board) (engine.Move, bool) {
	g := b.g
	if b.toMove == engine.Defenders {
		if e := escapeRoute(b); e >= 0 {
			return engine.Move{From: g.sq[b.king], To: g.sq[e]}, true
		}
		return engine.Move{}, false
	}
	m, ok := s.kingCapture(b)
	if !ok {
		return m, false
	}
	p := s.pos
	if p.Check(m) != nil {
		return m, false
	}
	u := p.Make(m)
	won := p.Outcome().Result == engine.AttackersWin
	p.Unmake(u)
	return m, won
}

// threatened reports whether the opponent of the side to move threatens
// to win with his next ply: the king sees an escape square (attackers to
// move), or an attacker can complete a king capture (defenders to move).
func (s *Searcher) threatened(b *board) bool {
	if b.toMove == engine.Attackers {
		return escapeRoute(b) >= 0
	}
	_, ok := s.kingCapture(b)
	return ok
}

// tacticalMoves returns the quiescence moves of the node at ply with their
// ordering keys: every capture (found from the capture squares, more
// taflmen first) and, for the defenders in the first two quiescence plies,
// the king's moves to a square that sees two or more escape squares.
func (s *Searcher) tacticalMoves(ply int, b *board, qd int) ([]engine.Move, []int32) {
	g := b.g
	side := b.toMove
	moves, ord := s.moves[ply][:0], s.orders[ply][:0]
	s.countCaptures()
	for _, t := range s.targets {
		i := g.pad(t)
		c := s.capCnt[i]
		if c == 0 {
			continue // already done
		}
		s.capCnt[i] = 0
		b.reachers(i, side, -1, func(from int, pc engine.Piece) bool {
			if pc == engine.King && !s.kingHammer {
				return true
			}
			moves = append(moves, engine.Move{From: g.sq[from], To: t})
			ord = append(ord, int32(c))
			return true
		})
	}
	if side == engine.Defenders && qd < 2 && b.king >= 0 {
		k := b.king
		for di, d := range g.dirs {
			for to := k + d; b.cells[to] == engine.Empty; to += d {
				kd := g.kind[to]
				if (kd == kindNormal || g.stop[kd].Has(engine.King)) && !g.esc[to] {
					seen := 0
					for dj, d2 := range g.dirs {
						if dj>>1 != di>>1 && ray(b, to, d2) >= 0 {
							seen++
						}
					}
					m := engine.Move{From: g.sq[k], To: g.sq[to]}
					if seen >= 2 && !contains(moves, m) {
						moves = append(moves, m)
						ord = append(ord, 100)
					}
				}
				if kd != kindNormal && !g.pass[kd].Has(engine.King) {
					break
				}
			}
		}
	}
	s.moves[ply], s.orders[ply] = moves, ord
	return moves, ord
}

// contains reports whether m is among moves.
func contains(moves []engine.Move, m engine.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
