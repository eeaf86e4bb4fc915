// Package picture draws Tafl boards as pictures, SVG and PNG, for people
// who would rather look than read: the same board, marks and caption as
// notation's ASCII and Unicode diagrams (notation.WriteASCII), with the
// same options (notation.DiagramOption).
//
// It lives apart from notation because its drawing library
// (github.com/tdewolff/canvas) and the Go fonts are large: the mail
// referee links notation but no picture code (docs/architecture.md, whose
// import table TestImportRules in docs/imports_test.go checks). Only
// cmd/taflmail imports it.
package picture

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/canvas/renderers/rasterizer"
	"github.com/tdewolff/canvas/renderers/svg"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// Board pictures (SVG and PNG) are drawn once, with tdewolff/canvas, and
// handed to its SVG writer or its rasterizer, so both formats show the same
// picture. One drawing unit is one pixel of the PNG. Text is drawn as glyph
// outlines from the Go fonts (golang.org/x/image/font/gofont), so neither
// format needs a font on the machine that shows it.

// Picture geometry, in drawing units (PNG pixels).
const (
	imgSquare  = 48.0 // side of one square, grid line included
	imgBand    = 28.0 // coordinate band on each side of the board
	imgBorder  = 2.0  // dark frame around the grid
	imgLineH   = 24.0 // height of one caption line
	imgCapPad  = 6.0  // space under the last caption line
	imgPieceR  = 18.0 // radius of a taflman
	imgLabelPx = 15.0 // em size of the coordinates
	imgTextPx  = 14.0 // em size of the caption
)

// Picture colours.
var (
	imgColFrame      = canvas.Hex("#f6efdf") // background, coordinate bands, caption
	imgColBorder     = canvas.Hex("#5a4226") // frame around the grid
	imgColBoard      = canvas.Hex("#e4c78f") // ordinary square
	imgColGrid       = canvas.Hex("#8a6a3e") // grid lines
	imgColRestricted = canvas.Hex("#c49a5c") // throne and corners
	imgColMark       = canvas.Hex("#6b4a22") // ⊕ and ⊠ marks on restricted squares
	imgColFrom       = canvas.Hex("#c3daf0") // last ply's from-square
	imgColTo         = canvas.Hex("#8fbbe6") // last ply's to-square
	imgColArrow      = canvas.Hex("#2a5fa5") // last ply's arrow
	imgColCapture    = canvas.Hex("#d01c2c") // cross on a just-captured square
	imgColText       = canvas.Hex("#3e2c16") // coordinates and caption
	imgColAttacker   = canvas.Hex("#262322") // attacker body
	imgColAttackerIn = canvas.Hex("#57524d") // attacker inner ring
	imgColDefender   = canvas.Hex("#faf6ea") // defender and king body
	imgColDefenderIn = canvas.Hex("#c9bea4") // defender inner ring
	imgColOutline    = canvas.Hex("#1b1816") // piece outline
	imgColCrown      = canvas.Hex("#d9a521") // the king's crown
)

// WriteSVG draws p as an SVG picture: the board with files a.. above and
// below and ranks on both sides (RULES.md §0), attackers as dark discs,
// defenders as light discs, the king as a light disc with a gold crown,
// the throne shaded and marked ⊕, restricted corners shaded and marked ⊠
// (as notation.WriteUnicode). It takes the options of notation.WriteASCII:
// WithLastMove shades the from-square pale blue and the to-square darker
// blue and draws an arrow between them; WithCaptures puts a red cross on
// each square. Under the board, the legend names the variant and, on a
// second line, the last ply and its captures (WithoutLegend drops both),
// and the last line says whose ply is next or how the game ended
// (WithoutSideToMove drops it; WithOutcome gives an end the board cannot
// show, such as a resignation). Squares off the board are ignored. Text is drawn as outlines, so no
// font is needed to view it; one drawing unit is one pixel of WritePNG's
// picture, and the root element carries a <title> with the same facts.
// It returns the first write error.
func WriteSVG(w io.Writer, p *engine.Position, opts ...notation.DiagramOption) error {
	c, title, err := imgDraw(p, opts)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	width, height := c.Size()
	r := svg.New(&buf, width, height, &svg.Options{SizeUnits: "px", ImageEncoding: canvas.Lossless})
	c.RenderTo(r)
	if err := r.Close(); err != nil {
		return fmt.Errorf("picture: drawing SVG: %w", err)
	}
	// One element per line, so that golden files diff well; no '>' occurs
	// inside an attribute (paths and colours only). The title goes right
	// after the root element, where SVG viewers look for it.
	out := bytes.ReplaceAll(buf.Bytes(), []byte(">"), []byte(">\n"))
	head, rest, _ := bytes.Cut(out, []byte("\n"))
	var sb bytes.Buffer
	sb.Grow(len(out) + 3*len(title))
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	sb.Write(head)
	sb.WriteString("\n<title>" + html.EscapeString(title) + "</title>\n")
	sb.Write(rest)
	_, err = w.Write(sb.Bytes())
	return err
}

// WritePNG draws p as a PNG picture, the same drawing as WriteSVG at one
// pixel per drawing unit: 48 pixels per square and 28 for the coordinates
// on each side, so a 7×7 board is 393 pixels wide, 11×11 585 and 19×19
// 969; the height is the width plus 24 pixels per caption line and 6
// under them. It takes the options of notation.WriteASCII (see WriteSVG)
// and returns the first write error.
func WritePNG(w io.Writer, p *engine.Position, opts ...notation.DiagramOption) error {
	c, _, err := imgDraw(p, opts)
	if err != nil {
		return err
	}
	img := rasterizer.Draw(c, canvas.DPMM(1), canvas.LinearColorSpace{})
	return png.Encode(w, img)
}

// imgLayout places the parts of a picture. Drawing coordinates have their
// origin at the bottom left and y growing upward, as ranks do.
type imgLayout struct {
	n             int     // board side
	width, height float64 // whole picture
	x0, y0        float64 // bottom-left corner of the grid (its first line)
	captionH      float64 // height of the caption under the board
}

func newImgLayout(n, captionLines int) imgLayout {
	l := imgLayout{n: n}
	if captionLines > 0 {
		l.captionH = float64(captionLines)*imgLineH + imgCapPad
	}
	grid := float64(n)*imgSquare + 1
	l.width = 2*imgBand + grid
	l.height = 2*imgBand + grid + l.captionH
	l.x0 = imgBand
	l.y0 = l.captionH + imgBand
	return l
}

// squareRect returns the bottom-left corner of the inside of square s
// (grid lines excluded); the inside is imgSquare-1 wide.
func (l imgLayout) squareRect(s engine.Square) (x, y float64) {
	return l.x0 + float64(s.File())*imgSquare + 1, l.y0 + float64(s.Rank())*imgSquare + 1
}

// centre returns the centre of square s.
func (l imgLayout) centre(s engine.Square) (x, y float64) {
	x, y = l.squareRect(s)
	h := (imgSquare - 1) / 2
	return x + h, y + h
}

// imgPainter adds paths to a canvas with explicit styles.
type imgPainter struct{ c *canvas.Canvas }

func (pt imgPainter) fill(p *canvas.Path, col color.RGBA) {
	st := canvas.DefaultStyle
	st.Fill = canvas.Paint{Color: col}
	pt.c.RenderPath(p, st, canvas.Identity)
}

func (pt imgPainter) stroke(p *canvas.Path, col color.RGBA, width float64, round bool) {
	st := canvas.DefaultStyle
	st.Fill = canvas.Paint{}
	st.Stroke = canvas.Paint{Color: col}
	st.StrokeWidth = width
	if round {
		st.StrokeCapper = canvas.RoundCap
		st.StrokeJoiner = canvas.RoundJoin
	}
	pt.c.RenderPath(p, st, canvas.Identity)
}

func (pt imgPainter) fillStroke(p *canvas.Path, fill, line color.RGBA, width float64) {
	st := canvas.DefaultStyle
	st.Fill = canvas.Paint{Color: fill}
	st.Stroke = canvas.Paint{Color: line}
	st.StrokeWidth = width
	st.StrokeJoiner = canvas.RoundJoin
	pt.c.RenderPath(p, st, canvas.Identity)
}

func imgRect(x, y, w, h float64) *canvas.Path { return canvas.Rectangle(w, h).Translate(x, y) }

func imgCircle(x, y, r float64) *canvas.Path { return canvas.Circle(r).Translate(x, y) }

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

// imgDraw makes the drawing shared by WriteSVG and WritePNG and returns
// it with a one-line description for the SVG title. It paints in layers,
// each over the last: board, marks on restricted squares, coordinates,
// the last ply's arrow, pieces, crosses on captured squares, caption.
func imgDraw(p *engine.Position, opts []notation.DiagramOption) (*canvas.Canvas, string, error) {
	fonts, err := loadImgFonts()
	if err != nil {
		return nil, "", err
	}
	pl := imgPlanFor(p, opts)
	l := pl.layout
	c := canvas.New(l.width, l.height)
	pt := imgPainter{c}
	imgDrawBoard(pt, p, pl)
	imgDrawMarks(pt, p, l)
	imgDrawCoordinates(pt, fonts, l)
	if last := pl.last; last != nil && last.From != last.To {
		// An arrow from the from-square's centre to the edge of the piece
		// on the to-square, under the pieces.
		fx, fy := l.centre(last.From)
		tx, ty := l.centre(last.To)
		pt.fill(imgArrow(fx, fy, tx, ty, imgPieceR+1.5), imgColArrow)
	}
	for r := 0; r < l.n; r++ {
		for f := 0; f < l.n; f++ {
			s := engine.SquareAt(f, r)
			cx, cy := l.centre(s)
			imgDrawPiece(pt, p.At(s), cx, cy, imgPieceR)
		}
	}
	for _, s := range pl.captured {
		cx, cy := l.centre(s)
		d := 0.22 * imgSquare
		pt.stroke(imgSegment(cx-d, cy-d, cx+d, cy+d).Append(imgSegment(cx-d, cy+d, cx+d, cy-d)), imgColCapture, 5, true)
	}
	imgDrawCaption(pt, fonts, pl)
	return c, pl.title, nil
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
	pt.fill(imgRect(0, 0, l.width, l.height), imgColFrame)
	grid := float64(n)*imgSquare + 1
	pt.fill(imgRect(l.x0-imgBorder, l.y0-imgBorder, grid+2*imgBorder, grid+2*imgBorder), imgColBorder)
	pt.fill(imgRect(l.x0, l.y0, grid, grid), imgColBoard)

	isThrone, isCorner := imgRestricted(p)
	inner := imgSquare - 1
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			s := engine.SquareAt(f, r)
			col := color.RGBA{}
			switch {
			case last != nil && s == last.To:
				col = imgColTo
			case last != nil && s == last.From:
				col = imgColFrom
			case isThrone(s) || isCorner(s):
				col = imgColRestricted
			}
			if col.A != 0 {
				x, y := l.squareRect(s)
				pt.fill(imgRect(x, y, inner, inner), col)
			}
		}
	}
	gridLines := &canvas.Path{}
	for i := 0; i <= n; i++ {
		// Lines lie on half pixels so that the PNG shows them one pixel wide.
		at := float64(i)*imgSquare + 0.5
		gridLines.MoveTo(l.x0+at, l.y0)
		gridLines.LineTo(l.x0+at, l.y0+grid)
		gridLines.MoveTo(l.x0, l.y0+at)
		gridLines.LineTo(l.x0+grid, l.y0+at)
	}
	pt.stroke(gridLines, imgColGrid, 1, false)
}

// imgDrawMarks draws the marks on restricted squares: ⊕ throne, ⊠ corners,
// as notation.WriteUnicode.
func imgDrawMarks(pt imgPainter, p *engine.Position, l imgLayout) {
	isThrone, isCorner := imgRestricted(p)
	for r := 0; r < l.n; r++ {
		for f := 0; f < l.n; f++ {
			s := engine.SquareAt(f, r)
			cx, cy := l.centre(s)
			switch {
			case isThrone(s):
				m := imgCircle(cx, cy, 0.3*imgSquare)
				d := 0.3 * imgSquare
				m = m.Append(imgSegment(cx-d, cy, cx+d, cy), imgSegment(cx, cy-d, cx, cy+d))
				pt.stroke(m, imgColMark, 1.5, false)
			case isCorner(s):
				d := 0.27 * imgSquare
				m := imgRect(cx-d, cy-d, 2*d, 2*d)
				m = m.Append(imgSegment(cx-d, cy-d, cx+d, cy+d), imgSegment(cx-d, cy+d, cx+d, cy-d))
				pt.stroke(m, imgColMark, 1.5, false)
			}
		}
	}
}

// imgDrawCoordinates writes the files under and over the board and the
// ranks on both sides.
func imgDrawCoordinates(pt imgPainter, fonts imgFonts, l imgLayout) {
	labelFace := fonts.medium.Face(imgLabelPx*72/25.4, imgColText)
	lm := labelFace.Metrics()
	grid := float64(l.n)*imgSquare + 1
	bandBelow := l.y0 - imgBorder
	bandAbove := l.y0 + grid + imgBorder
	bandH := imgBand - imgBorder
	for f := 0; f < l.n; f++ {
		cx, _ := l.centre(engine.SquareAt(f, 0))
		label := string(rune('a' + f))
		// Letters share a baseline that centres the x-height in the band.
		base := (bandH - lm.XHeight) / 2
		imgDrawText(pt, labelFace, label, cx, bandBelow-bandH+base, 0, true)
		imgDrawText(pt, labelFace, label, cx, bandAbove+base, 0, true)
	}
	for r := 0; r < l.n; r++ {
		_, cy := l.centre(engine.SquareAt(0, r))
		label := fmt.Sprint(r + 1)
		base := cy - lm.CapHeight/2
		imgDrawText(pt, labelFace, label, (l.x0-imgBorder)/2, base, 0, true)
		imgDrawText(pt, labelFace, label, l.width-(l.x0-imgBorder)/2, base, 0, true)
	}
}

// imgDrawCaption writes the caption lines under the board, each after its
// icon, if it has one.
func imgDrawCaption(pt imgPainter, fonts imgFonts, pl imgPlan) {
	l := pl.layout
	textFace := fonts.regular.Face(imgTextPx*72/25.4, imgColText)
	tm := textFace.Metrics()
	for i, ln := range pl.lines {
		top := l.captionH - float64(i)*imgLineH
		base := top - imgLineH + (imgLineH-tm.CapHeight)/2
		x := imgBand
		avail := l.width - 2*imgBand
		if ln.icon != engine.Empty {
			r := 0.32 * imgLineH
			imgDrawPiece(pt, ln.icon, x+r, base+tm.CapHeight/2, r)
			x += 2*r + 6
			avail -= 2*r + 6
		}
		imgDrawText(pt, textFace, ln.text, x, base, avail, false)
	}
}

// imgSideIcon returns the piece that stands for a side in the caption.
func imgSideIcon(s engine.Side) engine.Piece {
	if s == engine.Defenders {
		return engine.Defender
	}
	return engine.Attacker
}

// imgDrawPiece draws one taflman of radius r centred on (cx, cy).
func imgDrawPiece(pt imgPainter, pc engine.Piece, cx, cy, r float64) {
	switch pc {
	case engine.Attacker:
		pt.fillStroke(imgCircle(cx, cy, r), imgColAttacker, imgColOutline, 1.5)
		pt.stroke(imgCircle(cx, cy, 0.68*r), imgColAttackerIn, 1.5, false)
	case engine.Defender:
		pt.fillStroke(imgCircle(cx, cy, r), imgColDefender, imgColOutline, 1.5)
		pt.stroke(imgCircle(cx, cy, 0.68*r), imgColDefenderIn, 1.5, false)
	case engine.King:
		pt.fillStroke(imgCircle(cx, cy, r), imgColDefender, imgColOutline, 2)
		pt.fillStroke(imgCrown(cx, cy, r), imgColCrown, imgColOutline, 1.2)
	}
}

// imgCrown returns the outline of the king's crown inside a disc of radius r.
func imgCrown(cx, cy, r float64) *canvas.Path {
	pts := [][2]float64{
		{-0.56, -0.45}, {0.56, -0.45}, {0.66, 0.38}, {0.32, 0.04},
		{0, 0.56}, {-0.32, 0.04}, {-0.66, 0.38},
	}
	p := &canvas.Path{}
	for i, q := range pts {
		x, y := cx+q[0]*r, cy+q[1]*r
		if i == 0 {
			p.MoveTo(x, y)
		} else {
			p.LineTo(x, y)
		}
	}
	p.Close()
	return p
}

// imgSegment returns a straight line from (x1, y1) to (x2, y2).
func imgSegment(x1, y1, x2, y2 float64) *canvas.Path {
	p := &canvas.Path{}
	p.MoveTo(x1, y1)
	p.LineTo(x2, y2)
	return p
}

// imgArrow returns a filled arrow from (fx, fy) towards (tx, ty) whose tip
// stops short of (tx, ty) by back.
func imgArrow(fx, fy, tx, ty, back float64) *canvas.Path {
	dx, dy := tx-fx, ty-fy
	length := math.Hypot(dx, dy)
	ux, uy := dx/length, dy/length // along the arrow
	vx, vy := -uy, ux              // across it
	tip := length - back
	const shaft, headLen, headHalf = 3.0, 15.0, 9.0
	neck := max(tip-headLen, 0)
	at := func(along, across float64) (float64, float64) {
		return fx + ux*along + vx*across, fy + uy*along + vy*across
	}
	p := &canvas.Path{}
	p.MoveTo(at(0, -shaft))
	p.LineTo(at(neck, -shaft))
	p.LineTo(at(neck, -headHalf))
	p.LineTo(at(tip, 0))
	p.LineTo(at(neck, headHalf))
	p.LineTo(at(neck, shaft))
	p.LineTo(at(0, shaft))
	p.Close()
	return p
}

// imgFonts are the faces of every picture, parsed once.
type imgFonts struct {
	regular, medium *canvas.Font
}

var loadImgFonts = sync.OnceValues(func() (imgFonts, error) {
	regular, err := canvas.LoadFont(goregular.TTF, 0, canvas.FontRegular)
	if err != nil {
		return imgFonts{}, fmt.Errorf("picture: loading Go Regular: %w", err)
	}
	medium, err := canvas.LoadFont(gomedium.TTF, 0, canvas.FontMedium)
	if err != nil {
		return imgFonts{}, fmt.Errorf("picture: loading Go Medium: %w", err)
	}
	return imgFonts{regular: regular, medium: medium}, nil
})

// imgShapeMu serialises text shaping: a canvas.Font keeps one shaper with
// caches, which is not safe for concurrent use.
var imgShapeMu sync.Mutex

// imgDrawText fills s in face's colour with its baseline at y. With centre it
// is centred on x, otherwise it starts at x. A positive maxWidth shrinks
// wider text to fit.
func imgDrawText(pt imgPainter, face *canvas.FontFace, s string, x, y, maxWidth float64, centre bool) {
	imgShapeMu.Lock()
	p, width, err := face.ToPath(s)
	imgShapeMu.Unlock()
	if err != nil || p.Empty() {
		return // a glyph the Go fonts lack is left out rather than failing the picture
	}
	scale := 1.0
	if maxWidth > 0 && width > maxWidth {
		scale = maxWidth / width
	}
	if centre {
		x -= width * scale / 2
	}
	p = p.Transform(canvas.Identity.Translate(x, y).Scale(scale, scale))
	pt.fill(imgRoundPath(p, 100), face.Fill.Color)
}

// imgRoundPath returns p with every coordinate rounded to 1/perUnit, which
// keeps glyph outlines in the SVG short and stable.
func imgRoundPath(p *canvas.Path, perUnit float64) *canvas.Path {
	rd := func(v float64) float64 { return math.Round(v*perUnit) / perUnit }
	q := &canvas.Path{}
	for sc := p.Scanner(); sc.Scan(); {
		end := sc.End()
		switch sc.Cmd() {
		case canvas.MoveToCmd:
			q.MoveTo(rd(end.X), rd(end.Y))
		case canvas.LineToCmd:
			q.LineTo(rd(end.X), rd(end.Y))
		case canvas.QuadToCmd:
			c1 := sc.CP1()
			q.QuadTo(rd(c1.X), rd(c1.Y), rd(end.X), rd(end.Y))
		case canvas.CubeToCmd:
			c1, c2 := sc.CP1(), sc.CP2()
			q.CubeTo(rd(c1.X), rd(c1.Y), rd(c2.X), rd(c2.Y), rd(end.X), rd(end.Y))
		case canvas.ArcToCmd:
			rx, ry, rot, large, sweep := sc.Arc()
			q.ArcTo(rx, ry, rot, large, sweep, rd(end.X), rd(end.Y))
		case canvas.CloseCmd:
			q.Close()
		}
	}
	return q
}
