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
	b := make([]byte, 0, 8*len(p))
	var cur, start, ctrl [2]int64 // current point, contour start, last quadratic control
	hasCtrl := false
	round := func(q imgPoint) [2]int64 {
		return [2]int64{
			int64(math.Round(q.x*100/float64(step))) * step,
			int64(math.Round(q.y*100/float64(step))) * step,
		}
	}
	// num writes one coordinate: a minus sign separates it from the
	// number before, otherwise a space does (none after a command letter).
	afterCmd, last := true, byte(0)
	num := func(h int64) {
		if !afterCmd && h >= 0 {
			b = append(b, ' ')
		}
		b = svgAppendHundredths(b, h, true)
		afterCmd = false
	}
	cmd := func(c byte) {
		if c == last && c != 'm' && c != 'z' {
			return // the numbers that follow repeat it
		}
		b = append(b, c)
		afterCmd, last = true, c
	}
	rel := func(pts ...[2]int64) {
		base := cur
		for _, r := range pts {
			num(r[0] - base[0])
			num(r[1] - base[1])
			cur = r
		}
	}
	for i, s := range p {
		quad := false
		switch s.op {
		case 'M':
			if i == 0 {
				cmd('M')
				r := round(s.p[0])
				num(r[0])
				num(r[1])
				cur = r
			} else {
				cmd('m')
				rel(round(s.p[0]))
			}
			start = cur
		case 'L':
			r := round(s.p[0])
			switch {
			case r[1] == cur[1]:
				cmd('h')
				num(r[0] - cur[0])
			case r[0] == cur[0]:
				cmd('v')
				num(r[1] - cur[1])
			default:
				cmd('l')
				num(r[0] - cur[0])
				num(r[1] - cur[1])
			}
			cur = r
		case 'Q':
			c, end := round(s.p[0]), round(s.p[1])
			mirror := [2]int64{2*cur[0] - ctrl[0], 2*cur[1] - ctrl[1]}
			if hasCtrl && abs64(mirror[0]-c[0]) <= step && abs64(mirror[1]-c[1]) <= step {
				cmd('t')
				rel(end)
				ctrl = mirror
			} else {
				cmd('q')
				rel(c, end)
				ctrl = c
			}
			quad = true
		case 'C':
			cmd('c')
			rel(round(s.p[0]), round(s.p[1]), round(s.p[2]))
		case 'Z':
			cmd('z')
			cur = start
		}
		hasCtrl = quad
	}
	return string(b)
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
