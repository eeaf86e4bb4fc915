package picture

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Text is drawn as glyph outlines from the Go fonts, the same outlines in
// both formats: WriteSVG writes them as path data, WritePNG fills them. So
// neither format needs a font on the machine that shows it.

// imgFonts are the typefaces of every picture, parsed once.
type imgFonts struct {
	regular, medium *opentype.Font
}

var loadImgFonts = sync.OnceValues(func() (imgFonts, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return imgFonts{}, fmt.Errorf("picture: loading Go Regular: %w", err)
	}
	medium, err := opentype.Parse(gomedium.TTF)
	if err != nil {
		return imgFonts{}, fmt.Errorf("picture: loading Go Medium: %w", err)
	}
	return imgFonts{regular: regular, medium: medium}, nil
})

// imgFace is a typeface at an em size in drawing units. A face is used by
// one goroutine: its buffer is its own, while the font it reads is shared
// (an sfnt.Font is safe for concurrent use with separate buffers).
type imgFace struct {
	font  *opentype.Font
	size  float64 // em size, in drawing units
	upem  fixed.Int26_6
	scale float64 // drawing units per 26.6 value loaded at upem pixels per em
	buf   sfnt.Buffer
}

func newImgFace(f *opentype.Font, size float64) *imgFace {
	// Glyphs are loaded at one pixel per font unit, so that the 26.6
	// values are exact font units, and scaled here in float64.
	upem := fixed.I(int(f.UnitsPerEm()))
	return &imgFace{font: f, size: size, upem: upem, scale: size / float64(f.UnitsPerEm()) / 64}
}

// imgFaceMetrics are the heights text is placed by, in drawing units.
type imgFaceMetrics struct {
	capHeight, xHeight float64
}

func (f *imgFace) metrics() imgFaceMetrics {
	m, err := f.font.Metrics(&f.buf, f.upem, font.HintingNone)
	if err != nil {
		return imgFaceMetrics{capHeight: 0.7 * f.size, xHeight: 0.5 * f.size}
	}
	return imgFaceMetrics{capHeight: float64(m.CapHeight) * f.scale, xHeight: float64(m.XHeight) * f.scale}
}

// outline returns the outline of s set in f with its baseline on y = 0
// and its origin at x = 0, kerned by the font's kern table, and its
// advance width. A rune the font lacks is drawn as the font's missing
// glyph (glyph 0), as text viewers do.
func (f *imgFace) outline(s string) (imgPath, float64) {
	var p imgPath
	var x fixed.Int26_6
	prev, hasPrev := sfnt.GlyphIndex(0), false
	for _, r := range s {
		g, err := f.font.GlyphIndex(&f.buf, r)
		if err != nil {
			g = 0
		}
		if hasPrev {
			if k, err := f.font.Kern(&f.buf, prev, g, f.upem, font.HintingNone); err == nil {
				x += k
			}
		}
		segs, err := f.font.LoadGlyph(&f.buf, g, f.upem, nil)
		if err != nil {
			segs = nil // not in the font: an empty space, as wide as the glyph
		}
		pt := func(q fixed.Point26_6) imgPoint {
			return imgPoint{float64(q.X+x) * f.scale, float64(q.Y) * f.scale}
		}
		for _, sg := range segs {
			switch sg.Op {
			case sfnt.SegmentOpMoveTo:
				if len(p) > 0 {
					p = append(p, imgSeg{op: 'Z'})
				}
				p = append(p, imgSeg{op: 'M', p: [3]imgPoint{pt(sg.Args[0])}})
			case sfnt.SegmentOpLineTo:
				p = append(p, imgSeg{op: 'L', p: [3]imgPoint{pt(sg.Args[0])}})
			case sfnt.SegmentOpQuadTo:
				p = append(p, imgSeg{op: 'Q', p: [3]imgPoint{pt(sg.Args[0]), pt(sg.Args[1])}})
			case sfnt.SegmentOpCubeTo:
				p = append(p, imgSeg{op: 'C', p: [3]imgPoint{pt(sg.Args[0]), pt(sg.Args[1]), pt(sg.Args[2])}})
			}
		}
		adv, err := f.font.GlyphAdvance(&f.buf, g, f.upem, font.HintingNone)
		if err == nil {
			x += adv
		}
		prev, hasPrev = g, true
	}
	if len(p) > 0 {
		p = append(p, imgSeg{op: 'Z'})
	}
	return p, float64(x) * f.scale
}

// imgPoint is a point in drawing units, y growing downwards.
type imgPoint struct{ x, y float64 }

// imgSeg is one step of a path: 'M' move to p[0], 'L' line to p[0], 'Q'
// quadratic curve through control point p[0] to p[1], 'C' cubic curve
// through p[0] and p[1] to p[2], 'Z' close the contour.
type imgSeg struct {
	op byte
	p  [3]imgPoint
}

// points returns the points s uses: none for 'Z'.
func (s *imgSeg) points() []imgPoint {
	switch s.op {
	case 'M', 'L':
		return s.p[:1]
	case 'Q':
		return s.p[:2]
	case 'C':
		return s.p[:3]
	}
	return nil
}

// imgPath is a filled outline: one or more closed contours.
type imgPath []imgSeg

// transform returns p scaled by k about the origin, then moved by (dx, dy).
func (p imgPath) transform(k, dx, dy float64) imgPath {
	q := make(imgPath, len(p))
	for i, s := range p {
		q[i].op = s.op
		for j, pt := range s.p {
			q[i].p[j] = imgPoint{pt.x*k + dx, pt.y*k + dy}
		}
	}
	return q
}
