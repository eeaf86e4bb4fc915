package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// Boards are drawn here as inline SVG, with the geometry and colours of
// notation/picture's pictures (one unit a pixel of its PNG: 48 a square,
// 28 for the coordinates on each side), so a page looks like the
// diagrams of the mails. The pieces are <use> elements of three symbols
// in one group, which static/board.js redraws for each ply from the
// positions in the page's data; without JavaScript the final position
// stays.

// Board geometry, in SVG units.
const (
	bSquare = 48
	bBand   = 28
	bPieceR = 18
)

// boardView is what the game page draws: the final position, the last
// ply's squares and the data board.js steps through.
type boardView struct {
	Size int
	SVG  template.HTML
	// Data is the JSON board.js reads: {"n":size,"plies":[[otn,from,to,[captures]],…]},
	// plies[0] the start; a square is rank*n+file, -1 for none.
	Data template.JS
	// Alt is the final position in words; OTN its position record.
	Alt, OTN string
}

// step is one position of the data: after ply i (0 the start).
type step struct {
	otn      string
	from, to int
	caps     []int
}

func (s step) MarshalJSON() ([]byte, error) {
	caps := s.caps
	if caps == nil {
		caps = []int{}
	}
	return json.Marshal([]any{s.otn, s.from, s.to, caps})
}

// cell returns a square's number in the data: rank*size+file.
func cell(s engine.Square, size int) int { return s.Rank()*size + s.File() }

// drawBoard draws the replay's board after its last ply, with the data
// of every position before it. words describe the position for those who
// cannot see it.
func drawBoard(r *notation.Replay, lang string) (*boardView, error) {
	g := r.Game
	if g.Variant == nil {
		return nil, fmt.Errorf("web: %s: no rules to draw the board", g.Filename)
	}
	pos, _, err := r.PositionAt(0)
	if err != nil {
		return nil, err
	}
	n := pos.Size()
	steps := []step{{otn: notation.FormatBoard(pos.Board()), from: -1, to: -1}}
	last := step{from: -1, to: -1}
	for i := range g.Plies {
		p := r.Plies[i]
		if g.Plies[i].Ply.Move != nil && !p.Played {
			break // the replay stopped at an illegal ply
		}
		if p.Played {
			if pos.Outcome().Over() {
				if pos, err = engine.NewPositionFromBoard(g.Variant, pos.Board(), pos.ToMove()); err != nil {
					return nil, err
				}
			}
			if _, err := pos.Play(p.Move); err != nil {
				return nil, err
			}
			last = step{from: cell(p.Move.From, n), to: cell(p.Move.To, n)}
			for _, c := range p.Captures {
				last.caps = append(last.caps, cell(c, n))
			}
		} else {
			last = step{from: -1, to: -1}
		}
		last.otn = notation.FormatBoard(pos.Board())
		steps = append(steps, last)
	}
	data, err := json.Marshal(map[string]any{"n": n, "plies": steps})
	if err != nil {
		return nil, err
	}
	bv := &boardView{Size: n, Data: template.JS(data), OTN: last.otn}
	if len(steps) == 1 {
		bv.OTN = steps[0].otn
	}
	bv.SVG = template.HTML(boardSVG(pos, last, lang))
	bv.Alt = boardWords(pos, lang, r)
	return bv, nil
}

// boardWords describes a position: size, pieces, who is to move or how
// it ended.
func boardWords(p *engine.Position, lang string, r *notation.Replay) string {
	king := tr(lang, "game.noking")
	if _, ok := p.King(); ok {
		king = tr(lang, "game.king")
	}
	state := tr(lang, "game.tomove", sideWord(lang, p.ToMove()))
	if out := r.Outcome(); out.Over() {
		state = resultText(lang, resultWord(out.Result), out.Reason.String())
	}
	return tr(lang, "game.alt", p.Size(), p.Size(), counted(lang, "attackers", p.Count(engine.Attacker)),
		counted(lang, "defenders", p.Count(engine.Defender)), king, state)
}

func sideWord(lang string, s engine.Side) string { return tr(lang, "side."+s.String()) }

// boardSVG writes the SVG of position p with the last ply's squares and
// captures marked.
func boardSVG(p *engine.Position, last step, lang string) string {
	n := p.Size()
	grid := n*bSquare + 1
	w := grid + 2*bBand
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="board" id="board" viewBox="0 0 %d %d" role="img" aria-labelledby="board-title" data-n="%d">`, w, w, n)
	fmt.Fprintf(&b, `<title id="board-title">%s</title>`, template.HTMLEscapeString(tr(lang, "game.board")))
	b.WriteString(`<defs>` +
		`<g id="pa"><circle r="18" class="pa"/><circle r="11" class="pa-in"/></g>` +
		`<g id="pd"><circle r="18" class="pd"/><circle r="11" class="pd-in"/></g>` +
		`<g id="pk"><circle r="18" class="pd"/><path class="crown" d="M-11 6 L-12 -7 L-6 -1 L0 -10 L6 -1 L12 -7 L11 6 Z"/></g>` +
		`</defs>`)
	fmt.Fprintf(&b, `<rect class="frame" width="%d" height="%d"/>`, w, w)
	fmt.Fprintf(&b, `<rect class="border" x="%d" y="%d" width="%d" height="%d"/>`, bBand-2, bBand-2, grid+4, grid+4)
	fmt.Fprintf(&b, `<rect class="sq" x="%d" y="%d" width="%d" height="%d"/>`, bBand, bBand, grid, grid)
	v := p.Variant()
	throne, hasThrone := v.ThroneSquare()
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			s := engine.SquareAt(f, r)
			x, y := sqXY(s, n)
			switch {
			case hasThrone && s == throne:
				fmt.Fprintf(&b, `<rect class="restricted" x="%d" y="%d" width="47" height="47"/>`, x, y)
				fmt.Fprintf(&b, `<circle class="mark" cx="%d" cy="%d" r="9"/><path class="mark" d="M%d %dh18M%d %dv18"/>`, x+23, y+23, x+14, y+23, x+23, y+14)
			case v.Corners.Present && v.IsCorner(s):
				fmt.Fprintf(&b, `<rect class="restricted" x="%d" y="%d" width="47" height="47"/>`, x, y)
				fmt.Fprintf(&b, `<rect class="mark" x="%d" y="%d" width="18" height="18"/><path class="mark" d="M%d %dl18 18M%d %dl-18 18"/>`, x+14, y+14, x+14, y+14, x+32, y+14)
			}
		}
	}
	// the last ply's squares, moved by board.js
	b.WriteString(lastMarks(last, n))
	// grid lines
	b.WriteString(`<path class="grid" d="`)
	for i := 0; i <= n; i++ {
		c := bBand + i*bSquare
		fmt.Fprintf(&b, "M%d %dv%dM%d %dh%d", c, bBand, grid-1, bBand, c, grid-1)
	}
	b.WriteString(`"/>`)
	// coordinates: files a.. above and below, ranks on both sides, rank 1 at the bottom
	b.WriteString(`<g class="coord">`)
	for i := 0; i < n; i++ {
		file := string(rune('a' + i))
		x := bBand + i*bSquare + bSquare/2
		fmt.Fprintf(&b, `<text x="%d" y="19">%s</text><text x="%d" y="%d">%s</text>`, x, file, x, w-9, file)
		y := bBand + (n-1-i)*bSquare + bSquare/2 + 5
		fmt.Fprintf(&b, `<text x="14" y="%d">%d</text><text x="%d" y="%d">%d</text>`, y, i+1, w-14, y, i+1)
	}
	b.WriteString(`</g><g id="pieces">`)
	for r := 0; r < n; r++ {
		for f := 0; f < n; f++ {
			s := engine.SquareAt(f, r)
			id := map[engine.Piece]string{engine.Attacker: "pa", engine.Defender: "pd", engine.King: "pk"}[p.At(s)]
			if id == "" {
				continue
			}
			x, y := sqXY(s, n)
			fmt.Fprintf(&b, `<use href="#%s" x="%d" y="%d"/>`, id, x+23, y+23)
		}
	}
	b.WriteString(`</g><g id="caps">`)
	for _, c := range last.caps {
		x, y := cellXY(c, n)
		fmt.Fprintf(&b, `<path class="cap" d="M%d %dl20 20M%d %dl-20 20"/>`, x+13, y+13, x+33, y+13)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// lastMarks draws the from- and to-squares of the last ply (hidden when
// there is none).
func lastMarks(last step, n int) string {
	var b strings.Builder
	for _, m := range []struct {
		id   string
		cell int
	}{{"from", last.from}, {"to", last.to}} {
		x, y := 0, 0
		hidden := ` visibility="hidden"`
		if m.cell >= 0 {
			x, y = cellXY(m.cell, n)
			hidden = ""
		}
		fmt.Fprintf(&b, `<rect id="last-%s" class="last-%s" x="%d" y="%d" width="47" height="47"%s/>`, m.id, m.id, x, y, hidden)
	}
	return b.String()
}

// sqXY is the top-left corner of square s inside the grid line.
func sqXY(s engine.Square, n int) (int, int) {
	return bBand + s.File()*bSquare + 1, bBand + (n-1-s.Rank())*bSquare + 1
}

func cellXY(c, n int) (int, int) { return sqXY(engine.SquareAt(c%n, c/n), n) }
