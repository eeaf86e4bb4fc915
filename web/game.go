package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"strings"

	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// gameView is what the game page shows.
type gameView struct {
	Game  *club.Game
	Board *boardView
	// Plies are the plies of the record, resignations and time-outs
	// included; Timed that they have clock times.
	Plies []plyView
	Timed bool
	// LastPly is the number of the last ply, PrevPly the one before it.
	LastPly, PrevPly int
	// Caption says which position the board shows, Start what the
	// start position is called.
	Caption, Start string
	// Rows are the rows of the move list after the start's, written
	// here rather than by the template: a long game has hundreds.
	Rows template.HTML
}

// plyView is one ply of the move list.
type plyView struct {
	N        int
	Side     string // "attackers" or "defenders"
	Text     string // the move in OTN without its capture marks
	Captures string // the captured squares, "d5/f5"; "" for none
	Clock    club.PlyClock
	// Caption says what the board shows after the ply.
	Caption string
}

// games is what the "games" template gets: the page, the games, and
// whether to show each game's event and clocks.
type games struct {
	P              *page
	Games          []*club.Game
	Events, Clocks bool
}

// Games returns the data of a table of games.
func (p *page) Games(gs []*club.Game, events, clocks bool) games {
	return games{P: p, Games: gs, Events: events, Clocks: clocks}
}

// game renders a game's page (ext ".html") or its record (".tafl",
// ".otg", ".csv").
func (s *Site) game(ctx context.Context, g *club.Game, ext, lang string) ([]byte, error) {
	r, err := s.record(ctx, g)
	if err != nil {
		return nil, err
	}
	if ext != ".html" {
		f := map[string]notation.Format{".tafl": notation.FormatNative, ".otg": notation.FormatOTG, ".csv": notation.FormatCSV}[ext]
		var b bytes.Buffer
		if err := club.WriteRecord(&b, r, f); err != nil {
			// a set-up start has no CSV: say so in the file
			return []byte(fmt.Sprintf("# %s: %v\n", g.ID, err)), nil
		}
		return b.Bytes(), nil
	}
	v := &gameView{Game: g}
	if bv, err := drawBoard(r, lang); err == nil {
		v.Board = bv
	}
	clocks := club.PlyClocks(r)
	v.Timed = clocks != nil
	for i, p := range r.Game.Plies {
		pv := plyView{N: i + 1, Side: r.Plies[i].Side.String()}
		switch {
		case p.Ply.Move == nil && p.Ply.Timeout:
			pv.Text = tr(lang, "game.timeout")
		case p.Ply.Move == nil:
			pv.Text = tr(lang, "game.resigns")
		default:
			text := p.Text()
			if r.Plies[i].Played {
				text = plyMove(r.Plies[i])
				var caps []string
				for _, c := range r.Plies[i].Captures {
					caps = append(caps, c.String())
				}
				pv.Captures = strings.Join(caps, "/")
			}
			pv.Text = text
		}
		if clocks != nil {
			pv.Clock = clocks[i]
		}
		v.Plies = append(v.Plies, pv)
	}
	v.LastPly = len(v.Plies)
	if v.Board != nil {
		// the board shows the position after the plies drawBoard could play
		var n int
		for i := range r.Game.Plies {
			if r.Game.Plies[i].Ply.Move != nil && !r.Plies[i].Played {
				break
			}
			n = i + 1
		}
		v.LastPly = n
	}
	v.PrevPly = max(v.LastPly-1, 0)
	v.Start = tr(lang, "game.start")
	for i := range v.Plies {
		pv := &v.Plies[i]
		move := pv.Text
		if pv.Captures != "" {
			move += " ×" + pv.Captures
		}
		pv.Caption = tr(lang, "game.after", pv.N, tr(lang, "side."+pv.Side), move)
	}
	v.Caption = v.Start
	if v.LastPly > 0 {
		v.Caption = v.Plies[v.LastPly-1].Caption
	}
	v.Rows = moveRows(v, lang)
	return s.page("game", lang, "../", tr(lang, "game.title", g.Attackers.Name, g.Defenders.Name), v)
}

// moveRows writes the rows of the move list: number (a link to the
// ply), the mover's dot, the move and its captures, and for a timed game
// the arrival, the time used and the time left.
func moveRows(v *gameView, lang string) template.HTML {
	esc := template.HTMLEscapeString
	capTitle := esc(tr(lang, "game.captures"))
	var b strings.Builder
	for _, pv := range v.Plies {
		cur := ""
		if pv.N == v.LastPly {
			cur = " cur"
		}
		fmt.Fprintf(&b, `<tr id="ply-%d" class="ply %s%s" data-caption="%s"><td class="num"><a href="#ply-%d">%d</a></td>`,
			pv.N, pv.Side, cur, esc(pv.Caption), pv.N, pv.N)
		fmt.Fprintf(&b, `<td class="move"><span class="side-dot %s" aria-hidden="true"></span>%s`, pv.Side, esc(pv.Text))
		if pv.Captures != "" {
			fmt.Fprintf(&b, ` <span class="cap" title="%s">×%s</span>`, capTitle, esc(pv.Captures))
		}
		b.WriteString(`</td>`)
		if v.Timed {
			if c := pv.Clock; c.Arrival.IsZero() {
				b.WriteString(`<td></td><td class="num"></td><td class="num"></td>`)
			} else {
				fmt.Fprintf(&b, `<td>%s</td><td class="num">%s</td><td class="num">%s</td>`,
					whenText(lang, c.Arrival), duration(lang, c.Used), duration(lang, c.Left))
			}
		}
		b.WriteString("</tr>\n")
	}
	return template.HTML(b.String())
}

// plyMove writes a played ply's move: "Kf6-f9" for the king, "d1-d3".
func plyMove(p notation.PlyResult) string {
	if p.Piece == engine.King {
		return "K" + p.Move.String()
	}
	return p.Move.String()
}
