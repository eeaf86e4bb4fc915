package notation

import (
	"fmt"
	"io"
	"strings"

	"github.com/taflmail/taflmail/engine"
)

// DiagramOption changes what a diagram shows.
type DiagramOption func(*diagramConfig)

type diagramConfig struct {
	last     *engine.Move
	captured map[engine.Square]bool
	legend   bool
	toMove   bool
}

// WithLastMove marks the from- and to-square of the last ply.
func WithLastMove(m engine.Move) DiagramOption {
	return func(c *diagramConfig) { c.last = &m }
}

// WithCaptures marks the squares whose pieces the last ply captured.
func WithCaptures(squares ...engine.Square) DiagramOption {
	return func(c *diagramConfig) {
		for _, s := range squares {
			c.captured[s] = true
		}
	}
}

// WithoutLegend leaves out the legend lines under the board.
func WithoutLegend() DiagramOption { return func(c *diagramConfig) { c.legend = false } }

// WithoutSideToMove leaves out the line that says whose ply is next.
func WithoutSideToMove() DiagramOption { return func(c *diagramConfig) { c.toMove = false } }

// glyphs is the character set of one diagram style.
type glyphs struct {
	attacker, defender, king, empty, throne, corner, captured string
	fromOpen, fromClose, toOpen, toClose                      string
}

var (
	asciiGlyphs = glyphs{
		attacker: "A", defender: "D", king: "K", empty: ".", throne: "+", corner: "#", captured: "x",
		fromOpen: "(", fromClose: ")", toOpen: "[", toClose: "]",
	}
	unicodeGlyphs = glyphs{
		attacker: "●", defender: "○", king: "♔", empty: "·", throne: "⊕", corner: "⊠", captured: "×",
		fromOpen: "(", fromClose: ")", toOpen: "[", toClose: "]",
	}
)

// WriteASCII draws p as 7-bit ASCII text, the board of every mail reply:
// files a.. above and below, ranks on both sides, three columns per square
// (so 19×19 fits in 64 columns), empty throne '+' and corners '#', the last
// ply's from-square in parentheses and its to-square in brackets, captured
// squares 'x', then a legend and the side to move. It returns the first
// write error.
func WriteASCII(w io.Writer, p *engine.Position, opts ...DiagramOption) error {
	return writeDiagram(w, p, asciiGlyphs, opts)
}

// WriteUnicode draws p like WriteASCII with Unicode pieces for terminals:
// ● attacker, ○ defender, ♔ king, ⊕ throne, ⊠ corner, × captured.
func WriteUnicode(w io.Writer, p *engine.Position, opts ...DiagramOption) error {
	return writeDiagram(w, p, unicodeGlyphs, opts)
}

func writeDiagram(w io.Writer, p *engine.Position, gl glyphs, opts []DiagramOption) error {
	c := diagramConfig{captured: map[engine.Square]bool{}, legend: true, toMove: true}
	for _, o := range opts {
		o(&c)
	}
	v := p.Variant()
	n := p.Size()
	throne, hasThrone := v.ThroneSquare()
	var sb strings.Builder
	files := func() {
		sb.WriteString("    ")
		for f := 0; f < n; f++ {
			sb.WriteString(" " + string(rune('a'+f)) + " ")
		}
		sb.WriteString("\n")
	}
	files()
	for r := n - 1; r >= 0; r-- {
		fmt.Fprintf(&sb, "%3d ", r+1)
		for f := 0; f < n; f++ {
			s := engine.SquareAt(f, r)
			var body string
			switch p.At(s) {
			case engine.Attacker:
				body = gl.attacker
			case engine.Defender:
				body = gl.defender
			case engine.King:
				body = gl.king
			default:
				switch {
				case c.captured[s]:
					body = gl.captured
				case hasThrone && s == throne:
					body = gl.throne
				case v.Corners.Present && v.IsCorner(s):
					body = gl.corner
				default:
					body = gl.empty
				}
			}
			open, close := " ", " "
			if c.last != nil && s == c.last.From {
				open, close = gl.fromOpen, gl.fromClose
			}
			if c.last != nil && s == c.last.To {
				open, close = gl.toOpen, gl.toClose
			}
			sb.WriteString(open + body + close)
		}
		fmt.Fprintf(&sb, " %d\n", r+1)
	}
	files()
	if c.legend {
		sb.WriteString(fmt.Sprintf("  %s attacker  %s defender  %s king", gl.attacker, gl.defender, gl.king))
		if hasThrone {
			sb.WriteString(fmt.Sprintf("  %s throne", gl.throne))
		}
		if v.Corners.Present {
			sb.WriteString(fmt.Sprintf("  %s corner", gl.corner))
		}
		sb.WriteString("\n")
		if c.last != nil || len(c.captured) > 0 {
			sb.WriteString("  ")
			if c.last != nil {
				sb.WriteString(fmt.Sprintf("last ply %s: %s%s from, %s%s to", c.last, gl.fromOpen, gl.fromClose, gl.toOpen, gl.toClose))
			}
			if len(c.captured) > 0 {
				if c.last != nil {
					sb.WriteString("  ")
				}
				sb.WriteString(gl.captured + " captured")
			}
			sb.WriteString("\n")
		}
	}
	if c.toMove {
		if o := p.Outcome(); o.Over() {
			sb.WriteString(fmt.Sprintf("  game over: %s (%s)\n", resultWords(o.Result), o.Reason))
		} else {
			sb.WriteString(fmt.Sprintf("  %s to move\n", p.ToMove()))
		}
	}
	lines := strings.Split(sb.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

// resultWords says a result in a sentence: "attackers win", "draw".
func resultWords(r engine.Result) string {
	switch r {
	case engine.AttackersWin:
		return "attackers win"
	case engine.DefendersWin:
		return "defenders win"
	case engine.Draw:
		return "draw"
	}
	return "ongoing"
}
