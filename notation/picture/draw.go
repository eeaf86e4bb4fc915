package picture

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// The drawing: what a picture shows and where, painted in layers onto a
// painter, which the SVG and the PNG writer each implement. Drawing
// coordinates have their origin at the top left and y growing downwards,
// as in SVG and in images; rank 1 is the bottom row.

// imgStyle is how a shape is painted. A colour with zero alpha is not
// painted: a shape with only a fill is filled, with only a stroke it is
// outlined, with both it is filled and then outlined.
type imgStyle struct {
	fill   color.RGBA
	stroke color.RGBA
	width  float64 // of the stroke, centred on the outline
	round  bool    // round caps on lines, round joins on polygons
}

func imgFill(c color.RGBA) imgStyle { return imgStyle{fill: c} }

func imgStroke(c color.RGBA, width float64) imgStyle { return imgStyle{stroke: c, width: width} }

// imgPainter is what the drawing paints on. Each shape is painted over
// the ones before it.
type imgPainter interface {
	// rect paints the rectangle with top-left corner (x, y); a stroke has
	// mitred corners.
	rect(x, y, w, h float64, st imgStyle)
	// circle paints the disc of radius r centred on (cx, cy).
	circle(cx, cy, r float64, st imgStyle)
	// line strokes the segment from (x1, y1) to (x2, y2); st.fill is
	// ignored.
	line(x1, y1, x2, y2 float64, st imgStyle)
	// polygon paints the closed polygon through pts.
	polygon(pts []imgPoint, st imgStyle)
	// shape fills an outline of curves (text); only st.fill is used.
	shape(p imgPath, st imgStyle)
}

// imgLayout places the parts of a picture.
type imgLayout struct {
	n             int     // board side
	width, height float64 // whole picture
	x0, y0        float64 // top-left corner of the grid (its first line)
	grid          float64 // side of the grid, lines included
	captionY      float64 // top of the caption under the board
	captionH      float64 // height of the caption
}

func newImgLayout(n, captionLines int) imgLayout {
	l := imgLayout{n: n, x0: imgBand, y0: imgBand}
	if captionLines > 0 {
		l.captionH = float64(captionLines)*imgLineH + imgCapPad
	}
	l.grid = float64(n)*imgSquare + 1
	l.width = 2*imgBand + l.grid
	l.captionY = 2*imgBand + l.grid
	l.height = l.captionY + l.captionH
	return l
}

// squareRect returns the top-left corner of the inside of square s (grid
// lines excluded); the inside is imgSquare-1 wide.
func (l imgLayout) squareRect(s engine.Square) (x, y float64) {
	row := l.n - 1 - s.Rank()
	return l.x0 + float64(s.File())*imgSquare + 1, l.y0 + float64(row)*imgSquare + 1
}

// centre returns the centre of square s.
func (l imgLayout) centre(s engine.Square) (x, y float64) {
	x, y = l.squareRect(s)
	h := (imgSquare - 1) / 2
	return x + h, y + h
}

// imgLine is one caption line under the board.
type imgLine struct {
	text string
	icon engine.Piece // a small disc before the text, or Empty
}

// imgPlan is what a picture shows and where, before anything is drawn.
type imgPlan struct {
	layout   imgLayout
	last     *engine.Move    // nil, or a ply whose squares are on the board
	captured []engine.Square // on the board, in Square order
	lines    []imgLine       // caption, top to bottom
	title    string          // one-line description for the SVG title
}

// imgPlanFor applies opts to p: the last ply and captured squares that lie
// on the board, and the caption lines (the variant's title; the last ply
// and captures; whose ply is next or how the game ended).
func imgPlanFor(p *engine.Position, opts []notation.DiagramOption) imgPlan {
	cfg := notation.Settings(opts...)
	n := p.Size()
	var pl imgPlan
	for _, s := range cfg.Captured {
		if s.OnBoard(n) {
			pl.captured = append(pl.captured, s)
		}
	}
	if m := cfg.LastMove; m != nil && m.From.OnBoard(n) && m.To.OnBoard(n) {
		pl.last = m
	}

	v := p.Variant()
	name := v.Title
	if name == "" {
		name = v.Name
	}
	var ply []string
	if pl.last != nil {
		ply = append(ply, "last ply "+pl.last.String())
	}
	if len(pl.captured) > 0 {
		names := make([]string, len(pl.captured))
		for i, s := range pl.captured {
			names[i] = s.String()
		}
		ply = append(ply, "captured "+strings.Join(names, " "))
	}
	if cfg.Legend {
		if name != "" {
			pl.lines = append(pl.lines, imgLine{text: name})
		}
		if len(ply) > 0 {
			pl.lines = append(pl.lines, imgLine{text: strings.Join(ply, ", ")})
		}
	}
	status := imgLine{text: cfg.Status(p)}
	if o := cfg.End(p); !o.Over() {
		status.icon = imgSideIcon(p.ToMove())
	} else if side, ok := o.Result.Winner(); ok {
		status.icon = imgSideIcon(side)
	}
	if cfg.SideToMove {
		pl.lines = append(pl.lines, status)
	}
	pl.layout = newImgLayout(n, len(pl.lines))
	head := status.text
	if name != "" {
		head = name + ": " + head
	}
	pl.title = strings.Join(append([]string{head}, ply...), ", ")
	return pl
}

// imgDraw paints the picture pl plans for p in layers, each over the
// last: board, marks on restricted squares, coordinates, the last ply's
// arrow, pieces, crosses on captured squares, caption.
func imgDraw(pt imgPainter, fonts imgFonts, p *engine.Position, pl imgPlan) {
	l := pl.layout
	imgDrawBoard(pt, p, pl)
	imgDrawMarks(pt, p, l)
	imgDrawCoordinates(pt, fonts, l)
	if last := pl.last; last != nil && last.From != last.To {
		// An arrow from the from-square's centre to the edge of the piece
		// on the to-square, under the pieces.
		fx, fy := l.centre(last.From)
		tx, ty := l.centre(last.To)
		pt.polygon(imgArrow(fx, fy, tx, ty, imgPieceR+1.5), imgFill(imgColArrow))
	}
	// Piece by piece kind, so that the SVG groups alike shapes; pieces do
	// not overlap, so the order does not show.
	for _, pc := range []engine.Piece{engine.Attacker, engine.Defender, engine.King} {
		var at []imgPoint
		for r := l.n - 1; r >= 0; r-- {
			for f := 0; f < l.n; f++ {
				if s := engine.SquareAt(f, r); p.At(s) == pc {
					cx, cy := l.centre(s)
					at = append(at, imgPoint{cx, cy})
				}
			}
		}
		imgDrawPieces(pt, pc, at, imgPieceR)
	}
	cross := imgStroke(imgColCapture, 5)
	cross.round = true
	for _, s := range pl.captured {
		cx, cy := l.centre(s)
		d := 0.22 * imgSquare
		pt.line(cx-d, cy-d, cx+d, cy+d, cross)
		pt.line(cx-d, cy+d, cx+d, cy-d, cross)
	}
	imgDrawCaption(pt, fonts, pl)
}

// imgRestricted tells the throne and corner squares of p's variant.
func imgRestricted(p *engine.Position) (isThrone, isCorner func(engine.Square) bool) {
	v := p.Variant()
	throne, hasThrone := v.ThroneSquare()
	isThrone = func(s engine.Square) bool { return hasThrone && s == throne }
	isCorner = func(s engine.Square) bool { return v.Corners.Present && v.IsCorner(s) }
	return isThrone, isCorner
}

// imgDrawBoard paints the background, the frame, the squares (restricted
// ones and the last ply's shaded) and the grid.
func imgDrawBoard(pt imgPainter, p *engine.Position, pl imgPlan) {
	l, last, n := pl.layout, pl.last, pl.layout.n
	pt.rect(0, 0, l.width, l.height, imgFill(imgColFrame))
	pt.rect(l.x0-imgBorder, l.y0-imgBorder, l.grid+2*imgBorder, l.grid+2*imgBorder, imgFill(imgColBorder))
	pt.rect(l.x0, l.y0, l.grid, l.grid, imgFill(imgColBoard))

	isThrone, isCorner := imgRestricted(p)
	shade := func(s engine.Square) color.RGBA {
		switch {
		case last != nil && s == last.To:
			return imgColTo
		case last != nil && s == last.From:
			return imgColFrom
		case isThrone(s) || isCorner(s):
			return imgColRestricted
		}
		return color.RGBA{}
	}
	// Shade by shade, so that the SVG groups alike squares; squares do
	// not overlap, so the order does not show.
	inner := imgSquare - 1
	for _, col := range []color.RGBA{imgColRestricted, imgColFrom, imgColTo} {
		for r := n - 1; r >= 0; r-- {
			for f := 0; f < n; f++ {
				if s := engine.SquareAt(f, r); shade(s) == col {
					x, y := l.squareRect(s)
					pt.rect(x, y, inner, inner, imgFill(col))
				}
			}
		}
	}
	for i := 0; i <= n; i++ {
		// Lines lie on half pixels so that the PNG shows them one pixel wide.
		at := float64(i)*imgSquare + 0.5
		pt.line(l.x0+at, l.y0, l.x0+at, l.y0+l.grid, imgStroke(imgColGrid, 1))
		pt.line(l.x0, l.y0+at, l.x0+l.grid, l.y0+at, imgStroke(imgColGrid, 1))
	}
}

// imgDrawMarks draws the marks on restricted squares: ⊕ throne, ⊠ corners,
// as notation.WriteUnicode: first every circle and frame, then every line
// across them, so that the SVG writes the lines as one path.
func imgDrawMarks(pt imgPainter, p *engine.Position, l imgLayout) {
	isThrone, isCorner := imgRestricted(p)
	mark := imgStroke(imgColMark, 1.5)
	for _, lines := range []bool{false, true} {
		for r := l.n - 1; r >= 0; r-- {
			for f := 0; f < l.n; f++ {
				s := engine.SquareAt(f, r)
				cx, cy := l.centre(s)
				switch {
				case isThrone(s) && !lines:
					pt.circle(cx, cy, 0.3*imgSquare, mark)
				case isThrone(s):
					d := 0.3 * imgSquare
					pt.line(cx-d, cy, cx+d, cy, mark)
					pt.line(cx, cy-d, cx, cy+d, mark)
				case isCorner(s) && !lines:
					d := 0.27 * imgSquare
					pt.rect(cx-d, cy-d, 2*d, 2*d, mark)
				case isCorner(s):
					d := 0.27 * imgSquare
					pt.line(cx-d, cy-d, cx+d, cy+d, mark)
					pt.line(cx-d, cy+d, cx+d, cy-d, mark)
				}
			}
		}
	}
}

// imgDrawCoordinates writes the files under and over the board and the
// ranks on both sides.
func imgDrawCoordinates(pt imgPainter, fonts imgFonts, l imgLayout) {
	face := newImgFace(fonts.medium, imgLabelPx)
	m := face.metrics()
	bandH := imgBand - imgBorder
	// Letters share a baseline that centres the x-height in the band.
	baseAbove := (bandH + m.xHeight) / 2
	baseBelow := l.height - l.captionH - (bandH-m.xHeight)/2
	for f := 0; f < l.n; f++ {
		cx, _ := l.centre(engine.SquareAt(f, 0))
		label := string(rune('a' + f))
		imgDrawText(pt, face, label, cx, baseAbove, 0, true)
		imgDrawText(pt, face, label, cx, baseBelow, 0, true)
	}
	for r := l.n - 1; r >= 0; r-- {
		_, cy := l.centre(engine.SquareAt(0, r))
		label := fmt.Sprint(r + 1)
		base := cy + m.capHeight/2
		imgDrawText(pt, face, label, (l.x0-imgBorder)/2, base, 0, true)
		imgDrawText(pt, face, label, l.width-(l.x0-imgBorder)/2, base, 0, true)
	}
}

// imgDrawCaption writes the caption lines under the board, each after its
// icon, if it has one.
func imgDrawCaption(pt imgPainter, fonts imgFonts, pl imgPlan) {
	l := pl.layout
	face := newImgFace(fonts.regular, imgTextPx)
	m := face.metrics()
	for i, ln := range pl.lines {
		top := l.captionY + float64(i)*imgLineH
		base := top + (imgLineH+m.capHeight)/2
		x := imgBand
		avail := l.width - 2*imgBand
		if ln.icon != engine.Empty {
			r := 0.32 * imgLineH
			imgDrawPieces(pt, ln.icon, []imgPoint{{x + r, base - m.capHeight/2}}, r)
			x += 2*r + 6
			avail -= 2*r + 6
		}
		imgDrawText(pt, face, ln.text, x, base, avail, false)
	}
}

// imgSideIcon returns the piece that stands for a side in the caption.
func imgSideIcon(s engine.Side) engine.Piece {
	if s == engine.Defenders {
		return engine.Defender
	}
	return engine.Attacker
}

// imgDrawPieces draws taflmen of kind pc and radius r centred on the
// points at: every body, then every inner ring or crown.
func imgDrawPieces(pt imgPainter, pc engine.Piece, at []imgPoint, r float64) {
	body := imgStyle{stroke: imgColOutline, width: 1.5}
	var ring imgStyle
	switch pc {
	case engine.Attacker:
		body.fill, ring = imgColAttacker, imgStroke(imgColAttackerIn, 1.5)
	case engine.Defender:
		body.fill, ring = imgColDefender, imgStroke(imgColDefenderIn, 1.5)
	case engine.King:
		body.fill, body.width = imgColDefender, 2
	default:
		return
	}
	for _, c := range at {
		pt.circle(c.x, c.y, r, body)
	}
	crown := imgStyle{fill: imgColCrown, stroke: imgColOutline, width: 1.2, round: true}
	for _, c := range at {
		if pc == engine.King {
			pt.polygon(imgCrown(c.x, c.y, r), crown)
		} else {
			pt.circle(c.x, c.y, 0.68*r, ring)
		}
	}
}

// imgCrown returns the outline of the king's crown inside a disc of radius
// r centred on (cx, cy): a base and three points, the middle one highest.
func imgCrown(cx, cy, r float64) []imgPoint {
	pts := []imgPoint{
		{-0.56, 0.45}, {0.56, 0.45}, {0.66, -0.38}, {0.32, -0.04},
		{0, -0.56}, {-0.32, -0.04}, {-0.66, -0.38},
	}
	for i, q := range pts {
		pts[i] = imgPoint{cx + q.x*r, cy + q.y*r}
	}
	return pts
}

// imgArrow returns a filled arrow from (fx, fy) towards (tx, ty) whose tip
// stops short of (tx, ty) by back.
func imgArrow(fx, fy, tx, ty, back float64) []imgPoint {
	dx, dy := tx-fx, ty-fy
	length := math.Hypot(dx, dy)
	ux, uy := dx/length, dy/length // along the arrow
	vx, vy := -uy, ux              // across it
	tip := length - back
	const shaft, headLen, headHalf = 3.0, 15.0, 9.0
	neck := max(tip-headLen, 0)
	at := func(along, across float64) imgPoint {
		return imgPoint{fx + ux*along + vx*across, fy + uy*along + vy*across}
	}
	return []imgPoint{
		at(0, -shaft), at(neck, -shaft), at(neck, -headHalf), at(tip, 0),
		at(neck, headHalf), at(neck, shaft), at(0, shaft),
	}
}

// imgDrawText fills s in the text colour with its baseline at y. With
// centre it is centred on x, otherwise it starts at x. A positive
// maxWidth shrinks wider text to fit.
func imgDrawText(pt imgPainter, face *imgFace, s string, x, y, maxWidth float64, centre bool) {
	p, width := face.outline(s)
	if len(p) == 0 {
		return
	}
	scale := 1.0
	if maxWidth > 0 && width > maxWidth {
		scale = maxWidth / width
	}
	if centre {
		x -= width * scale / 2
	}
	pt.shape(p.transform(scale, x, y), imgFill(imgColText))
}
