package search

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/taflmail/taflmail/engine"
)

// MaxDepth is the deepest iteration a search starts, in plies.
const MaxDepth = 64

// ErrGameOver is returned by Search for a position whose game has ended:
// there is no move to find.
var ErrGameOver = errors.New("search: the game is over")

// Limits bound one search. A zero field sets no limit; with no limit at all
// the search ends after iteration MaxDepth (or when its context is done).
//
// Depth and Nodes make a search deterministic: the same Searcher state,
// position and limits give the same Result on every machine. Soft and Hard
// are wall-clock limits from the start of the search. The first iteration
// (depth 1) always completes, whatever Nodes and Hard say, so a search
// always has a move unless its context is done first.
type Limits struct {
	// Depth is the deepest iteration, in plies (1 = the side to move's
	// plies and the quiescence search after them).
	Depth int
	// Nodes stops the search once it has visited this many positions.
	Nodes uint64
	// Soft: no new iteration starts after this much time.
	Soft time.Duration
	// Hard: the search is abandoned at this much time; the move of the
	// last completed iteration (or a better one found since) is played.
	Hard time.Duration
}

// Budget returns the limits for a think time of d per move: an iteration
// may start until half of d has passed (the next would rarely finish), and
// the search stops at d.
func Budget(d time.Duration) Limits { return Limits{Soft: d / 2, Hard: d} }

// Options configure a Searcher.
type Options struct {
	// Weights returns the evaluation weights for a variant; nil means
	// DefaultWeights.
	Weights func(*engine.Variant) Weights
	// TableBytes is the size of the transposition table in bytes; zero
	// means DefaultTableBytes. It is rounded down to a power of two
	// buckets of 32 bytes.
	TableBytes int
	// Progress, when set, is called after every completed iteration with
	// the result so far, on the goroutine that runs Search.
	Progress func(Result)
}

// Result is what a search found.
type Result struct {
	// Move is the best move found for the side to move.
	Move engine.Move
	// Score is the position's value for the side to move (see Score).
	Score Score
	// Depth is the deepest completed iteration, in plies.
	Depth int
	// SelDepth is the deepest ply from the root that the search looked at
	// (extensions and quiescence included).
	SelDepth int
	// Nodes is the number of positions visited.
	Nodes uint64
	// Elapsed is the time the search took.
	Elapsed time.Duration
	// PV is the principal variation: Move and the expected replies, each
	// legal in turn from the searched position (at least Move).
	PV []engine.Move
}

// NodesPerSecond returns Nodes / Elapsed, or 0 for no elapsed time.
func (r Result) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Elapsed.Seconds()
}

// Searcher finds moves: iterative deepening alpha-beta with principal
// variation search, a transposition table, move ordering and a quiescence
// search for tafl's forcing moves (docs/engine.md). It keeps its table,
// killer moves and history between searches, so the searches of one game
// help each other; Clear forgets them. A Searcher is not safe for
// concurrent use: give each goroutine (each game searched at the same
// time) its own.
type Searcher struct {
	opts Options
	tt   *table
	used bool // the table holds entries

	variant *engine.Variant // the rules g and ev were built for
	g       *geometry
	ev      *evaluator
	b       board
	hist    []int32 // [side][from][to], squares as rank*n + file
	killers [MaxPly][2]engine.Move

	pos        *engine.Position
	lim        Limits
	start      time.Time
	stop       atomic.Bool // set when the context is done
	aborted    bool
	canAbort   bool // the first iteration is complete
	nodes      uint64
	seldepth   int
	rootDepth  int
	repetitive bool // the variant judges repetitions
	kingHammer bool // the king captures as the moving piece

	rootMoves []engine.Move
	iterBest  engine.Move // best root move of the running iteration, searched to the end
	iterScore Score
	iterPV    []engine.Move
	haveIter  bool

	moves     [MaxPly][]engine.Move
	orders    [MaxPly][]int32
	targets   []engine.Square
	capSq     []engine.Square
	evalCache []evalEntry
	capStack  []capRec
	capCnt    [maxCells]uint8
	capGen    [maxCells]uint32
	capNow    uint32
	pv        [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen     [MaxPly + 1]int
}

// New returns a Searcher with the given options.
func New(opts Options) *Searcher {
	size := opts.TableBytes
	if size <= 0 {
		size = DefaultTableBytes
	}
	return &Searcher{opts: opts, tt: newTable(size)}
}

// Clear forgets everything learnt in earlier searches (table, killers,
// history), so that the next search behaves as a new Searcher's would.
func (s *Searcher) Clear() {
	if s.used {
		s.tt.clear()
	}
	s.used = false
	clear(s.hist)
	clear(s.evalCache)
	s.killers = [MaxPly][2]engine.Move{}
}

// prepare builds the geometry and evaluator for v, clearing what was
// learnt under other rules.
func (s *Searcher) prepare(v *engine.Variant) {
	if s.variant != nil && reflect.DeepEqual(*s.variant, *v) {
		return
	}
	vc := *v
	s.variant = &vc
	s.g = newGeometry(&vc)
	w := DefaultWeights(&vc)
	if s.opts.Weights != nil {
		w = s.opts.Weights(&vc)
	}
	s.ev = newEvaluator(&vc, w)
	s.evalCache = make([]evalEntry, evalCacheSize)
	s.b.reset(s.g)
	nn := vc.Size * vc.Size
	s.hist = make([]int32, 2*nn*nn)
	s.Clear()
	s.repetitive = vc.Repetition != engine.RepetitionIgnored
	s.kingHammer = vc.KingArms == engine.KingArmed || vc.KingArms == engine.KingHammerOnly
}

// Search finds the best move for the side to move in p within lim. p is
// not changed: the search works on a copy it makes when it starts (with
// p's repetition history, so it knows which positions the game has seen).
// It stops early when ctx is done; it returns ctx.Err() only when that
// happened before it had a move, and ErrGameOver for a position whose game
// has ended.
func (s *Searcher) Search(ctx context.Context, p *engine.Position, lim Limits) (Result, error) {
	if p.Outcome().Over() {
		return Result{}, ErrGameOver
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	s.prepare(p.Variant())
	s.pos = p.Clone()
	s.lim = lim
	s.start = time.Now()
	s.stop.Store(false)
	s.aborted, s.canAbort = false, false
	s.nodes, s.seldepth = 0, 0
	defer context.AfterFunc(ctx, func() { s.stop.Store(true) })()
	s.tt.newSearch()
	s.used = true
	for i := range s.hist {
		s.hist[i] /= 8
	}
	s.killers = [MaxPly][2]engine.Move{}

	s.b.load(s.pos)
	s.rootMoves = s.pos.LegalMoves(s.rootMoves[:0])
	ord := s.order(0, s.rootMoves, engine.Move{}, false, &s.b)
	sortByOrder(s.rootMoves, ord)

	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, MaxDepth)
	}
	var res Result
	have := false
	for d := 1; d <= maxDepth; d++ {
		s.rootDepth = d
		s.haveIter = false
		score := s.aspiration(d, res.Score, have)
		if s.aborted {
			if s.haveIter {
				res.Move, res.Score = s.iterBest, s.iterScore
				res.PV = append(res.PV[:0], s.iterPV...)
				have = true
			}
			break
		}
		res.Move, res.Score, res.Depth = s.rootMoves[0], score, d
		res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		if len(res.PV) == 0 || res.PV[0] != res.Move {
			res.PV = append(res.PV[:0], res.Move)
		}
		have = true
		s.canAbort = true
		res.SelDepth, res.Nodes, res.Elapsed = s.seldepth, s.nodes, time.Since(s.start)
		if s.opts.Progress != nil {
			s.opts.Progress(res)
		}
		if s.finished(d, score) {
			break
		}
	}
	res.SelDepth, res.Nodes, res.Elapsed = s.seldepth, s.nodes, time.Since(s.start)
	if !have {
		return res, ctx.Err()
	}
	return res, nil
}

// finished reports whether the search should stop after completing
// iteration d with the given score.
func (s *Searcher) finished(d int, score Score) bool {
	switch {
	case s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes:
		return true
	case s.lim.Soft > 0 && time.Since(s.start) >= s.lim.Soft:
		return true
	case s.lim.Soft > 0 && len(s.rootMoves) == 1:
		return true // the only move: no time to spend on it
	case score.Decided() && d >= score.Plies():
		return true // every line of that length was searched
	}
	return false
}

// aspiration searches the root at depth d in a window around the previous
// score, widening it when the score falls outside.
func (s *Searcher) aspiration(d int, prev Score, have bool) Score {
	if d < 4 || !have || prev.Decided() {
		return s.root(d, -Infinity, Infinity)
	}
	delta := Score(40)
	alpha, beta := max(prev-delta, -Infinity), min(prev+delta, Infinity)
	for {
		score := s.root(d, alpha, beta)
		if s.aborted {
			return score
		}
		switch {
		case score <= alpha:
			alpha = max(alpha-delta, -Infinity)
		case score >= beta:
			beta = min(beta+delta, Infinity)
		default:
			return score
		}
		delta *= 4
		if delta > 1000 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// root searches every root move to depth d; the best moves to the front
// of rootMoves, so the next iteration tries it first.
func (s *Searcher) root(d int, alpha, beta Score) Score {
	s.nodes++
	s.pvLen[0] = 0
	best := -Infinity
	for i := 0; i < len(s.rootMoves); i++ {
		m := s.rootMoves[i]
		u := s.make(m)
		var sc Score
		if i == 0 {
			sc = -s.pvs(d-1, 1, -beta, -alpha)
		} else {
			sc = -s.pvs(d-1, 1, -alpha-1, -alpha)
			if sc > alpha && sc < beta {
				sc = -s.pvs(d-1, 1, -beta, -alpha)
			}
		}
		s.unmake(u)
		if s.aborted {
			break
		}
		if sc > best {
			best = sc
		}
		if sc > alpha {
			alpha = sc
			s.updatePV(0, m)
			copy(s.rootMoves[1:i+1], s.rootMoves[:i])
			s.rootMoves[0] = m
			if sc < beta {
				s.iterBest, s.iterScore, s.haveIter = m, sc, true
				s.iterPV = append(s.iterPV[:0], s.pv[0][:s.pvLen[0]]...)
			}
			if sc >= beta {
				break
			}
		}
	}
	return best
}

// evalEntry caches one evaluation.
type evalEntry struct {
	key   uint64
	score Score
}

// evalCacheSize is the number of evaluations cached (a power of two).
const evalCacheSize = 1 << 15

// evaluate returns the evaluation of the current position for the side to
// move, from the cache when it is there.
func (s *Searcher) evaluate() Score {
	key := s.pos.Key()
	e := &s.evalCache[key&(evalCacheSize-1)]
	if e.key == key && key != 0 {
		return e.score
	}
	sc := s.ev.evaluate(&s.b)
	e.key, e.score = key, sc
	return sc
}

// made is what unmake needs: the engine's Undo and the snapshot's change.
type made struct {
	u                engine.Undo
	from, to         int32
	pc               engine.Piece
	capStart, capEnd int32 // the ply's captures in Searcher.capStack
}

// capRec is a captured piece, for putting it back into the snapshot.
type capRec struct {
	at int32
	pc engine.Piece
}

// make plays m on the position (the engine's trusted path) and on the
// snapshot.
func (s *Searcher) make(m engine.Move) made {
	b, g := &s.b, s.g
	r := made{from: int32(g.pad(m.From)), to: int32(g.pad(m.To))}
	r.pc = b.cells[r.from]
	c0 := s.pos.Captures()
	r.u = s.pos.Make(m)
	b.move(int(r.from), int(r.to), r.pc)
	b.toMove ^= 1
	r.capStart = int32(len(s.capStack))
	if s.pos.Captures() != c0 {
		s.capSq = s.pos.CapturedSquares(s.capSq[:0], c0)
		for _, sq := range s.capSq {
			i := g.pad(sq)
			s.capStack = append(s.capStack, capRec{int32(i), b.cells[i]})
			b.remove(i)
		}
	}
	r.capEnd = int32(len(s.capStack))
	return r
}

// unmake takes back a make.
func (s *Searcher) unmake(r made) {
	s.pos.Unmake(r.u)
	b := &s.b
	for i := r.capEnd - 1; i >= r.capStart; i-- {
		c := s.capStack[i]
		b.put(int(c.at), c.pc)
	}
	s.capStack = s.capStack[:r.capStart]
	b.move(int(r.to), int(r.from), r.pc)
	b.toMove ^= 1
}

// checkStop reports whether the search must be abandoned now, and marks
// it so.
func (s *Searcher) checkStop() bool {
	if s.aborted {
		return true
	}
	if s.nodes&255 == 0 && s.stop.Load() {
		s.aborted = true
		return true
	}
	if !s.canAbort {
		return false
	}
	if s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes {
		s.aborted = true
		return true
	}
	if s.lim.Hard > 0 && s.nodes&1023 == 0 && time.Since(s.start) >= s.lim.Hard {
		s.aborted = true
		return true
	}
	return false
}

// terminal scores a finished game at ply for the side to move there.
func (s *Searcher) terminal(o engine.Outcome, ply int) Score {
	if w, ok := o.Result.Winner(); ok {
		if w == s.pos.ToMove() {
			return Win - Score(ply)
		}
		return -Win + Score(ply)
	}
	return 0
}

func (s *Searcher) updatePV(ply int, m engine.Move) {
	s.pv[ply][0] = m
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// pvs is the principal variation search of the node at ply with depth
// plies to go, in the window (alpha, beta): the table's move, then the
// others by the ordering keys with a null window, re-searched when one
// beats alpha; reverse futility and null-move pruning away from the
// principal variation, futility pruning of quiet moves one and two plies
// from the horizon, late-move reductions of quiet moves; one ply more when
// the opponent threatens to win (an escape or a king capture).
func (s *Searcher) pvs(depth, ply int, alpha, beta Score) Score {
	return s.node(depth, ply, alpha, beta, true)
}

// pvsNull is pvs for the node right after a null move, where no second
// null move is tried.
func (s *Searcher) pvsNull(depth, ply int, alpha, beta Score) Score {
	return s.node(depth, ply, alpha, beta, false)
}

// node is pvs; null says whether a null move may be tried.
func (s *Searcher) node(depth, ply int, alpha, beta Score, null bool) Score {
	p := s.pos
	s.pvLen[ply] = 0
	if o := p.Outcome(); o.Over() {
		s.nodes++
		return s.terminal(o, ply)
	}
	if depth <= 0 {
		return s.qsearch(ply, alpha, beta, 0)
	}
	s.nodes++
	if s.checkStop() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	b := &s.b
	if ply >= MaxPly-2 {
		return s.evaluate()
	}
	// Neither a win nor a loss can be nearer than the next ply (a ply can
	// lose at once by repeating a position).
	alpha = max(alpha, -Win+Score(ply+1))
	beta = min(beta, Win-Score(ply+1))
	if alpha >= beta {
		return alpha
	}
	pvNode := beta-alpha > 1
	key := p.Key()
	rep := s.repetitive && p.Repetitions() > 1
	var ttMove engine.Move
	hasTT := false
	if e, ok := s.tt.probe(key); ok {
		ttMove, hasTT = unpackMove(e.move)
		if !pvNode && !rep && int(e.depth) >= depth {
			sc := fromTT(Score(e.score), ply)
			switch e.bound & 3 {
			case boundExact:
				return sc
			case boundLower:
				if sc >= beta {
					return sc
				}
			case boundUpper:
				if sc <= alpha {
					return sc
				}
			}
		}
	}
	if m, ok := s.winNow(b); ok {
		s.pv[ply][0], s.pvLen[ply] = m, 1
		return Win - Score(ply+1)
	}
	threatened := s.threatened(b)
	if threatened && ply < 2*s.rootDepth {
		depth++
	}
	static := s.evaluate()
	if !pvNode && !threatened && !beta.Decided() {
		// Reverse futility: far enough above beta that a quiet ply of
		// the opponent will not bring it back.
		if depth <= 3 && static-Score(120*depth) >= beta {
			return static
		}
		// Null move: if passing still fails high at reduced depth, a
		// real move will too. Not twice in a row, and not for a side
		// with almost nothing left to move (zugzwang).
		if depth >= 3 && null && static >= beta && s.hasMaterial(b) {
			r := 3 + depth/4
			u := p.MakeNull()
			b.toMove ^= 1
			sc := -s.pvsNull(depth-1-r, ply+1, -beta, -beta+1)
			b.toMove ^= 1
			p.UnmakeNull(u)
			if s.aborted {
				return 0
			}
			if sc >= beta {
				if sc.Decided() {
					sc = beta
				}
				return sc
			}
		}
	}
	moves := p.LegalMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	if len(moves) == 0 {
		return s.noMove(ply) // only after a null move
	}
	ord := s.order(ply, moves, ttMove, hasTT, b)
	futile := !pvNode && !threatened && depth <= 2 && static+Score(150*depth) <= alpha && !alpha.Decided()

	best := -Infinity
	var bestMove engine.Move
	bound := boundUpper
	for i := range moves {
		pickSorted(moves, ord, i)
		m := moves[i]
		tactical := isTactical(ord[i])
		if futile && i > 0 && !tactical {
			continue
		}
		u := s.make(m)
		var sc Score
		if i == 0 {
			sc = -s.pvs(depth-1, ply+1, -beta, -alpha)
		} else {
			r := 0
			if depth >= 3 && i >= 2 && !tactical && !threatened {
				r = int(lmr[min(depth, 63)][min(i, 63)])
				if pvNode && r > 0 {
					r--
				}
				r = min(r, depth-2)
			}
			sc = -s.pvs(depth-1-r, ply+1, -alpha-1, -alpha)
			if sc > alpha && r > 0 {
				sc = -s.pvs(depth-1, ply+1, -alpha-1, -alpha)
			}
			if sc > alpha && sc < beta {
				sc = -s.pvs(depth-1, ply+1, -beta, -alpha)
			}
		}
		s.unmake(u)
		if s.aborted {
			return 0
		}
		if sc > best {
			best, bestMove = sc, m
			if sc > alpha {
				alpha = sc
				bound = boundExact
				s.updatePV(ply, m)
				if sc >= beta {
					bound = boundLower
					if !tactical {
						s.rememberCutoff(ply, m, depth)
					}
					break
				}
			}
		}
	}
	if best == -Infinity {
		// Every move was futile: the position is worth at most its
		// static value.
		return static
	}
	if !rep {
		s.tt.store(key, packMove(bestMove), toTT(best, ply), depth, bound)
	}
	return best
}

// lmr[d][i] is the late-move reduction of the i-th move at depth d.
var lmr = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
	return t
}()

// hasMaterial reports whether the side to move has pieces enough that a
// null move is safe (zugzwang is unlikely).
func (s *Searcher) hasMaterial(b *board) bool {
	if b.toMove == engine.Attackers {
		return b.nAtt >= 4
	}
	return b.nDef >= 2
}

// noMove scores a node whose side to move has no legal ply (reached only
// through a null move) as the variant's rule would (RULES.md §1.6.6).
func (s *Searcher) noMove(ply int) Score {
	if s.variant.NoMove == engine.NoMoveDraw {
		return 0
	}
	return -Win + Score(ply)
}

// rememberCutoff records a quiet move that failed high: as a killer at ply
// and in the history table.
func (s *Searcher) rememberCutoff(ply int, m engine.Move, depth int) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	h := &s.hist[s.histIndex(m)]
	*h += int32(depth * depth)
	if *h > 1<<24 {
		for i := range s.hist {
			s.hist[i] /= 2
		}
	}
}

// histIndex returns the history slot of m for the side to move.
func (s *Searcher) histIndex(m engine.Move) int {
	g := s.g
	nn := g.n * g.n
	return (int(s.pos.ToMove())*nn+int(g.dense[m.From&1023]))*nn + int(g.dense[m.To&1023])
}

// Quiescence limits: plies of forced replies (evasions) and of captures.
const (
	maxEvasionPlies = 3
	maxQuietPlies   = 8
)

// qsearch resolves the forcing moves at the end of a line (qd plies into
// the quiescence search): an immediate escape or king capture wins; a side
// whose king escape or king capture the opponent threatens must search
// every reply (no standing pat); otherwise the side to move may stand on
// the evaluation or try its captures and, for the defenders, king moves to
// a square that sees two escape squares.
func (s *Searcher) qsearch(ply int, alpha, beta Score, qd int) Score {
	p := s.pos
	s.pvLen[ply] = 0
	s.nodes++
	if o := p.Outcome(); o.Over() {
		return s.terminal(o, ply)
	}
	if s.checkStop() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	b := &s.b
	if ply >= MaxPly-2 {
		return s.evaluate()
	}
	if m, ok := s.winNow(b); ok {
		s.pv[ply][0], s.pvLen[ply] = m, 1
		return Win - Score(ply+1)
	}
	if s.threatened(b) && qd < maxEvasionPlies {
		moves := p.LegalMoves(s.moves[ply][:0])
		s.moves[ply] = moves
		if len(moves) == 0 {
			return s.noMove(ply) // only after a null move
		}
		ord := s.order(ply, moves, engine.Move{}, false, b)
		best := -Infinity
		for i := range moves {
			pickSorted(moves, ord, i)
			u := s.make(moves[i])
			sc := -s.qsearch(ply+1, -beta, -alpha, qd+1)
			s.unmake(u)
			if s.aborted {
				return 0
			}
			if sc > best {
				best = sc
				if sc > alpha {
					alpha = sc
					s.updatePV(ply, moves[i])
					if sc >= beta {
						break
					}
				}
			}
		}
		return best
	}
	// Lazy evaluation: the flood fills cannot take the score below this.
	if lb := s.ev.lowerBound(b); lb >= beta {
		return lb
	}
	stand := s.evaluate()
	if stand >= beta || qd >= maxQuietPlies {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	moves, ord := s.tacticalMoves(ply, b, qd)
	for i := range moves {
		pick(moves, ord, i)
		u := s.make(moves[i])
		sc := -s.qsearch(ply+1, -beta, -alpha, qd+1)
		s.unmake(u)
		if s.aborted {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				s.updatePV(ply, moves[i])
				if sc >= beta {
					break
				}
			}
		}
	}
	return best
}
