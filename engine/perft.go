package engine

import (
	"sort"
	"sync"
)

// PerftResult counts the positions reached after exactly Depth plies along
// lines on which no earlier ply ended the game (shared/cases/perft.md):
// Nodes is their number and Ends how many of them are game-ending
// positions (escape, king captured, fort, encirclement, repetition, no
// legal move for the side to move).
type PerftResult struct {
	Depth int
	Nodes uint64
	Ends  uint64
}

// Perft counts the ply sequences of length depth (≥ 0) from p, playing
// every leaf and checking it for game end. p is left unchanged. A game
// that is already over yields no nodes beyond depth 0.
func Perft(p *Position, depth int) PerftResult {
	r := PerftResult{Depth: depth}
	if depth <= 0 {
		r.Nodes = 1
		if p.outcome.Over() {
			r.Ends = 1
		}
		return r
	}
	if p.outcome.Over() {
		return r
	}
	bufs := make([][]uint32, depth+1)
	r.Nodes, r.Ends = p.perft(depth, bufs)
	return r
}

func (p *Position) perft(depth int, bufs [][]uint32) (nodes, ends uint64) {
	moves := p.genMoves(bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		for _, m := range moves {
			u := p.make(int(m&0xffff), int(m>>16))
			nodes++
			if p.outcome.Result != Ongoing {
				ends++
			}
			p.Unmake(u)
		}
		return nodes, ends
	}
	for _, m := range moves {
		u := p.make(int(m&0xffff), int(m>>16))
		if p.outcome.Result == Ongoing {
			n, e := p.perft(depth-1, bufs)
			nodes += n
			ends += e
		}
		p.Unmake(u)
	}
	return nodes, ends
}

// DivideEntry is the perft count below one first ply.
type DivideEntry struct {
	Move Move
	PerftResult
}

// Divide returns, for every legal ply from p, the perft count of depth-1
// below it (a ply that ends the game counts as one node and one end when
// depth is 1, and as nothing deeper), sorted by the move's text. depth
// must be at least 1.
func Divide(p *Position, depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range p.LegalMoves(nil) {
		u := p.Make(m)
		out = append(out, DivideEntry{Move: m, PerftResult: perftAfter(p, depth-1)})
		p.Unmake(u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move.String() < out[j].Move.String() })
	return out
}

// perftAfter is Perft for a position just reached by a ply: a finished game
// is a leaf that counts only at depth 0.
func perftAfter(p *Position, depth int) PerftResult {
	return Perft(p, depth)
}

// ParallelPerft is Perft spread over up to workers goroutines, one first
// ply at a time. It returns the same counts as Perft.
func ParallelPerft(p *Position, depth, workers int) PerftResult {
	if depth <= 1 || workers <= 1 || p.outcome.Over() {
		return Perft(p, depth)
	}
	moves := p.LegalMoves(nil)
	jobs := make(chan Move)
	results := make(chan PerftResult)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := p.Clone()
			for m := range jobs {
				u := q.Make(m)
				results <- Perft(q, depth-1)
				q.Unmake(u)
			}
		}()
	}
	go func() {
		for _, m := range moves {
			jobs <- m
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	total := PerftResult{Depth: depth}
	for r := range results {
		total.Nodes += r.Nodes
		total.Ends += r.Ends
	}
	return total
}
