package picture

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

// svgRoot decodes an SVG picture and returns its root element and the
// text of its <title>.
func svgRoot(t *testing.T, data []byte) (xml.StartElement, string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root *xml.StartElement
	var title strings.Builder
	inTitle := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%.300s", err, data)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if root == nil {
				e := e.Copy()
				root = &e
			}
			inTitle = e.Name.Local == "title"
		case xml.EndElement:
			inTitle = false
		case xml.CharData:
			if inTitle {
				title.Write(e)
			}
		}
	}
	if root == nil {
		t.Fatalf("SVG has no element")
	}
	return *root, title.String()
}

func svgAttr(e xml.StartElement, name string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func TestSVGOptions(t *testing.T) {
	p, opts := imgCases[1].build(t)
	var plain bytes.Buffer
	if err := WriteSVG(&plain, p, opts...); err != nil {
		t.Fatal(err)
	}
	var zero bytes.Buffer
	if err := (SVGOptions{}).Write(&zero, p, opts...); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(zero.Bytes(), plain.Bytes()) {
		t.Errorf("SVGOptions{}.Write differs from WriteSVG:\n%s", imgFirstDiff(zero.String(), plain.String()))
	}
	if !bytes.HasPrefix(plain.Bytes(), []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n<svg ")) {
		t.Errorf("WriteSVG starts %.60q, want the XML declaration, then <svg", plain.String())
	}
	plainRoot, plainTitle := svgRoot(t, plain.Bytes())
	if id, ok := svgAttr(plainRoot, "id"); ok {
		t.Errorf("WriteSVG wrote id %q, want none", id)
	}

	// Values that need escaping in an attribute.
	o := SVGOptions{Inline: true, ID: `ply-12 "a&b"`, Class: "board <small>"}
	var in bytes.Buffer
	if err := o.Write(&in, p, opts...); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(in.Bytes(), []byte("<svg ")) {
		t.Errorf("Inline picture starts %.60q, want <svg", in.String())
	}
	root, title := svgRoot(t, in.Bytes())
	if got, _ := svgAttr(root, "id"); got != o.ID {
		t.Errorf("id = %q, want %q", got, o.ID)
	}
	if got, _ := svgAttr(root, "class"); got != o.Class {
		t.Errorf("class = %q, want %q", got, o.Class)
	}
	if title != plainTitle {
		t.Errorf("inline title = %q, want %q", title, plainTitle)
	}
	// Apart from the declaration and the root's attributes, the same
	// picture.
	_, plainBody, _ := strings.Cut(plain.String(), ">\n<title>")
	_, inBody, _ := strings.Cut(in.String(), ">\n<title>")
	if plainBody != inBody {
		t.Errorf("inline body differs:\n%s", imgFirstDiff(inBody, plainBody))
	}
	// No ids inside: pictures can share a page.
	if n := strings.Count(in.String(), " id="); n != 1 {
		t.Errorf("%d id attributes, want 1 (the root's)", n)
	}
}

// TestSVGTitleEscaped: a variant whose title holds XML's special
// characters still gives a well-formed picture with that title.
func TestSVGTitleEscaped(t *testing.T) {
	v, _ := engine.Lookup("brandubh")
	alt := *v
	alt.Title = `Test <"&'> board`
	p, err := engine.NewPosition(&alt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, p); err != nil {
		t.Fatal(err)
	}
	if _, title := svgRoot(t, buf.Bytes()); title != alt.Title+": attackers to move" {
		t.Errorf("title = %q, want %q", title, alt.Title+": attackers to move")
	}
}

func TestSVGNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {12.5, "12.5"}, {39.54, "39.54"}, {-0.05, "-0.05"}, {-0.001, "0"},
		{292.504, "292.5"}, {1e-9, "0"}, {100, "100"}, {0.999, "1"},
	} {
		if got := svgNum(tc.v); got != tc.want {
			t.Errorf("svgNum(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// svgParsePath reads path data in the subset svgPathData writes (M m l h
// v q t c z, relative after the first move, a command repeated without
// its letter) and returns every point it names, absolute, a 't' with its
// mirrored control point, in the order of p's points.
func svgParsePath(t *testing.T, d string) []imgPoint {
	t.Helper()
	tok := regexp.MustCompile(`[MmlhvqtcZz]|-?(?:\d+\.?\d*|\.\d+)`).FindAllString(d, -1)
	if strings.Join(tok, "") != strings.ReplaceAll(d, " ", "") {
		t.Fatalf("path data %q has characters outside commands and numbers", d)
	}
	var pts []imgPoint
	var cur, start, ctrl imgPoint
	lastQuad := false
	i := 0
	nums := func(n int) []float64 {
		out := make([]float64, n)
		for k := range out {
			if i >= len(tok) {
				t.Fatalf("path data %q ends inside a command", d)
			}
			v, err := strconv.ParseFloat(tok[i], 64)
			if err != nil {
				t.Fatalf("path data %q: %v", d, err)
			}
			out[k] = v
			i++
		}
		return out
	}
	c := ""
	for i < len(tok) {
		if _, err := strconv.ParseFloat(tok[i], 64); err != nil {
			c = tok[i]
			i++
		} else if c == "" || c == "z" || c == "Z" {
			t.Fatalf("path data %q: numbers without a command", d)
		}
		quad := false
		switch c {
		case "M":
			v := nums(2)
			cur = imgPoint{v[0], v[1]}
			start = cur
			pts = append(pts, cur)
			c = "" // numbers after it would be absolute lines, which the writer does not write
		case "m", "l":
			v := nums(2)
			cur = imgPoint{cur.x + v[0], cur.y + v[1]}
			if c == "m" {
				start = cur
				c = "l" // numbers after a move are lines
			}
			pts = append(pts, cur)
		case "h":
			cur.x += nums(1)[0]
			pts = append(pts, cur)
		case "v":
			cur.y += nums(1)[0]
			pts = append(pts, cur)
		case "q":
			v := nums(4)
			ctrl = imgPoint{cur.x + v[0], cur.y + v[1]}
			cur = imgPoint{cur.x + v[2], cur.y + v[3]}
			pts = append(pts, ctrl, cur)
			quad = true
		case "t":
			if !lastQuad {
				t.Fatalf("path data %q: t after a command that is not q or t", d)
			}
			v := nums(2)
			ctrl = imgPoint{2*cur.x - ctrl.x, 2*cur.y - ctrl.y}
			cur = imgPoint{cur.x + v[0], cur.y + v[1]}
			pts = append(pts, ctrl, cur)
			quad = true
		case "c":
			v := nums(6)
			pts = append(pts, imgPoint{cur.x + v[0], cur.y + v[1]}, imgPoint{cur.x + v[2], cur.y + v[3]})
			cur = imgPoint{cur.x + v[4], cur.y + v[5]}
			pts = append(pts, cur)
		case "z", "Z":
			cur = start
		default:
			t.Fatalf("path data %q: %q where a command belongs", d, c)
		}
		lastQuad = quad
	}
	return pts
}

// TestSVGPathData writes text outlines and a hand-made path as path data,
// reads them back and checks every point lies where the outline put it,
// within the rounding: end points within half a step, control points
// written as t (mirrored) within a step and a half.
func TestSVGPathData(t *testing.T) {
	fonts, err := loadImgFonts()
	if err != nil {
		t.Fatal(err)
	}
	glyphs, _ := newImgFace(fonts.regular, imgTextPx).outline("Brandubh 7×7 (Federation), game over: g8–d8")
	hand := imgPath{
		{op: 'M', p: [3]imgPoint{{10.004, 20.006}}},
		{op: 'L', p: [3]imgPoint{{10.004, 30}}},      // v
		{op: 'L', p: [3]imgPoint{{-3.3333, 30.001}}}, // h, within the rounding
		{op: 'L', p: [3]imgPoint{{1, 1}}},
		{op: 'L', p: [3]imgPoint{{2, 3}}}, // l again, without its letter
		{op: 'C', p: [3]imgPoint{{1, 2}, {3.456, -4.5}, {5, 6}}},
		{op: 'Z'},
		{op: 'M', p: [3]imgPoint{{100, 100}}},
		{op: 'Q', p: [3]imgPoint{{110, 90}, {120, 100}}},
		{op: 'Q', p: [3]imgPoint{{130, 110}, {140, 100}}},  // mirrors the one before: t
		{op: 'Q', p: [3]imgPoint{{140.5, 90}, {150, 100}}}, // does not
		{op: 'Z'},
	}
	for name, tc := range map[string]struct {
		p    imgPath
		step int64
	}{
		"glyphs":  {glyphs.transform(1, 28.3, 411.7), svgGlyphStep},
		"hand/1":  {hand, 1},
		"hand/10": {hand, 10},
	} {
		d := svgPathData(tc.p, tc.step)
		got := svgParsePath(t, d)
		var want []imgPoint
		var ctrlAt []bool
		for i := range tc.p {
			for k, q := range tc.p[i].points() {
				want = append(want, q)
				ctrlAt = append(ctrlAt, (tc.p[i].op == 'Q' && k == 0) || (tc.p[i].op == 'C' && k < 2))
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d points read back from %q, want %d", name, len(got), d, len(want))
		}
		unit := float64(tc.step) / 100
		for i := range want {
			tol := unit/2 + 1e-9
			if ctrlAt[i] {
				tol = 1.5*unit + 1e-9
			}
			if math.Abs(got[i].x-want[i].x) > tol || math.Abs(got[i].y-want[i].y) > tol {
				t.Errorf("%s: point %d = %v, want %v within %g", name, i, got[i], want[i], tol)
			}
		}
		if want := "M10 20.01v9.99h-13.33l4.33-29 1 2c"; name == "hand/1" && !strings.HasPrefix(d, want) {
			t.Errorf("hand/1: path data %q, want it to start %q", d, want)
		}
		if name == "hand/1" && strings.Count(d, "t") != 1 {
			t.Errorf("hand/1: path data %q, want exactly one t (the mirrored curve)", d)
		}
	}
	if d := svgPathData(glyphs, svgGlyphStep); !strings.Contains(d, "t") {
		t.Errorf("glyph outlines use no t shorthand: %.100s", d)
	}
}
