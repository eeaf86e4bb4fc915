package picture

import (
	"encoding/xml"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// svgPainter writes the drawing as SVG elements, one a line, so that
// golden files diff well. Alike shapes painted one after another share
// their style: a run of them goes into one <g> that carries it, and a run
// of lines becomes one <path>. Coordinates are rounded to 1/100 of a
// drawing unit, which keeps the file short and its bytes stable.
type svgPainter struct {
	out *strings.Builder
	// The pending run: shapes of one kind and style not yet written.
	kind  svgKind
	style string   // the run's style attributes, each after a space
	items []string // elements without style and "/>", or for lines path data
}

type svgKind int

const (
	svgNone    svgKind = iota
	svgElement         // rect, circle, polygon, path
	svgLines           // segments, merged into one path
)

var _ imgPainter = (*svgPainter)(nil)

func (sp *svgPainter) rect(x, y, w, h float64, st imgStyle) {
	var b strings.Builder
	b.WriteString("<rect")
	if x != 0 || y != 0 {
		b.WriteString(` x="` + svgNum(x) + `" y="` + svgNum(y) + `"`)
	}
	b.WriteString(` width="` + svgNum(w) + `" height="` + svgNum(h) + `"`)
	sp.add(svgElement, svgStyle(st, ""), b.String())
}

func (sp *svgPainter) circle(cx, cy, r float64, st imgStyle) {
	sp.add(svgElement, svgStyle(st, ""), `<circle cx="`+svgNum(cx)+`" cy="`+svgNum(cy)+`" r="`+svgNum(r)+`"`)
}

func (sp *svgPainter) line(x1, y1, x2, y2 float64, st imgStyle) {
	st.fill = color.RGBA{}
	d := "M" + svgNum(x1) + " " + svgNum(y1)
	switch {
	case svgNum(x1) == svgNum(x2):
		d += "V" + svgNum(y2)
	case svgNum(y1) == svgNum(y2):
		d += "H" + svgNum(x2)
	default:
		d += "L" + svgNum(x2) + " " + svgNum(y2)
	}
	sp.add(svgLines, svgStyle(st, "stroke-linecap"), d)
}

func (sp *svgPainter) polygon(pts []imgPoint, st imgStyle) {
	var b strings.Builder
	b.WriteString(`<polygon points="`)
	for i, q := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(svgNum(q.x) + "," + svgNum(q.y))
	}
	b.WriteString(`"`)
	sp.add(svgElement, svgStyle(st, "stroke-linejoin"), b.String())
}

func (sp *svgPainter) shape(p imgPath, st imgStyle) {
	sp.add(svgElement, svgStyle(imgFill(st.fill), ""), `<path d="`+svgPathData(p, svgGlyphStep)+`"`)
}

// add appends one shape to the pending run, writing the run first if the
// shape does not belong to it.
func (sp *svgPainter) add(kind svgKind, style, item string) {
	if kind != sp.kind || style != sp.style {
		sp.flush()
		sp.kind, sp.style = kind, style
	}
	sp.items = append(sp.items, item)
}

// flush writes the pending run.
func (sp *svgPainter) flush() {
	switch {
	case len(sp.items) == 0:
	case sp.kind == svgLines:
		sp.out.WriteString(`<path d="` + strings.Join(sp.items, "") + `"` + sp.style + "/>\n")
	case len(sp.items) == 1:
		sp.out.WriteString(sp.items[0] + sp.style + "/>\n")
	default:
		sp.out.WriteString("<g" + sp.style + ">\n")
		for _, it := range sp.items {
			sp.out.WriteString(it + "/>\n")
		}
		sp.out.WriteString("</g>\n")
	}
	sp.kind, sp.style, sp.items = svgNone, "", sp.items[:0]
}

// svgStyle returns the presentation attributes of st, each after a
// space; round names the attribute st.round sets to "round"
// (stroke-linecap or stroke-linejoin), or is empty where it does not
// apply.
func svgStyle(st imgStyle, round string) string {
	var b strings.Builder
	if st.fill.A == 0 {
		b.WriteString(` fill="none"`)
	} else {
		b.WriteString(` fill="` + svgColour(st.fill) + `"`)
	}
	if st.stroke.A != 0 {
		b.WriteString(` stroke="` + svgColour(st.stroke) + `"`)
		if st.width != 1 {
			b.WriteString(` stroke-width="` + svgNum(st.width) + `"`)
		}
		if st.round && round != "" {
			b.WriteString(" " + round + `="round"`)
		}
	}
	return b.String()
}

// svgColour returns an opaque colour as #rrggbb.
func svgColour(c color.RGBA) string {
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// svgNum returns v rounded to 1/100 in the shortest decimal form.
func svgNum(v float64) string {
	return svgHundredths(int64(math.Round(v * 100)))
}

// svgHundredths returns h/100 in the shortest decimal form: 1250 is
// "12.5", -5 "-0.05".
func svgHundredths(h int64) string {
	var buf [24]byte
	return string(svgAppendHundredths(buf[:0], h, false))
}

// svgAppendHundredths appends h/100 in the shortest decimal form to dst;
// short leaves out the zero before the point (-5 is "-.05"), which path
// data allows.
func svgAppendHundredths(dst []byte, h int64, short bool) []byte {
	if h < 0 {
		dst, h = append(dst, '-'), -h
	}
	whole, frac := h/100, h%100
	if whole != 0 || frac == 0 || !short {
		dst = strconv.AppendInt(dst, whole, 10)
	}
	if frac != 0 {
		dst = append(dst, '.', byte('0'+frac/10))
		if frac%10 != 0 {
			dst = append(dst, byte('0'+frac%10))
		}
	}
	return dst
}

// svgGlyphStep is the grid, in hundredths of a drawing unit, that text
// outlines are rounded to: a tenth of a pixel, a hundredth of the em,
// finer than any screen shows the letters of a board.
const svgGlyphStep = 10

// svgPathData returns the path data of p with relative commands, each
// step measured from the rounded end of the one before, so that rounding
// does not add up along a contour. Points are rounded to step hundredths
// of a drawing unit. The shorthands of path data keep it short: h and v
// for level and upright lines; t for a quadratic curve whose control
// point mirrors the one before it about their shared point, within that
// rounding (as TrueType outlines do between two off-curve points), which
// carries the end point alone; and a command repeated without its letter.
func svgPathData(p imgPath, step int64) string {
	w := svgPathWriter{b: make([]byte, 0, 8*len(p)), step: step, afterCmd: true}
	for i, s := range p {
		switch s.op {
		case 'M':
			w.moveTo(s.p[0], i == 0)
		case 'L':
			w.lineTo(s.p[0])
		case 'Q':
			w.quadTo(s.p[0], s.p[1])
		case 'C':
			w.cubicTo(s.p[0], s.p[1], s.p[2])
		case 'Z':
			w.closePath()
		}
		w.hasCtrl = s.op == 'Q'
	}
	return string(w.b)
}

// svgPathWriter writes the path data of svgPathData one segment at a
// time. Points are in hundredths of a drawing unit, rounded to step.
type svgPathWriter struct {
	b    []byte // the path data so far
	step int64  // the grid points are rounded to, in hundredths
	// cur is the current point, start the start of the contour, ctrl
	// the control point of the last quadratic curve: the one before when
	// hasCtrl, the only case in which t may follow.
	cur, start, ctrl [2]int64
	hasCtrl          bool
	// afterCmd: the last byte written is the command letter last, so the
	// next number needs no separator before it.
	afterCmd bool
	last     byte
}

// round returns q in hundredths, rounded to the writer's step.
func (w *svgPathWriter) round(q imgPoint) [2]int64 {
	return [2]int64{
		int64(math.Round(q.x*100/float64(w.step))) * w.step,
		int64(math.Round(q.y*100/float64(w.step))) * w.step,
	}
}

// num writes one coordinate: a minus sign separates it from the number
// before, otherwise a space does (none after a command letter).
func (w *svgPathWriter) num(h int64) {
	if !w.afterCmd && h >= 0 {
		w.b = append(w.b, ' ')
	}
	w.b = svgAppendHundredths(w.b, h, true)
	w.afterCmd = false
}

// cmd writes the command letter c, unless it repeats the last one and
// the numbers that follow can carry it alone (every command but m and z).
func (w *svgPathWriter) cmd(c byte) {
	if c == w.last && c != 'm' && c != 'z' {
		return
	}
	w.b = append(w.b, c)
	w.afterCmd, w.last = true, c
}

// rel writes pts relative to the current point as it was before the
// first of them, and makes the last one current.
func (w *svgPathWriter) rel(pts ...[2]int64) {
	base := w.cur
	for _, r := range pts {
		w.num(r[0] - base[0])
		w.num(r[1] - base[1])
		w.cur = r
	}
}

// moveTo starts a contour at q: the path's first point absolute (M),
// every later one relative (m).
func (w *svgPathWriter) moveTo(q imgPoint, first bool) {
	if first {
		w.cmd('M')
		r := w.round(q)
		w.num(r[0])
		w.num(r[1])
		w.cur = r
	} else {
		w.cmd('m')
		w.rel(w.round(q))
	}
	w.start = w.cur
}

// lineTo draws a line to q: h or v when it is level or upright once
// rounded, else l.
func (w *svgPathWriter) lineTo(q imgPoint) {
	r := w.round(q)
	switch {
	case r[1] == w.cur[1]:
		w.cmd('h')
		w.num(r[0] - w.cur[0])
	case r[0] == w.cur[0]:
		w.cmd('v')
		w.num(r[1] - w.cur[1])
	default:
		w.cmd('l')
		w.num(r[0] - w.cur[0])
		w.num(r[1] - w.cur[1])
	}
	w.cur = r
}

// quadTo draws a quadratic curve through control point ctrl to end: t
// with the end alone when, after a quadratic curve, ctrl mirrors that
// curve's control point about the current point within one step; else q.
func (w *svgPathWriter) quadTo(ctrl, end imgPoint) {
	c, e := w.round(ctrl), w.round(end)
	mirror := [2]int64{2*w.cur[0] - w.ctrl[0], 2*w.cur[1] - w.ctrl[1]}
	if w.hasCtrl && abs64(mirror[0]-c[0]) <= w.step && abs64(mirror[1]-c[1]) <= w.step {
		w.cmd('t')
		w.rel(e)
		w.ctrl = mirror
	} else {
		w.cmd('q')
		w.rel(c, e)
		w.ctrl = c
	}
}

// cubicTo draws a cubic curve through c1 and c2 to end (c).
func (w *svgPathWriter) cubicTo(c1, c2, end imgPoint) {
	w.cmd('c')
	w.rel(w.round(c1), w.round(c2), w.round(end))
}

// closePath closes the contour (z); its start becomes the current point.
func (w *svgPathWriter) closePath() {
	w.cmd('z')
	w.cur = w.start
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// svgEscape returns s escaped for XML character data and attribute values.
func svgEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}
