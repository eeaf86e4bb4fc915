package engine

// Square kinds in the padded mailbox (see bitboard.go for the layout).
const (
	kindNormal uint8 = iota
	kindThrone
	kindCorner
	kindOff
)

// geometry is what a Variant means for the padded board, precomputed once
// per Position: square kinds, the rules per kind, and masks.
type geometry struct {
	size, w, nw int
	dirs        [4]int

	kind      [maxCells]uint8
	stop      [4]PieceSet // per kind: pieces that may end a ply there
	pass      [4]PieceSet // per kind: pieces that may move through while empty
	hostEmpty [4]PieceSet // per kind: victims the empty square is hostile to
	hostOcc   [4]PieceSet // per kind: victims the occupied square is hostile to

	isEdge     [maxCells]bool
	isEscape   [maxCells]bool
	nearThrone [maxCells]bool   // the throne and its four neighbours
	inward     [maxCells]int    // for edge squares: the step towards the centre
	sqOf       [maxCells]Square // padded index → Square, for on-board indices
	throne     int              // padded index of the throne, -1 without one
	shieldwall bool             // Variant.Shieldwall
	kingHammer bool             // the king captures as the moving piece
	kingAnvil  bool             // the king captures as the stationary piece

	onBoard bitboard
	frame   bitboard // the guard squares, inside the first nw words
	edge    bitboard
}

func newGeometry(v *Variant) *geometry {
	n := v.Size
	g := &geometry{size: n, w: n + 2, throne: -1}
	g.nw = (g.w*g.w + 63) / 64
	g.kingHammer, g.kingAnvil = v.KingArms.hammer(), v.KingArms.anvil()
	g.shieldwall = v.Shieldwall
	g.dirs = [4]int{1, -1, g.w, -g.w}
	for i := range g.kind {
		g.kind[i] = kindOff
	}
	for i := 0; i < g.w*g.w; i++ {
		g.frame.set(i)
	}
	g.stop[kindNormal], g.pass[kindNormal] = AllPieces, AllPieces
	for _, k := range []struct {
		kind uint8
		rule SquareRule
	}{{kindThrone, v.Throne}, {kindCorner, v.Corners}} {
		g.stop[k.kind], g.pass[k.kind] = k.rule.Stop, k.rule.Pass
		g.hostEmpty[k.kind], g.hostOcc[k.kind] = k.rule.HostileEmpty, k.rule.HostileOccupied
	}
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			s := SquareAt(f, r)
			i := g.pad(s)
			g.sqOf[i] = s
			g.kind[i] = kindNormal
			g.onBoard.set(i)
			g.frame.clear(i)
			if t, ok := v.ThroneSquare(); ok && s == t {
				g.kind[i] = kindThrone
				g.throne = i
			}
			if v.Corners.Present && v.IsCorner(s) {
				g.kind[i] = kindCorner
			}
			g.isEscape[i] = v.IsEscape(s)
			if v.IsEdge(s) {
				g.isEdge[i] = true
				g.edge.set(i)
				switch {
				case r == 0:
					g.inward[i] = g.w
				case r == n-1:
					g.inward[i] = -g.w
				case f == 0:
					g.inward[i] = 1
				default:
					g.inward[i] = -1
				}
			}
		}
	}
	if g.throne >= 0 {
		g.nearThrone[g.throne] = true
		for _, d := range g.dirs {
			g.nearThrone[g.throne+d] = true
		}
	}
	return g
}

// pad returns the padded index of an on-board square.
func (g *geometry) pad(s Square) int { return (s.Rank()+1)*g.w + s.File() + 1 }

// square returns the Square of an on-board padded index.
func (g *geometry) square(i int) Square { return g.sqOf[i] }
