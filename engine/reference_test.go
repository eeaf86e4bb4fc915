package engine

// A slow, obviously correct reference implementation of the rules, written
// from ../shared/RULES.md alone (not from make.go or end.go), and a
// differential test that plays random games under both and compares them
// after every ply (STYLE.md "engine": the differential test and the
// invariants).
//
// The reference keeps a plain [][]Piece board, generates moves square by
// square, finds captures by looking at the neighbours of the moved piece,
// checks the game end in the order of RULES.md §1.6 with flood fills, and
// detects repetition by comparing whole boards and the side to move with
// every earlier position. Every rule comes from the Variant's data fields.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refDirs are the four orthogonal steps (file, rank): east, west, north, south.
var refDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// refGame is a game under the reference rules.
type refGame struct {
	v       *Variant
	n       int
	cells   [][]Piece // cells[rank][file]
	toMove  Side
	ply     int
	history []refSnapshot // every position since the set-up one, the current one last
	outcome Outcome
	legal   []Move // legalMoves' answer for the current position, once asked
	known   bool   // legal is valid
}

// refStats counts the rarer events the reference has seen, so that the
// differential test can show (and require) that it exercised them.
var refStats struct {
	shieldwall       int // shieldwall captures
	shieldwallKing   int // shieldwall rows holding the king
	shieldwallByKing int // shieldwalls the king helped to make (bracket or front)
	shieldwallCorner int // shieldwalls closed by a corner
	hostileAnvil     int // ordinary captures against a restricted square
	kingByFour       int // kings captured on four sides (or three and the edge or throne)
	kingByTwo        int // kings captured on two sides
	kingOnEdgeThree  int // kings captured on the edge by three
}

// refSnapshot is a position as RULES.md §0 identifies it: board and side to move.
type refSnapshot struct {
	cells  [][]Piece
	toMove Side
}

// newRefGame sets up a reference game. The variant is copied.
func newRefGame(v *Variant, b Board, toMove Side) *refGame {
	vc := *v
	g := &refGame{v: &vc, n: v.Size, toMove: toMove}
	g.cells = make([][]Piece, g.n)
	for r := range g.cells {
		g.cells[r] = make([]Piece, g.n)
		for f := range g.cells[r] {
			g.cells[r][f] = b.At(SquareAt(f, r))
		}
	}
	g.history = []refSnapshot{g.snapshot()}
	g.outcome = g.setupOutcome()
	return g
}

func (g *refGame) snapshot() refSnapshot {
	c := make([][]Piece, g.n)
	for r := range c {
		c[r] = slices.Clone(g.cells[r])
	}
	return refSnapshot{cells: c, toMove: g.toMove}
}

func (g *refGame) inside(f, r int) bool { return f >= 0 && r >= 0 && f < g.n && r < g.n }

func (g *refGame) at(f, r int) Piece {
	if !g.inside(f, r) {
		return Empty
	}
	return g.cells[r][f]
}

func (g *refGame) isCorner(f, r int) bool {
	return (f == 0 || f == g.n-1) && (r == 0 || r == g.n-1)
}

func (g *refGame) isEdge(f, r int) bool {
	return f == 0 || r == 0 || f == g.n-1 || r == g.n-1
}

func (g *refGame) isThrone(f, r int) bool {
	return g.v.Throne.Present && f == g.n/2 && r == g.n/2
}

// rule returns the restricted-square rule of (f, r), or nil for an
// ordinary square (§1.1, §1.3).
func (g *refGame) rule(f, r int) *SquareRule {
	if g.isThrone(f, r) {
		return &g.v.Throne
	}
	if g.v.Corners.Present && g.isCorner(f, r) {
		return &g.v.Corners
	}
	return nil
}

func (g *refGame) mayStop(pc Piece, f, r int) bool {
	ru := g.rule(f, r)
	return ru == nil || ru.Stop.Has(pc)
}

func (g *refGame) mayPass(pc Piece, f, r int) bool {
	ru := g.rule(f, r)
	return ru == nil || ru.Pass.Has(pc)
}

// hostile reports whether the square (f, r) acts as an enemy piece to
// victim (§1.3). The board edge is never hostile.
func (g *refGame) hostile(f, r int, victim Piece) bool {
	if !g.inside(f, r) {
		return false
	}
	ru := g.rule(f, r)
	if ru == nil {
		return false
	}
	if g.cells[r][f] == Empty {
		return ru.HostileEmpty.Has(victim)
	}
	return ru.HostileOccupied.Has(victim)
}

func (g *refGame) kingArmedHammer() bool {
	return g.v.KingArms == KingArmed || g.v.KingArms == KingHammerOnly
}

func (g *refGame) kingArmedAnvil() bool {
	return g.v.KingArms == KingArmed || g.v.KingArms == KingAnvilOnly
}

// helps reports whether the piece on (f, r) belongs to side s and may take
// part in a capture as the stationary piece (§1.2, §1.4: the king only
// when he is armed as an anvil).
func (g *refGame) helps(f, r int, s Side) bool {
	pc := g.at(f, r)
	if pc == Empty || pc.Side() != s {
		return false
	}
	return pc != King || g.kingArmedAnvil()
}

// movesOf appends every legal ply of the piece on (f, r) (§1.1).
func (g *refGame) movesOf(f, r int, dst []Move) []Move {
	pc := g.cells[r][f]
	for _, d := range refDirs {
		for x, y := f+d[0], r+d[1]; g.inside(x, y) && g.cells[y][x] == Empty; x, y = x+d[0], y+d[1] {
			if g.mayStop(pc, x, y) {
				dst = append(dst, Move{From: SquareAt(f, r), To: SquareAt(x, y)})
			}
			if !g.mayPass(pc, x, y) {
				break
			}
		}
	}
	return dst
}

// allMoves returns every ply of side s, sorted, ignoring whether the game
// is over.
func (g *refGame) allMoves(s Side) []Move {
	var out []Move
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if pc := g.cells[r][f]; pc != Empty && pc.Side() == s {
				out = g.movesOf(f, r, out)
			}
		}
	}
	sortMoves(out)
	return out
}

// legalMoves returns the legal plies of the side to move, sorted, none
// once the game is over. The caller must not change the slice.
func (g *refGame) legalMoves() []Move {
	if g.outcome.Over() {
		return nil
	}
	if !g.known {
		g.legal, g.known = g.allMoves(g.toMove), true
	}
	return g.legal
}

// hasMove reports whether side s has a legal ply.
func (g *refGame) hasMove(s Side) bool {
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if pc := g.cells[r][f]; pc != Empty && pc.Side() == s && len(g.movesOf(f, r, nil)) > 0 {
				return true
			}
		}
	}
	return false
}

func sortMoves(ms []Move) {
	slices.SortFunc(ms, func(a, b Move) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		return int(a.To) - int(b.To)
	})
}

// isLegal reports whether m is one of the legal plies.
func (g *refGame) isLegal(m Move) bool {
	return slices.Contains(g.legalMoves(), m)
}

// findCaptures returns the squares whose pieces the piece that has just
// moved to (tf, tr) captures, on the board with the piece already moved
// and nothing removed yet (§1.2, §1.4, §1.5).
func (g *refGame) findCaptures(tf, tr int) []Square {
	pc := g.cells[tr][tf]
	s := pc.Side()
	var caps []Square
	add := func(f, r int) {
		sq := SquareAt(f, r)
		if !slices.Contains(caps, sq) {
			caps = append(caps, sq)
		}
	}
	hammer := pc != King || g.kingArmedHammer()

	// §1.2 custodial capture of ordinary pieces, and §1.4 the king.
	for _, d := range refDirs {
		vf, vr := tf+d[0], tr+d[1]
		victim := g.at(vf, vr)
		if victim == Empty || victim.Side() == s {
			continue
		}
		if victim == King {
			if g.kingCaptured(vf, vr, d) {
				add(vf, vr)
			}
			continue
		}
		if !hammer {
			continue
		}
		bf, br := vf+d[0], vr+d[1]
		if g.helps(bf, br, s) {
			add(vf, vr)
		} else if g.hostile(bf, br, victim) {
			refStats.hostileAnvil++
			add(vf, vr)
		}
	}

	// §1.5 shieldwall.
	if g.v.Shieldwall && g.isEdge(tf, tr) && (pc != King || g.kingArmedHammer()) {
		for _, d := range refDirs {
			// The row runs along an edge that holds the destination; inward
			// is the step one square in from that edge.
			var in [2]int
			switch {
			case d[1] == 0 && tr == 0:
				in = [2]int{0, 1}
			case d[1] == 0 && tr == g.n-1:
				in = [2]int{0, -1}
			case d[0] == 0 && tf == 0:
				in = [2]int{1, 0}
			case d[0] == 0 && tf == g.n-1:
				in = [2]int{-1, 0}
			default:
				continue
			}
			var row [][2]int
			x, y := tf+d[0], tr+d[1]
			for g.inside(x, y) && g.cells[y][x] != Empty && g.cells[y][x].Side() != s {
				row = append(row, [2]int{x, y})
				x, y = x+d[0], y+d[1]
			}
			if len(row) < 2 { // S1: the king counts toward the two
				continue
			}
			bracket := g.helps(x, y, s) || g.inside(x, y) && g.v.ShieldwallCorners && g.isCorner(x, y) && g.cells[y][x] == Empty
			if !bracket {
				continue
			}
			fronted := true
			for _, q := range row {
				if !g.helps(q[0]+in[0], q[1]+in[1], s) {
					fronted = false
					break
				}
			}
			if !fronted {
				continue
			}
			refStats.shieldwall++
			if g.at(x, y) == Empty {
				refStats.shieldwallCorner++
			}
			byKing := pc == King || g.at(x, y) == King
			for _, q := range row {
				byKing = byKing || g.at(q[0]+in[0], q[1]+in[1]) == King
			}
			if byKing {
				refStats.shieldwallByKing++
			}
			for _, q := range row {
				if g.cells[q[1]][q[0]] != King { // a king in the row survives
					add(q[0], q[1])
				} else {
					refStats.shieldwallKing++
				}
			}
		}
	}
	return caps
}

// kingCaptured reports whether the attacker that has just moved next to
// the king on (kf, kr), arriving from the side opposite to step d (so the
// king is at the mover's square + d), captures him (§1.4).
func (g *refGame) kingCaptured(kf, kr int, d [2]int) bool {
	mode := g.v.KingCapture
	if mode == CaptureStrongNearThrone {
		mode = CaptureWeak
		if g.v.Throne.Present {
			c := g.n / 2
			if dist := refAbs(kf-c) + refAbs(kr-c); dist <= 1 {
				mode = CaptureStrong
			}
		}
	}
	if mode == CaptureWeak {
		// Two sides on one line: the mover and the square beyond the king.
		bf, br := kf+d[0], kr+d[1]
		if g.at(bf, br) == Attacker || g.hostile(bf, br, King) {
			refStats.kingByTwo++
			return true
		}
		return false
	}
	// Four sides: attackers or hostile squares; the edge counts only under
	// the three-sides edge rule.
	for _, e := range refDirs {
		x, y := kf+e[0], kr+e[1]
		if !g.inside(x, y) {
			if g.v.KingEdge != EdgeThreeSides {
				return false
			}
			continue
		}
		if g.cells[y][x] != Attacker && !g.hostile(x, y, King) {
			return false
		}
	}
	refStats.kingByFour++
	if g.isEdge(kf, kr) {
		refStats.kingOnEdgeThree++
	}
	return true
}

func refAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// capturesOf returns what m would capture, leaving the game unchanged.
func (g *refGame) capturesOf(m Move) []Square {
	ff, fr, tf, tr := m.From.File(), m.From.Rank(), m.To.File(), m.To.Rank()
	pc := g.cells[fr][ff]
	saved := refStats // a look-ahead is not an event
	g.cells[fr][ff], g.cells[tr][tf] = Empty, pc
	caps := g.findCaptures(tf, tr)
	g.cells[fr][ff], g.cells[tr][tf] = pc, Empty
	refStats = saved
	return caps
}

// play makes the legal ply m and returns the captured squares.
func (g *refGame) play(m Move) []Square {
	ff, fr, tf, tr := m.From.File(), m.From.Rank(), m.To.File(), m.To.Rank()
	pc := g.cells[fr][ff]
	g.cells[fr][ff], g.cells[tr][tf] = Empty, pc
	caps := g.findCaptures(tf, tr)
	kingTaken := false
	for _, c := range caps {
		if g.cells[c.Rank()][c.File()] == King {
			kingTaken = true
		}
		g.cells[c.Rank()][c.File()] = Empty
	}
	g.toMove = g.toMove.Opponent()
	g.ply++
	g.legal, g.known = nil, false
	g.history = append(g.history, g.snapshot())
	g.outcome = g.judge(kingTaken)
	return caps
}

// king returns the king's square and whether he is on the board.
func (g *refGame) king() (int, int, bool) {
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if g.cells[r][f] == King {
				return f, r, true
			}
		}
	}
	return 0, 0, false
}

func (g *refGame) escaped() bool {
	kf, kr, ok := g.king()
	if !ok {
		return false
	}
	if g.v.Escape == EscapeEdge {
		return g.isEdge(kf, kr)
	}
	return g.isCorner(kf, kr)
}

// judge is RULES.md §1.6, in its order, after a ply.
func (g *refGame) judge(kingTaken bool) Outcome {
	end := func(r Result, why Reason) Outcome { return Outcome{Result: r, Reason: why, Ply: g.ply} }
	switch {
	case g.escaped():
		return end(DefendersWin, ReasonEscape)
	case kingTaken:
		return end(AttackersWin, ReasonKingCaptured)
	case g.v.EdgeFort && g.edgeFort():
		return end(DefendersWin, ReasonEdgeFort)
	case g.v.Encirclement && g.encircled():
		return end(AttackersWin, ReasonEncirclement)
	}
	if g.repetitions() >= 3 {
		switch g.v.Repetition {
		case RepetitionAttackersWin:
			return end(AttackersWin, ReasonRepetition)
		case RepetitionDefendersWin:
			return end(DefendersWin, ReasonRepetition)
		case RepetitionDraw:
			return end(Draw, ReasonRepetition)
		case RepetitionSideToMoveLoses:
			return end(refWin(g.toMove.Opponent()), ReasonRepetition)
		case RepetitionSideToMoveWins:
			return end(refWin(g.toMove), ReasonRepetition)
		}
	}
	if !g.hasMove(g.toMove) {
		if g.v.NoMove == NoMoveDraw {
			return end(Draw, ReasonNoLegalMove)
		}
		return end(refWin(g.toMove.Opponent()), ReasonNoLegalMove)
	}
	return Outcome{}
}

// setupOutcome is the outcome of a set-up position (NewPositionFromBoard's
// contract: escape, edge fort, encirclement or no legal move, with Ply 0).
func (g *refGame) setupOutcome() Outcome {
	return g.judge(false)
}

func refWin(s Side) Result {
	if s == Attackers {
		return AttackersWin
	}
	return DefendersWin
}

// repetitions counts the positions in the whole history equal to the
// current one (board and side to move), the current one included.
func (g *refGame) repetitions() int {
	cur := g.history[len(g.history)-1]
	n := 0
	for _, h := range g.history {
		if h.toMove != cur.toMove {
			continue
		}
		same := true
		for r := 0; r < g.n && same; r++ {
			for f := 0; f < g.n; f++ {
				if h.cells[r][f] != cur.cells[r][f] {
					same = false
					break
				}
			}
		}
		if same {
			n++
		}
	}
	return n
}

// flood returns the squares reachable from the start squares by orthogonal
// steps onto squares for which open is true (the start squares included).
func (g *refGame) flood(starts [][2]int, open func(f, r int) bool) [][]bool {
	seen := make([][]bool, g.n)
	for r := range seen {
		seen[r] = make([]bool, g.n)
	}
	queue := slices.Clone(starts)
	for _, s := range starts {
		seen[s[1]][s[0]] = true
	}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, d := range refDirs {
			x, y := q[0]+d[0], q[1]+d[1]
			if g.inside(x, y) && !seen[y][x] && open(x, y) {
				seen[y][x] = true
				queue = append(queue, [2]int{x, y})
			}
		}
	}
	return seen
}

// edgeFort is §1.6.3, read literally.
func (g *refGame) edgeFort() bool {
	kf, kr, ok := g.king()
	if !ok || !g.isEdge(kf, kr) { // (a)
		return false
	}
	if len(g.movesOf(kf, kr, nil)) == 0 { // (b)
		return false
	}
	inF := g.flood([][2]int{{kf, kr}}, func(f, r int) bool { return g.cells[r][f] == Empty })
	in := func(f, r int) bool { return g.inside(f, r) && inF[r][f] }
	wall := make([][]bool, g.n)
	for r := range wall {
		wall[r] = make([]bool, g.n)
	}
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if !inF[r][f] {
				continue
			}
			for _, d := range refDirs {
				x, y := f+d[0], r+d[1]
				switch g.at(x, y) {
				case Attacker: // (c)
					return false
				case Defender:
					if !in(x, y) {
						wall[y][x] = true
					}
				}
			}
		}
	}
	// (d) each wall defender has, on its rank and on its file, a neighbour
	// off the board, in F, or in the wall.
	good := func(x, y int) bool { return !g.inside(x, y) || inF[y][x] || wall[y][x] }
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if !wall[r][f] {
				continue
			}
			if !good(f-1, r) && !good(f+1, r) {
				return false
			}
			if !good(f, r-1) && !good(f, r+1) {
				return false
			}
		}
	}
	return true
}

// encircled is §1.6.4 with Decision E1: no defender and not the king can
// reach the edge over squares that hold no attacker.
func (g *refGame) encircled() bool {
	var starts [][2]int
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if pc := g.cells[r][f]; pc == Defender || pc == King {
				starts = append(starts, [2]int{f, r})
			}
		}
	}
	seen := g.flood(starts, func(f, r int) bool { return g.cells[r][f] != Attacker })
	for r := 0; r < g.n; r++ {
		for f := 0; f < g.n; f++ {
			if seen[r][f] && g.isEdge(f, r) {
				return false
			}
		}
	}
	return true
}

// draw renders the reference board the way draw renders a Position.
func (g *refGame) draw() string {
	var sb strings.Builder
	for r := g.n - 1; r >= 0; r-- {
		for f := 0; f < g.n; f++ {
			sb.WriteByte(".tTK"[g.cells[r][f]])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// refPerft is perft (shared/cases/perft.md) under the reference rules.
func refPerft(g *refGame, depth int) (nodes, ends uint64) {
	if depth == 0 {
		if g.outcome.Over() {
			return 1, 1
		}
		return 1, 0
	}
	for _, m := range g.legalMoves() {
		c := g.clone()
		c.play(m)
		n, e := refPerft(c, depth-1)
		nodes += n
		ends += e
	}
	return nodes, ends
}

func (g *refGame) clone() *refGame {
	c := *g
	s := g.snapshot()
	c.cells = s.cells
	c.history = slices.Clone(g.history) // snapshots are never changed
	c.legal, c.known = nil, false
	return &c
}

// ---- the differential driver ----

// diffRun plays one game under the engine and the reference in lockstep.
type diffRun struct {
	t      testing.TB
	label  string
	start  string // diagram of the set-up position, for failure messages
	p      *Position
	r      *refGame
	played []Move
	before string // the reference board before the last ply
}

// newDiffRun starts a differential game from p (which it takes over).
func newDiffRun(t testing.TB, label string, p *Position) *diffRun {
	t.Helper()
	d := &diffRun{t: t, label: label, start: draw(p), p: p}
	d.r = newRefGame(p.Variant(), p.Board(), p.ToMove())
	if got, want := p.Outcome(), d.r.outcome; got != want {
		d.fail("set-up Outcome() = %+v, reference %+v", got, want)
	}
	return d
}

func (d *diffRun) fail(format string, args ...any) {
	d.t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: ", d.label)
	fmt.Fprintf(&sb, format, args...)
	fmt.Fprintf(&sb, "\nvariant %s, %v to move at the start:\n%s", d.r.v.Name, d.startSide(), d.start)
	fmt.Fprintf(&sb, "moves: %s\n", joinMoves(d.played))
	if d.before != "" {
		fmt.Fprintf(&sb, "reference board before the last ply (%v to move):\n%s", d.r.toMove.Opponent(), d.before)
	}
	fmt.Fprintf(&sb, "reference board now (%v to move):\n%s", d.r.toMove, d.r.draw())
	d.t.Fatal(sb.String())
}

func (d *diffRun) startSide() Side {
	s := d.r.toMove
	if len(d.played)%2 == 1 {
		s = s.Opponent()
	}
	return s
}

func joinMoves(ms []Move) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.String()
	}
	return strings.Join(parts, " ")
}

// legal compares the legal plies of both and returns the reference's,
// sorted.
func (d *diffRun) legal() []Move {
	d.t.Helper()
	want := d.r.legalMoves()
	got := d.p.LegalMoves(nil)
	sorted := slices.Clone(got)
	sortMoves(sorted)
	if !slices.Equal(sorted, want) {
		var missing, extra []Move
		for _, m := range want {
			if !slices.Contains(got, m) {
				missing = append(missing, m)
			}
		}
		for _, m := range got {
			if !slices.Contains(want, m) {
				extra = append(extra, m)
			}
		}
		d.fail("LegalMoves: %d moves, reference %d; missing %s; extra %s (duplicates show as neither)",
			len(got), len(want), joinMoves(missing), joinMoves(extra))
	}
	return want
}

// checkState compares everything the engine shows of the position with the
// reference, and the engine's invariants.
func (d *diffRun) checkState() {
	d.t.Helper()
	p, r := d.p, d.r
	if got, want := draw(p), r.draw(); got != want {
		d.fail("board\n%s, reference\n%s", got, want)
	}
	if p.ToMove() != r.toMove || p.Ply() != r.ply {
		d.fail("ToMove, Ply = %v, %d; reference %v, %d", p.ToMove(), p.Ply(), r.toMove, r.ply)
	}
	if got, want := p.Outcome(), r.outcome; got != want {
		d.fail("Outcome() = %+v, reference %+v", got, want)
	}
	if got, want := p.Repetitions(), r.repetitions(); got != want {
		d.fail("Repetitions() = %d, reference %d", got, want)
	}
	b := p.Board()
	for rank := 0; rank < r.n; rank++ {
		for file := 0; file < r.n; file++ {
			if b.At(SquareAt(file, rank)) != r.cells[rank][file] {
				d.fail("Board() differs from At() on %v", SquareAt(file, rank))
			}
		}
	}
	kf, kr, kingOn := r.king()
	if ks, ok := p.King(); ok != kingOn || ok && ks != SquareAt(kf, kr) {
		d.fail("King() = %v, %v", ks, ok)
	}
	if kingOn {
		fresh, err := NewPositionFromBoard(p.Variant(), b, p.ToMove())
		if err != nil {
			d.fail("NewPositionFromBoard(Board()): %v", err)
		}
		if fresh.Key() != p.Key() {
			d.fail("incremental Key() = %x, key of a fresh position %x", p.Key(), fresh.Key())
		}
	}
}

// pieceCounts returns the number of attackers, defenders and kings.
func pieceCounts(p *Position) [3]int {
	return [3]int{p.Count(Attacker), p.Count(Defender), p.Count(King)}
}

// step plays m (legal) under both, checking that Make/Unmake restore the
// position bit for bit, that Play agrees with Make, and that the result
// agrees with the reference.
func (d *diffRun) step(m Move) {
	d.t.Helper()
	d.before = ""
	p := d.p
	beforeDraw, beforeKey, beforeOut, beforeRep, beforeCounts := draw(p), p.Key(), p.Outcome(), p.Repetitions(), pieceCounts(p)

	u := p.Make(m)
	madeDraw, madeKey, madeOut := draw(p), p.Key(), p.Outcome()
	// One ply deeper and back, to exercise nested Unmake.
	if !p.Outcome().Over() {
		if ms := p.LegalMoves(nil); len(ms) > 0 {
			u2 := p.Make(ms[len(ms)/2])
			p.Unmake(u2)
			if draw(p) != madeDraw || p.Key() != madeKey || p.Outcome() != madeOut {
				d.fail("Unmake(%v) after %v did not restore the position", ms[len(ms)/2], m)
			}
		}
	}
	p.Unmake(u)
	if draw(p) != beforeDraw || p.Key() != beforeKey || p.Outcome() != beforeOut || p.Repetitions() != beforeRep {
		d.fail("Unmake(Make(%v)) did not restore the position: key %x, want %x; outcome %+v, want %+v; board\n%s",
			m, p.Key(), beforeKey, p.Outcome(), beforeOut, draw(p))
	}

	res, err := p.Play(m)
	if err != nil {
		d.fail("Play(%v) = %v, but the move is legal", m, err)
	}
	if draw(p) != madeDraw || p.Key() != madeKey || p.Outcome() != madeOut {
		d.fail("Play(%v) and Make(%v) reach different positions", m, m)
	}
	d.before = d.r.draw()
	wantCaps := d.r.play(m)
	d.played = append(d.played, m)
	gotCaps := slices.Clone(res.Captures)
	slices.Sort(gotCaps)
	slices.Sort(wantCaps)
	if !slices.Equal(gotCaps, wantCaps) {
		d.fail("Play(%v) captured %v, reference %v", m, gotCaps, wantCaps)
	}
	if res.Outcome != p.Outcome() || res.Move != m {
		d.fail("PlyResult %+v disagrees with Outcome() %+v", res, p.Outcome())
	}
	after := pieceCounts(p)
	for i := range after {
		if after[i] > beforeCounts[i] {
			d.fail("piece counts grew from %v to %v", beforeCounts, after)
		}
	}
	if lost := beforeCounts[0] + beforeCounts[1] + beforeCounts[2] - after[0] - after[1] - after[2]; lost != len(res.Captures) {
		d.fail("%d pieces left the board, but Play reported captures %v", lost, res.Captures)
	}
	d.checkState()
}

// probe checks Check against the reference for a move that may or may not
// be legal.
func (d *diffRun) probe(m Move) {
	d.t.Helper()
	err := d.p.Check(m)
	if legal := d.r.isLegal(m); legal != (err == nil) {
		d.fail("Check(%v) = %v, reference legal = %v", m, err, legal)
	}
	if err != nil {
		key := d.p.Key()
		if _, perr := d.p.Play(m); perr == nil || d.p.Key() != key {
			d.fail("Play(%v) of an illegal move: err %v, key changed %v", m, perr, d.p.Key() != key)
		}
	}
}

// reverse returns the move that takes back the mover's previous ply, if the
// side to move has played before.
func (d *diffRun) reverse() (Move, bool) {
	if len(d.played) < 2 {
		return Move{}, false
	}
	m := d.played[len(d.played)-2]
	return Move{From: m.To, To: m.From}, true
}

// ---- random playouts ----

// playoutPolicy picks moves so that random games reach the game ends.
type playoutPolicy struct {
	captureBias float64 // chance to play a capturing move when there is one
	kingBias    float64 // chance for the defenders to move the king
	huntBias    float64 // chance for the attackers to move next to the king
	shuffleFrom int     // from this ply on, take back own moves (repetition); -1 never
}

func randomPolicy(rng *rand.Rand) playoutPolicy {
	pol := playoutPolicy{
		captureBias: rng.Float64() * 0.9,
		kingBias:    rng.Float64() * 0.4,
		huntBias:    rng.Float64() * 0.6,
		shuffleFrom: -1,
	}
	if rng.IntN(3) == 0 {
		pol.shuffleFrom = rng.IntN(120)
	}
	return pol
}

// choose picks a move among the reference's legal moves.
func (d *diffRun) choose(rng *rand.Rand, pol playoutPolicy, legal []Move) Move {
	r := d.r
	if pol.shuffleFrom >= 0 && r.ply >= pol.shuffleFrom && rng.IntN(10) != 0 {
		if m, ok := d.reverse(); ok && slices.Contains(legal, m) {
			return m
		}
	}
	if rng.Float64() < pol.captureBias {
		var caps []Move
		for _, m := range legal {
			if len(r.capturesOf(m)) > 0 {
				caps = append(caps, m)
			}
		}
		if len(caps) > 0 {
			return caps[rng.IntN(len(caps))]
		}
	}
	kf, kr, kingOn := r.king()
	if kingOn && r.toMove == Defenders && rng.Float64() < pol.kingBias {
		var km []Move
		for _, m := range legal {
			if m.From == SquareAt(kf, kr) {
				km = append(km, m)
			}
		}
		if len(km) > 0 {
			return km[rng.IntN(len(km))]
		}
	}
	if kingOn && r.toMove == Attackers && rng.Float64() < pol.huntBias {
		var near []Move
		for _, m := range legal {
			if refAbs(m.To.File()-kf)+refAbs(m.To.Rank()-kr) <= 2 {
				near = append(near, m)
			}
		}
		if len(near) > 0 {
			return near[rng.IntN(len(near))]
		}
	}
	return legal[rng.IntN(len(legal))]
}

// playout plays one random game of at most maxPlies plies from p and
// returns its outcome.
func playout(t testing.TB, label string, p *Position, rng *rand.Rand, maxPlies int) Outcome {
	t.Helper()
	d := newDiffRun(t, label, p)
	d.checkState()
	pol := randomPolicy(rng)
	n := d.r.n
	for ply := 0; ply < maxPlies; ply++ {
		legal := d.legal()
		if len(legal) == 0 {
			break
		}
		// A few arbitrary moves through Check, legal or not.
		for range 2 {
			d.probe(Move{From: SquareAt(rng.IntN(n), rng.IntN(n)), To: SquareAt(rng.IntN(n), rng.IntN(n))})
		}
		m := legal[rng.IntN(len(legal))]
		d.probe(Move{From: m.From, To: SquareAt(rng.IntN(n), m.From.Rank())})
		d.step(d.choose(rng, pol, legal))
	}
	if d.p.Outcome().Over() {
		if ms := d.p.LegalMoves(nil); len(ms) != 0 {
			d.fail("LegalMoves after the end = %v", ms)
		}
	}
	return d.p.Outcome()
}

// nearEnd lists set-up positions close to the rarer game ends, so that the
// random playouts reach them: edge forts, encirclements, no legal move.
var nearEnd = []struct {
	name, rules string
	toMove      Side
	rows        []string
}{
	{
		// The king on the bottom edge inside a half-built fort.
		name: "fort", rules: "copenhagen", toMove: Defenders,
		rows: []string{
			"...........",
			"...t.......",
			"...........",
			"........t..",
			"...........",
			"..t........",
			".......t...",
			"...........",
			"....TT.....",
			"...T..T....",
			"....K...T..",
		},
	},
	{
		// A ring of attackers almost closed round the defenders.
		name: "ring", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			"...........",
			"...........",
			"....ttt....",
			"...t...t...",
			"..t..T..t..",
			"..t.TKT.t..",
			"..t..T..t..",
			"...t...t...",
			"....t.t....",
			"...........",
			".....t.....",
		},
	},
	{
		// The same ring under edge-escape rules with a weak king.
		name: "ring", rules: "historical", toMove: Attackers,
		rows: []string{
			"...........",
			"...........",
			"....ttt....",
			"...t...t...",
			"..t..T..t..",
			"..t.TKT.t..",
			"..t..T..t..",
			"...t...t...",
			"....t.t....",
			"...........",
			".....t.....",
		},
	},
	{
		// Few pieces on a small board: no-move positions, strong king.
		name: "cramped", rules: "vingolf", toMove: Attackers,
		rows: []string{
			".tKt...",
			"..t....",
			".......",
			".......",
			".......",
			"t.....t",
			".T...t.",
		},
	},
	{
		// Brandubh with the king boxed in near the throne.
		name: "boxed", rules: "brandubh", toMove: Attackers,
		rows: []string{
			".......",
			"...t...",
			"..t.t..",
			"..tK.t.",
			"...t...",
			".......",
			".......",
		},
	},
	{
		// A shieldwall along the bottom edge.
		name: "shieldwall", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			"...........",
			"...........",
			"...........",
			".....K.....",
			"...........",
			"...........",
			"...........",
			"...........",
			".......t...",
			"..ttttt....",
			".tTTTTT....",
		},
	},
	{
		// The king in a defender row on the bottom edge: a shieldwall
		// round the king (S1).
		name: "kingwall", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			"...........",
			"...........",
			".T.......T.",
			"...........",
			"...........",
			"...........",
			"...........",
			"......t....",
			"...........",
			"...ttt.....",
			"..tKTT.....",
		},
	},
	{
		// Shieldwalls closed by the corner a1 (attackers) and helped by the
		// king as a front piece (defenders).
		name: "cornerwall", rules: "copenhagen", toMove: Attackers,
		rows: []string{
			"...........",
			"...........",
			"........t..",
			".....t.....",
			"...........",
			"...........",
			"....t......",
			".........T.",
			"...........",
			".ttt...TK..",
			".TTT...tt..",
		},
	},
	{
		// The king as the moving bracket of a defenders' shieldwall.
		name: "kingbracket", rules: "copenhagen", toMove: Defenders,
		rows: []string{
			"...........",
			"...........",
			"...t.......",
			"...........",
			"...........",
			"......K..t.",
			"...........",
			"...........",
			"...........",
			".......TT..",
			".......ttT.",
		},
	},
	{
		// Tablut with few pieces: edge escape and weak king captures.
		name: "open", rules: "tablut", toMove: Defenders,
		rows: []string{
			".........",
			"...t.....",
			".........",
			"...T.t...",
			"....K..t.",
			".t.......",
			".........",
			"....t....",
			".........",
		},
	},
	{
		// Fetlar: draws by no move and by repetition.
		name: "cramped", rules: "fetlar", toMove: Defenders,
		rows: []string{
			".tKt...",
			"..t....",
			".......",
			".......",
			".......",
			"......t",
			".T..tt.",
		},
	},
}

// randomSetup returns a random legal set-up board for v: the king near an
// edge with defenders crowded round him (so that forts, half-forts and
// pockets appear), and attackers scattered with a random density.
func randomSetup(rng *rand.Rand, v *Variant) Board {
	n := v.Size
	g := newRefGame(v, NewBoard(n), Attackers) // only for the square rules
	b := NewBoard(n)
	var kf, kr int
	for {
		kf, kr = rng.IntN(n), rng.IntN(n)
		if rng.IntN(3) != 0 { // mostly on or next to an edge
			switch rng.IntN(4) {
			case 0:
				kr = rng.IntN(2)
			case 1:
				kr = n - 1 - rng.IntN(2)
			case 2:
				kf = rng.IntN(2)
			default:
				kf = n - 1 - rng.IntN(2)
			}
		}
		if g.mayStop(King, kf, kr) {
			break
		}
	}
	b.Set(SquareAt(kf, kr), King)
	radius := 1 + rng.IntN(4)
	defenders, attackers := 0.2+rng.Float64()*0.6, rng.Float64()*0.25
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			if f == kf && r == kr {
				continue
			}
			var pc Piece
			near := refAbs(f-kf) <= radius && refAbs(r-kr) <= radius
			switch x := rng.Float64(); {
			case near && x < defenders:
				pc = Defender
			case !near && x < defenders/8:
				pc = Defender
			case x > 1-attackers*map[bool]float64{true: 0.3, false: 1}[near]:
				pc = Attacker
			}
			if pc != Empty && g.mayStop(pc, f, r) {
				b.Set(SquareAt(f, r), pc)
			}
		}
	}
	return b
}

// TestReferenceSetups compares the engine with the reference on random
// set-up positions (their Outcome with Ply 0, then a short random game),
// which reach forts, half-built forts and pockets far more often than games
// from the start.
func TestReferenceSetups(t *testing.T) {
	boards, maxPlies := 200, 30
	if testing.Short() || raceEnabled { // .ci/run runs the full count without -race
		boards = 50
		if raceEnabled {
			boards = 10
		}
	}
	total := map[Reason]int{}
	for vi, v := range Variants() {
		t.Run(v.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(vi)+1, 0x5e7))
			seen := map[Reason]int{}
			for i := range boards {
				b := randomSetup(rng, v)
				side := Side(rng.IntN(2))
				p, err := NewPositionFromBoard(v, b, side)
				if err != nil {
					t.Fatalf("set-up %d: %v", i, err)
				}
				seen[p.Outcome().Reason]++
				playout(t, fmt.Sprintf("%s set-up %d", v.Name, i), p, rng, maxPlies)
			}
			t.Logf("%d set-ups, set-up outcomes by reason: %v", boards, seen)
			for r, n := range seen {
				total[r] += n
			}
		})
	}
	t.Logf("all set-ups by reason: %v", total)
}

// TestReferenceAgrees plays random games under the engine and the reference
// and compares them after every ply (STYLE.md "engine", differential test).
func TestReferenceAgrees(t *testing.T) {
	games, maxPlies := 200, 300
	if testing.Short() || raceEnabled { // .ci/run runs the full count without -race
		games, maxPlies = 30, 200
		if raceEnabled {
			games = 6
		}
	}
	type tally map[Reason]int
	total := tally{}
	for vi, v := range Variants() {
		t.Run(v.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(vi)+1, 0x7461666c))
			seen := tally{}
			// Big boards are slow to compare: fewer games on them, more
			// on small ones.
			games := max(min(games*11*11/(v.Size*v.Size), 2*games), 5)
			for i := range games {
				p, err := NewPosition(v)
				if err != nil {
					t.Fatal(err)
				}
				o := playout(t, fmt.Sprintf("%s game %d", v.Name, i), p, rng, maxPlies)
				seen[o.Reason]++
			}
			t.Logf("%d games, ends by reason: %v", games, seen)
			for r, n := range seen {
				total[r] += n
			}
		})
	}
	for i, ne := range nearEnd {
		t.Run(ne.rules+"/"+ne.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i)+100, 0x7461666c))
			seen := tally{}
			for g := range games {
				p := diagram(t, ne.rules, ne.toMove, ne.rows...)
				o := playout(t, fmt.Sprintf("%s/%s game %d", ne.rules, ne.name, g), p, rng, maxPlies/2)
				seen[o.Reason]++
			}
			t.Logf("%d games, ends by reason: %v", games, seen)
			for r, n := range seen {
				total[r] += n
			}
		})
	}
	t.Logf("all games, ends by reason: %v", total)
	t.Logf("captures: %+v", refStats)
	if !testing.Short() && !raceEnabled {
		st := refStats
		for _, c := range []struct {
			what string
			n    int
		}{
			{"shieldwall", st.shieldwall}, {"shieldwall with the king", st.shieldwallKing},
			{"shieldwall helped by the king", st.shieldwallByKing}, {"shieldwall closed by a corner", st.shieldwallCorner},
			{"capture against a hostile square", st.hostileAnvil},
			{"king captured on four sides", st.kingByFour}, {"king captured on two sides", st.kingByTwo},
			{"king captured on the edge by three", st.kingOnEdgeThree},
		} {
			if c.n == 0 {
				t.Errorf("no random game made a %s; the differential test does not cover it", c.what)
			}
		}
		// The playouts are deterministic and chosen from the reference's
		// moves, so every engine end must have been exercised.
		for r := ReasonEscape; r <= ReasonNoLegalMove; r++ {
			if total[r] == 0 {
				t.Errorf("no random game ended by %v; the differential test does not cover it", r)
			}
		}
	}
}
