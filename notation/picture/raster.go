package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// rasterPainter fills the drawing into an RGBA image, one pixel per
// drawing unit, anti-aliased by golang.org/x/image/vector. A stroke is
// filled as an outline of its own: a ring for a circle, a frame for a
// rectangle, a band (with discs at the ends for round caps) for a line,
// bands and discs at the corners for a polygon with round joins.
//
// Each shape is one pass of the rasterizer over the shape's bounding box.
// The rasterizer adds up the signed area of every contour and caps the
// coverage at one, so the parts of one shape are added in the same turning
// sense (they join) and its holes in the other (they cut out): outline
// keeps that straight.
type rasterPainter struct {
	img *image.RGBA
	z   vector.Rasterizer
	o   rasterOutline // reused between shapes
}

var _ imgPainter = (*rasterPainter)(nil)

func newRasterPainter(l imgLayout) *rasterPainter {
	w, h := int(math.Ceil(l.width)), int(math.Ceil(l.height))
	return &rasterPainter{img: image.NewRGBA(image.Rect(0, 0, w, h))}
}

func (rp *rasterPainter) rect(x, y, w, h float64, st imgStyle) {
	if st.fill.A != 0 {
		if r := image.Rect(int(x), int(y), int(x+w), int(y+h)); float64(r.Min.X) == x && float64(r.Min.Y) == y &&
			float64(r.Max.X) == x+w && float64(r.Max.Y) == y+h {
			// On whole pixels: no edge to smooth.
			draw.Draw(rp.img, r, image.NewUniform(st.fill), image.Point{}, draw.Src)
		} else {
			rp.o.reset()
			rp.o.rect(x, y, w, h, false)
			rp.fill(st.fill)
		}
	}
	if st.stroke.A != 0 {
		d := st.width / 2
		rp.o.reset()
		rp.o.rect(x-d, y-d, w+2*d, h+2*d, false)
		rp.o.rect(x+d, y+d, w-2*d, h-2*d, true)
		rp.fill(st.stroke)
	}
}

func (rp *rasterPainter) circle(cx, cy, r float64, st imgStyle) {
	if st.fill.A != 0 {
		rp.o.reset()
		rp.o.circle(cx, cy, r, false)
		rp.fill(st.fill)
	}
	if st.stroke.A != 0 {
		d := st.width / 2
		rp.o.reset()
		rp.o.circle(cx, cy, r+d, false)
		rp.o.circle(cx, cy, r-d, true)
		rp.fill(st.stroke)
	}
}

func (rp *rasterPainter) line(x1, y1, x2, y2 float64, st imgStyle) {
	if st.stroke.A == 0 {
		return
	}
	rp.o.reset()
	rp.o.band(imgPoint{x1, y1}, imgPoint{x2, y2}, st.width/2)
	if st.round {
		rp.o.circle(x1, y1, st.width/2, false)
		rp.o.circle(x2, y2, st.width/2, false)
	}
	rp.fill(st.stroke)
}

func (rp *rasterPainter) polygon(pts []imgPoint, st imgStyle) {
	if st.fill.A != 0 {
		rp.o.reset()
		rp.o.polygon(pts, false)
		rp.fill(st.fill)
	}
	if st.stroke.A != 0 {
		// Round joins only (the one stroked polygon, the crown, asks for
		// them): a band along every side and a disc on every corner.
		rp.o.reset()
		for i, a := range pts {
			b := pts[(i+1)%len(pts)]
			rp.o.band(a, b, st.width/2)
			rp.o.circle(a.x, a.y, st.width/2, false)
		}
		rp.fill(st.stroke)
	}
}

func (rp *rasterPainter) shape(p imgPath, st imgStyle) {
	if st.fill.A == 0 {
		return
	}
	rp.o.reset()
	rp.o.path = append(rp.o.path, p...)
	rp.fill(st.fill)
}

// fill paints the pending outline in colour c over the image.
func (rp *rasterPainter) fill(c color.RGBA) {
	minX, minY, maxX, maxY := rp.o.bounds()
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
	r = r.Intersect(rp.img.Bounds())
	if r.Empty() {
		return
	}
	// The rasterizer's mask starts at r.Min.
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	pt := func(q imgPoint) (float32, float32) { return float32(q.x - ox), float32(q.y - oy) }
	z := &rp.z
	z.Reset(r.Dx(), r.Dy())
	for _, s := range rp.o.path {
		switch s.op {
		case 'M':
			z.MoveTo(pt(s.p[0]))
		case 'L':
			z.LineTo(pt(s.p[0]))
		case 'Q':
			bx, by := pt(s.p[0])
			cx, cy := pt(s.p[1])
			z.QuadTo(bx, by, cx, cy)
		case 'C':
			bx, by := pt(s.p[0])
			cx, cy := pt(s.p[1])
			dx, dy := pt(s.p[2])
			z.CubeTo(bx, by, cx, cy, dx, dy)
		case 'Z':
			z.ClosePath()
		}
	}
	z.Draw(rp.img, r, image.NewUniform(c), image.Point{})
}

// rasterOutline collects the contours of one shape to fill.
type rasterOutline struct {
	path imgPath
}

func (o *rasterOutline) reset() { o.path = o.path[:0] }

// bounds returns the box around every point of the outline; a curve lies
// inside the box of its control points.
func (o *rasterOutline) bounds() (minX, minY, maxX, maxY float64) {
	minX, minY = math.Inf(1), math.Inf(1)
	maxX, maxY = math.Inf(-1), math.Inf(-1)
	for i := range o.path {
		for _, q := range o.path[i].points() {
			minX, minY = min(minX, q.x), min(minY, q.y)
			maxX, maxY = max(maxX, q.x), max(maxY, q.y)
		}
	}
	return minX, minY, maxX, maxY
}

// polygon adds the closed polygon through pts, turning the positive way
// (positive shoelace area), or the other way for a hole.
func (o *rasterOutline) polygon(pts []imgPoint, hole bool) {
	area := 0.0
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		area += a.x*b.y - b.x*a.y
	}
	reverse := (area < 0) != hole
	for i := range pts {
		q := pts[i]
		if reverse {
			q = pts[len(pts)-1-i]
		}
		op := byte('L')
		if i == 0 {
			op = 'M'
		}
		o.path = append(o.path, imgSeg{op: op, p: [3]imgPoint{q}})
	}
	o.path = append(o.path, imgSeg{op: 'Z'})
}

func (o *rasterOutline) rect(x, y, w, h float64, hole bool) {
	o.polygon([]imgPoint{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}, hole)
}

// band adds the rectangle of half-width d along the segment from a to b.
func (o *rasterOutline) band(a, b imgPoint, d float64) {
	length := math.Hypot(b.x-a.x, b.y-a.y)
	if length == 0 {
		return
	}
	nx, ny := -(b.y-a.y)/length*d, (b.x-a.x)/length*d
	o.polygon([]imgPoint{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}, false)
}

// circle adds the circle of radius r about (cx, cy) as four cubic arcs,
// turning the positive way, or the other way for a hole.
func (o *rasterOutline) circle(cx, cy, r float64, hole bool) {
	if r <= 0 {
		return
	}
	const k = 0.5522847498307936 // 4/3·(√2−1): a quarter circle's control arm
	s := 1.0
	if hole {
		s = -1
	}
	// From (cx+r, cy) through (cx, cy+s·r): positive shoelace area for s = 1.
	p := func(x, y float64) imgPoint { return imgPoint{cx + x*r, cy + s*y*r} }
	o.path = append(o.path,
		imgSeg{op: 'M', p: [3]imgPoint{p(1, 0)}},
		imgSeg{op: 'C', p: [3]imgPoint{p(1, k), p(k, 1), p(0, 1)}},
		imgSeg{op: 'C', p: [3]imgPoint{p(-k, 1), p(-1, k), p(-1, 0)}},
		imgSeg{op: 'C', p: [3]imgPoint{p(-1, -k), p(-k, -1), p(0, -1)}},
		imgSeg{op: 'C', p: [3]imgPoint{p(k, -1), p(1, -k), p(1, 0)}},
		imgSeg{op: 'Z'},
	)
}
