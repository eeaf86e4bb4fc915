// Package picture draws Tafl boards as pictures, SVG and PNG, for people
// who would rather look than read: the same board, marks and caption as
// notation's ASCII and Unicode diagrams (notation.WriteASCII), with the
// same options (notation.DiagramOption).
//
// Both formats come from one drawing (draw.go), handed to a painter that
// writes SVG elements by hand (svg.go) or fills shapes anti-aliased with
// golang.org/x/image/vector (raster.go); text is drawn as outlines of the
// Go fonts (text.go). The package lives apart from notation so that the
// mail referee links no font: only cmd/taflmail imports it
// (docs/architecture.md, whose import table TestImportRules in
// docs/imports_test.go checks).
package picture

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// Picture geometry, in drawing units (PNG pixels; SVG user units).
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
	imgColFrame      = imgHex(0xf6efdf) // background, coordinate bands, caption
	imgColBorder     = imgHex(0x5a4226) // frame around the grid
	imgColBoard      = imgHex(0xe4c78f) // ordinary square
	imgColGrid       = imgHex(0x8a6a3e) // grid lines
	imgColRestricted = imgHex(0xc49a5c) // throne and corners
	imgColMark       = imgHex(0x6b4a22) // ⊕ and ⊠ marks on restricted squares
	imgColFrom       = imgHex(0xc3daf0) // last ply's from-square
	imgColTo         = imgHex(0x8fbbe6) // last ply's to-square
	imgColArrow      = imgHex(0x2a5fa5) // last ply's arrow
	imgColCapture    = imgHex(0xd01c2c) // cross on a just-captured square
	imgColText       = imgHex(0x3e2c16) // coordinates and caption
	imgColAttacker   = imgHex(0x262322) // attacker body
	imgColAttackerIn = imgHex(0x57524d) // attacker inner ring
	imgColDefender   = imgHex(0xfaf6ea) // defender and king body
	imgColDefenderIn = imgHex(0xc9bea4) // defender inner ring
	imgColOutline    = imgHex(0x1b1816) // piece outline
	imgColCrown      = imgHex(0xd9a521) // the king's crown
)

// imgHex returns the opaque colour 0xRRGGBB.
func imgHex(rgb uint32) color.RGBA {
	return color.RGBA{R: uint8(rgb >> 16), G: uint8(rgb >> 8), B: uint8(rgb), A: 0xff}
}

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
// show, such as a resignation). Squares off the board are ignored. Text
// is drawn as outlines, so no font is needed to view it; one drawing unit
// is one pixel of WritePNG's picture, and the root element carries a
// <title> with the same facts. The output is a standalone file, the same
// bytes for the same position and options; SVGOptions.Write writes it for
// inlining into HTML. It returns the first write error.
func WriteSVG(w io.Writer, p *engine.Position, opts ...notation.DiagramOption) error {
	return SVGOptions{}.Write(w, p, opts...)
}

// SVGOptions are the settings of an SVG picture that do not change what
// it shows. The zero value writes what WriteSVG writes: a standalone
// file.
//
// The picture uses no ids inside and no stylesheet, so any number of them
// can share one HTML page.
type SVGOptions struct {
	// Inline leaves out the XML declaration, for an <svg> element written
	// into an HTML page.
	Inline bool
	// ID, when not empty, is the root element's id attribute.
	ID string
	// Class, when not empty, is the root element's class attribute, a
	// space-separated list of class names for the page's stylesheet.
	Class string
}

// Write draws p as WriteSVG does, with o's settings: the root <svg>
// element carries o.ID and o.Class (escaped as XML attribute values), and
// with o.Inline the XML declaration is left out. It returns the first
// write error.
func (o SVGOptions) Write(w io.Writer, p *engine.Position, opts ...notation.DiagramOption) error {
	fonts, err := loadImgFonts()
	if err != nil {
		return err
	}
	pl := imgPlanFor(p, opts)
	l := pl.layout
	var sb strings.Builder
	if !o.Inline {
		sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	}
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%spx" height="%spx" viewBox="0 0 %s %s"`,
		svgNum(l.width), svgNum(l.height), svgNum(l.width), svgNum(l.height))
	if o.ID != "" {
		sb.WriteString(` id="` + svgEscape(o.ID) + `"`)
	}
	if o.Class != "" {
		sb.WriteString(` class="` + svgEscape(o.Class) + `"`)
	}
	sb.WriteString(">\n<title>" + svgEscape(pl.title) + "</title>\n")
	sp := &svgPainter{out: &sb}
	imgDraw(sp, fonts, p, pl)
	sp.flush()
	sb.WriteString("</svg>\n")
	_, err = io.WriteString(w, sb.String())
	return err
}

// WritePNG draws p as a PNG picture, the same drawing as WriteSVG at one
// pixel per drawing unit, anti-aliased: 48 pixels per square and 28 for
// the coordinates on each side, so a 7×7 board is 393 pixels wide, 11×11
// 585 and 19×19 969; the height is the width plus 24 pixels per caption
// line and 6 under them. It takes the options of notation.WriteASCII (see
// WriteSVG) and returns the first write error.
func WritePNG(w io.Writer, p *engine.Position, opts ...notation.DiagramOption) error {
	fonts, err := loadImgFonts()
	if err != nil {
		return err
	}
	pl := imgPlanFor(p, opts)
	rp := newRasterPainter(pl.layout)
	imgDraw(rp, fonts, p, pl)
	return png.Encode(w, rp.img)
}
