package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// imgCase is one picture: a position reached from a variant's start by
// plies, and diagram options.
type imgCase struct {
	name    string
	variant string
	plies   []string
	opts    func(last engine.PlyResult) []notation.DiagramOption
}

// imgLastPly marks the last ply and its captures.
func imgLastPly(r engine.PlyResult) []notation.DiagramOption {
	return []notation.DiagramOption{notation.WithLastMove(r.Move), notation.WithCaptures(r.Captures...)}
}

var imgCases = []imgCase{
	{name: "copenhagen-start", variant: "copenhagen"},
	// d2-f2 brackets f3 against f4: the defender on f3 is captured.
	{name: "brandubh-capture", variant: "brandubh", plies: []string{"d1-e1", "d3-f3", "d2-f2"}, opts: imgLastPly},
	// The king leaves the throne; no legend, no side to move.
	{name: "tablut-bare", variant: "tablut", plies: []string{"e2-b2", "e4-d4", "a4-a2", "e5-e4"},
		opts: func(r engine.PlyResult) []notation.DiagramOption {
			return []notation.DiagramOption{notation.WithLastMove(r.Move), notation.WithoutLegend(), notation.WithoutSideToMove()}
		}},
	{name: "alea-start", variant: "alea"},
}

func imgMove(t testing.TB, s string) engine.Move {
	t.Helper()
	from, to, ok := strings.Cut(s, "-")
	if !ok {
		t.Fatalf("bad move %q", s)
	}
	return engine.Move{From: imgSq(t, from), To: imgSq(t, to)}
}

func imgSq(t testing.TB, s string) engine.Square {
	t.Helper()
	r, err := strconv.Atoi(s[1:])
	if err != nil || s[0] < 'a' || s[0] > 's' {
		t.Fatalf("bad square %q", s)
	}
	return engine.SquareAt(int(s[0]-'a'), r-1)
}

// build plays the case and returns the position and options.
func (c imgCase) build(t testing.TB) (*engine.Position, []notation.DiagramOption) {
	t.Helper()
	v, ok := engine.Lookup(c.variant)
	if !ok {
		t.Fatalf("engine.Lookup(%q) found nothing", c.variant)
	}
	p, err := engine.NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	var last engine.PlyResult
	for _, s := range c.plies {
		if last, err = p.Play(imgMove(t, s)); err != nil {
			t.Fatalf("%s: Play(%s) = %v", c.name, s, err)
		}
	}
	if c.opts == nil {
		return p, nil
	}
	return p, c.opts(last)
}

func TestWriteSVGGolden(t *testing.T) {
	for _, c := range imgCases {
		t.Run(c.name, func(t *testing.T) {
			p, opts := c.build(t)
			var buf bytes.Buffer
			if err := WriteSVG(&buf, p, opts...); err != nil {
				t.Fatalf("WriteSVG = %v", err)
			}
			path := filepath.Join("testdata", c.name+".svg")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got := buf.Bytes(); !bytes.Equal(got, want) {
				t.Errorf("WriteSVG differs from %s (go test -update rewrites it; review the diff):\n%s", path, imgFirstDiff(string(got), string(want)))
			}
		})
	}
}

// imgFirstDiff shows the first line where got and want differ.
func imgFirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got  %.200s\n want %.200s", i+1, gl, wl)
		}
	}
	return "(no line differs)"
}

// TestWriteSVGWellFormed decodes every picture as XML and checks the root
// element, its size, the title and that every piece has a disc.
func TestWriteSVGWellFormed(t *testing.T) {
	for _, c := range imgCases {
		t.Run(c.name, func(t *testing.T) {
			p, opts := c.build(t)
			var buf bytes.Buffer
			if err := WriteSVG(&buf, p, opts...); err != nil {
				t.Fatalf("WriteSVG = %v", err)
			}
			dec := xml.NewDecoder(&buf)
			var root *xml.StartElement
			var title strings.Builder
			inTitle, circles := false, 0
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("SVG is not well-formed XML: %v", err)
				}
				switch e := tok.(type) {
				case xml.StartElement:
					if root == nil {
						e := e.Copy()
						root = &e
					}
					inTitle = e.Name.Local == "title"
					if e.Name.Local == "circle" {
						circles++
					}
				case xml.EndElement:
					inTitle = false
				case xml.CharData:
					if inTitle {
						title.Write(e)
					}
				}
			}
			if root == nil || root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" {
				t.Fatalf("root element = %v, want svg in the SVG namespace", root)
			}
			attr := map[string]string{}
			for _, a := range root.Attr {
				attr[a.Name.Local] = a.Value
			}
			l := imgPlanFor(p, opts).layout
			if w, h := fmt.Sprintf("%gpx", l.width), fmt.Sprintf("%gpx", l.height); attr["width"] != w || attr["height"] != h {
				t.Errorf("svg width, height = %q, %q, want %q, %q", attr["width"], attr["height"], w, h)
			}
			if want := p.Variant().Title; !strings.HasPrefix(title.String(), want) {
				t.Errorf("title = %q, want it to start with %q", title.String(), want)
			}
			pieces := p.Count(engine.Attacker) + p.Count(engine.Defender) + p.Count(engine.King)
			if circles < pieces {
				t.Errorf("%d circles for %d pieces, want at least one each", circles, pieces)
			}
		})
	}
}

// imgPixel returns the colour of the pixel at drawing coordinates (x, y),
// whose origin is the top left.
func imgPixel(img image.Image, x, y float64) color.RGBA {
	return color.RGBAModel.Convert(img.At(int(x), int(y))).(color.RGBA)
}

func imgNear(a, b color.RGBA) bool {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) <= 2 && d(a.G, b.G) <= 2 && d(a.B, b.B) <= 2 && a.A == 255
}

func TestWritePNG(t *testing.T) {
	c := imgCases[1] // brandubh-capture: attackers d2-f2 took f3
	p, opts := c.build(t)
	var buf bytes.Buffer
	if err := WritePNG(&buf, p, opts...); err != nil {
		t.Fatalf("WritePNG = %v", err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("png.Decode = %v", err)
	}
	l := imgPlanFor(p, opts).layout
	if got, want := len(imgPlanFor(p, opts).lines), 3; got != want {
		t.Errorf("%d caption lines, want %d (title, last ply, side to move)", got, want)
	}
	if b := img.Bounds(); b.Dx() != int(l.width+0.5) || b.Dy() != int(l.height+0.5) {
		t.Fatalf("PNG size = %dx%d, want %gx%g", b.Dx(), b.Dy(), l.width, l.height)
	}
	if b := img.Bounds(); b.Dx() != 393 || b.Dy() != 393+3*24+6 {
		t.Errorf("PNG size = %dx%d, want 393x471 as WritePNG's doc says", b.Dx(), b.Dy())
	}
	sq := func(s string) (float64, float64) { return l.centre(imgSq(t, s)) }
	for _, tc := range []struct {
		what  string
		at    string
		dx    float64 // offset from the centre, in squares
		want  color.RGBA
		check func(color.RGBA) bool
	}{
		{what: "attacker on a4", at: "a4", want: imgColAttacker},
		{what: "defender on c4", at: "c4", want: imgColDefender},
		{what: "crown of the king on d4", at: "d4", want: imgColCrown},
		{what: "empty square b2", at: "b2", want: imgColBoard},
		{what: "empty corner a1 outside its mark", at: "a1", dx: 0.4, want: imgColRestricted},
		{what: "cross on captured f3", at: "f3", want: imgColCapture},
		{what: "from-square d2 beside the arrow", at: "d2", dx: 0.35, want: imgColFrom},
		{what: "arrow between d2 and f2", at: "e2", want: imgColArrow},
		{what: "to-square f2 around the piece", at: "f2", dx: 0.45, want: imgColTo},
		{what: "attacker on f2", at: "f2", want: imgColAttacker},
	} {
		x, y := sq(tc.at)
		x += tc.dx * imgSquare
		y += tc.dx * imgSquare
		if got := imgPixel(img, x, y); !imgNear(got, tc.want) {
			t.Errorf("%s: pixel = %v, want %v", tc.what, got, tc.want)
		}
	}
	// Strokes are filled as rings and frames: their holes show what is
	// under them.
	for _, tc := range []struct {
		what   string
		at     string
		dx, dy float64 // offset from the centre, in pixels
		want   color.RGBA
	}{
		{what: "inner ring of the attacker on a4", at: "a4", dx: 0.68 * imgPieceR, want: imgColAttackerIn},
		{what: "inside the ring of the attacker on a4", at: "a4", dx: 0.4 * imgPieceR, want: imgColAttacker},
		{what: "inner ring of the defender on c4", at: "c4", dy: -0.68 * imgPieceR, want: imgColDefenderIn},
		{what: "outline of the defender on c4", at: "c4", dy: imgPieceR, want: imgColOutline},
		{what: "centre of the mark on corner a1", at: "a1", want: imgColMark},
		{what: "inside the mark on corner a1, off its diagonals", at: "a1", dx: 0.15 * imgSquare, want: imgColRestricted},
		{what: "frame of the mark on corner g7", at: "g7", dx: 0.27 * imgSquare, want: imgColMark},
	} {
		x, y := sq(tc.at)
		if got := imgPixel(img, x+tc.dx, y+tc.dy); !imgNear(got, tc.want) {
			t.Errorf("%s: pixel = %v, want %v", tc.what, got, tc.want)
		}
	}
	// The frame outside the board and the border around the grid.
	if got := imgPixel(img, 2, 2); !imgNear(got, imgColFrame) {
		t.Errorf("picture corner = %v, want frame %v", got, imgColFrame)
	}
	if got := imgPixel(img, l.x0-1, l.y0+10); !imgNear(got, imgColBorder) {
		t.Errorf("border = %v, want %v", got, imgColBorder)
	}
	// Coordinates: some text-coloured pixel in the band under file a.
	x, _ := sq("a1")
	dark := false
	for dy := 0.0; dy < imgBand; dy++ {
		for dx := -6.0; dx <= 6; dx++ {
			c := imgPixel(img, x+dx, l.y0+l.grid+imgBorder+dy)
			dark = dark || int(c.R)+int(c.G)+int(c.B) < 3*110
		}
	}
	if !dark {
		t.Errorf("no dark pixel of the label a under the board")
	}
}

func TestWritePNGThroneAndKing(t *testing.T) {
	p, _ := imgCases[0].build(t) // copenhagen start: king on the throne f6
	var buf bytes.Buffer
	if err := WritePNG(&buf, p); err != nil {
		t.Fatalf("WritePNG = %v", err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("png.Decode = %v", err)
	}
	l := imgPlanFor(p, nil).layout
	x, y := l.centre(imgSq(t, "f6"))
	// Inside the square, outside the king's disc: the throne's shade.
	if got := imgPixel(img, x+0.44*imgSquare, y+0.44*imgSquare); !imgNear(got, imgColRestricted) {
		t.Errorf("throne f6 beside the king = %v, want %v", got, imgColRestricted)
	}
	if got := imgPixel(img, x, y); !imgNear(got, imgColCrown) {
		t.Errorf("king on f6 = %v, want crown %v", got, imgColCrown)
	}
}

func TestImagesDeterministic(t *testing.T) {
	for _, c := range imgCases {
		p, opts := c.build(t)
		for name, write := range map[string]func(io.Writer, *engine.Position, ...notation.DiagramOption) error{
			"WriteSVG": WriteSVG, "WritePNG": WritePNG,
		} {
			var a, b bytes.Buffer
			if err := write(&a, p, opts...); err != nil {
				t.Fatalf("%s %s = %v", name, c.name, err)
			}
			if err := write(&b, p, opts...); err != nil {
				t.Fatalf("%s %s = %v", name, c.name, err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s %s: two renders differ", name, c.name)
			}
		}
	}
}

// TestImagesConcurrent draws from several goroutines; under -race it
// checks that the shared fonts are used safely.
func TestImagesConcurrent(t *testing.T) {
	p, opts := imgCases[1].build(t)
	var want bytes.Buffer
	if err := WritePNG(&want, p, opts...); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 4 {
		wg.Go(func() {
			var buf bytes.Buffer
			if err := WritePNG(&buf, p, opts...); err != nil {
				errs <- err
			} else if !bytes.Equal(buf.Bytes(), want.Bytes()) {
				errs <- errors.New("concurrent WritePNG differs")
			}
			if err := WriteSVG(io.Discard, p, opts...); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

type imgFailWriter struct{}

var errImgWrite = errors.New("disk full")

func (imgFailWriter) Write([]byte) (int, error) { return 0, errImgWrite }

func TestImagesWriteError(t *testing.T) {
	p, _ := imgCases[0].build(t)
	if err := WriteSVG(imgFailWriter{}, p); !errors.Is(err, errImgWrite) {
		t.Errorf("WriteSVG(failing writer) = %v, want %v", err, errImgWrite)
	}
	if err := WritePNG(imgFailWriter{}, p); !errors.Is(err, errImgWrite) {
		t.Errorf("WritePNG(failing writer) = %v, want %v", err, errImgWrite)
	}
}

// TestWriteSamples writes every case as PNG and SVG into the directory
// named by TAFLMAIL_IMAGE_SAMPLES, for looking at them.
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("TAFLMAIL_IMAGE_SAMPLES")
	if dir == "" {
		t.Skip("set TAFLMAIL_IMAGE_SAMPLES to a directory to write sample pictures")
	}
	for _, c := range imgCases {
		p, opts := c.build(t)
		for ext, write := range map[string]func(io.Writer, *engine.Position, ...notation.DiagramOption) error{
			".svg": WriteSVG, ".png": WritePNG,
		} {
			var buf bytes.Buffer
			if err := write(&buf, p, opts...); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, c.name+ext), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestImageCaption(t *testing.T) {
	for _, tc := range []struct {
		c     imgCase
		lines []string
		title string
	}{
		{imgCases[0], []string{"Copenhagen Hnefatafl 11×11", "attackers to move"},
			"Copenhagen Hnefatafl 11×11: attackers to move"},
		{imgCases[1], []string{"Brandubh 7×7 (Federation Brandubh)", "last ply d2-f2, captured f3", "defenders to move"},
			"Brandubh 7×7 (Federation Brandubh): defenders to move, last ply d2-f2, captured f3"},
		{imgCases[2], nil, "Tablut 9×9 (Linnaeus, as reconstructed by Aage Nielsen): attackers to move, last ply e5-e4"},
		// The attackers resign after d2-f2: the caption says so, not
		// "defenders to move".
		{imgCase{name: "brandubh-resigned", variant: "brandubh", plies: imgCases[1].plies,
			opts: func(r engine.PlyResult) []notation.DiagramOption {
				end := engine.Outcome{Result: engine.DefendersWin, Reason: engine.ReasonResignation, Ply: 3}
				return append(imgLastPly(r), notation.WithOutcome(end))
			}},
			[]string{"Brandubh 7×7 (Federation Brandubh)", "last ply d2-f2, captured f3", "game over: defenders win (resignation)"},
			"Brandubh 7×7 (Federation Brandubh): game over: defenders win (resignation), last ply d2-f2, captured f3"},
	} {
		p, opts := tc.c.build(t)
		pl := imgPlanFor(p, opts)
		var lines []string
		for _, l := range pl.lines {
			lines = append(lines, l.text)
		}
		if !slices.Equal(lines, tc.lines) || pl.title != tc.title {
			t.Errorf("%s: caption = %q, title %q; want %q, %q", tc.c.name, lines, pl.title, tc.lines, tc.title)
		}
	}
}

// TestImageCaptionUnnamed: rules without a name or title (an OpenTafl
// record's unnamed rules) give a title that starts with the status, not
// with ": " (trial report §11).
func TestImageCaptionUnnamed(t *testing.T) {
	v, _ := engine.Lookup("brandubh")
	alt := *v
	alt.Name, alt.Title = "", ""
	p, err := engine.NewPosition(&alt)
	if err != nil {
		t.Fatal(err)
	}
	pl := imgPlanFor(p, nil)
	if pl.title != "attackers to move" {
		t.Errorf("title = %q, want %q", pl.title, "attackers to move")
	}
	for _, l := range pl.lines {
		if l.text == "" {
			t.Errorf("caption has an empty line: %+v", pl.lines)
		}
	}
}

// TestImageOffBoard checks that squares outside the board are left out.
func TestImageOffBoard(t *testing.T) {
	p, _ := imgCases[1].build(t)
	var plain, odd bytes.Buffer
	if err := WriteSVG(&plain, p); err != nil {
		t.Fatal(err)
	}
	far := engine.SquareAt(12, 3)
	if err := WriteSVG(&odd, p, notation.WithCaptures(far), notation.WithLastMove(engine.Move{From: far, To: imgSq(t, "a1")})); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), odd.Bytes()) {
		t.Errorf("off-board squares changed the picture:\n%s", imgFirstDiff(odd.String(), plain.String()))
	}
}
