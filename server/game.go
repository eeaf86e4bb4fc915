package server

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
)

// table is a game being worked on while one mail is handled: the stored
// game, its position replayed through the engine, and what this mail adds.
type table struct {
	g        *archive.Game
	v        *engine.Variant
	pos      *engine.Position
	last     *engine.PlyResult // the last ply played, for the diagram
	newPlies []archive.Ply
	changed  bool
}

// load replays a stored game into a table. A stored game that does not
// replay is an internal error: the archive only holds plies the engine
// accepted.
func load(g *archive.Game) (*table, error) {
	v, ok := engine.Lookup(g.Variant)
	if !ok {
		return nil, fmt.Errorf("server: game %s: unknown variant %q", g.ID, g.Variant)
	}
	if g.StartPosition != "" {
		return nil, fmt.Errorf("server: game %s: set-up positions are not supported yet", g.ID)
	}
	pos, err := engine.NewPosition(v)
	if err != nil {
		return nil, fmt.Errorf("server: game %s: %w", g.ID, err)
	}
	t := &table{g: g, v: v, pos: pos}
	for _, p := range g.Plies {
		m, err := grammar.ParseMove(g.ID, []byte(p.Move))
		if err != nil {
			return nil, fmt.Errorf("server: game %s ply %d %q: %w", g.ID, p.N, p.Move, err)
		}
		r, err := pos.Play(engineMove(m))
		if err != nil {
			return nil, fmt.Errorf("server: game %s ply %d: %w", g.ID, p.N, err)
		}
		t.last = &r
	}
	return t, nil
}

// engineMove converts a parsed move to the engine's coordinates.
func engineMove(m *grammar.Move) engine.Move {
	return engine.Move{
		From: engine.SquareAt(m.From.File, m.From.Rank-1),
		To:   engine.SquareAt(m.To.File, m.To.Rank-1),
	}
}

// plyText writes a played ply in canonical OTN: "d1-d3", with the
// captured squares as "xd4/e5" and a captured king, who stood on king, as
// "xKf6".
func plyText(r engine.PlyResult, king engine.Square) string {
	var b strings.Builder
	b.WriteString(r.Move.String())
	for i, c := range r.Captures {
		if i == 0 {
			b.WriteByte('x')
		} else {
			b.WriteByte('/')
		}
		if c == king && r.Piece != engine.King {
			b.WriteByte('K')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// sideOf returns "attackers" or "defenders" for an address in game g, or ""
// when the address plays neither side.
func sideOf(g *archive.Game, addr string) string {
	switch addr {
	case g.Attackers:
		return "attackers"
	case g.Defenders:
		return "defenders"
	}
	return ""
}

// opponentOf returns the other player's address.
func opponentOf(g *archive.Game, addr string) string {
	if addr == g.Attackers {
		return g.Defenders
	}
	return g.Attackers
}

// tokenOf returns the per-game key of the player at addr.
func tokenOf(g *archive.Game, addr string) string {
	switch addr {
	case g.Attackers:
		return g.AttackerToken
	case g.Defenders:
		return g.DefenderToken
	}
	return ""
}

// addressOf returns the address playing side.
func addressOf(g *archive.Game, side string) string {
	if side == "attackers" {
		return g.Attackers
	}
	return g.Defenders
}

// plies returns every ply of the table, stored and new.
func (t *table) plies() []archive.Ply {
	return append(append([]archive.Ply(nil), t.g.Plies...), t.newPlies...)
}

// toMove names the side to move.
func (t *table) toMove() string { return t.pos.ToMove().String() }

// moveNumber is the number of the move pair the next ply belongs to
// (RULES.md §0: a move number counts pairs of plies).
func (t *table) moveNumber() int { return t.pos.Ply()/2 + 1 }

// board draws the position as the ASCII diagram of every reply, marking
// the last ply and its captures.
func (t *table) board() string {
	var b strings.Builder
	var opts []notation.DiagramOption
	if t.last != nil {
		opts = append(opts, notation.WithLastMove(t.last.Move), notation.WithCaptures(t.last.Captures...))
	}
	if err := notation.WriteASCII(&b, t.pos, opts...); err != nil {
		return "(board unavailable)"
	}
	return b.String()
}

// moveList writes the plies as numbered move pairs, "  1. d1-d3  h6-h9".
func (t *table) moveList(lang string) string {
	ps := t.plies()
	if len(ps) == 0 {
		return "  " + tr(lang, "move.none") + "\n"
	}
	var b strings.Builder
	for i := 0; i < len(ps); i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%4d. %-14s", i/2+1, ps[i].Move)
		} else {
			fmt.Fprintf(&b, "%s\n", ps[i].Move)
		}
	}
	if len(ps)%2 == 1 {
		b.WriteString("\n")
	}
	return b.String()
}

// record writes the game in the native record format (docs/notation.md),
// which `taflmail validate` accepts.
func (t *table) record() string {
	rec := &grammar.Record{
		Tags: []*grammar.Tag{
			{Name: "Event", Value: "taflmail correspondence game " + t.g.ID},
			{Name: "Site", Value: "taflmail"},
			{Name: "Date", Value: t.g.CreatedAt.UTC().Format("2006.01.02")},
			{Name: "Round", Value: "-"},
			{Name: "Attackers", Value: t.g.Attackers},
			{Name: "Defenders", Value: t.g.Defenders},
			{Name: "Variant", Value: t.g.Variant},
			{Name: "Result", Value: resultToken(t.g.Result)},
		},
		Result: &grammar.Result{Outcome: resultOutcome(t.g.Result)},
	}
	if t.g.Reason != "" {
		if term, ok := terminations[t.g.Reason]; ok {
			rec.Tags = append(rec.Tags, &grammar.Tag{Name: "Termination", Value: term})
		}
	}
	ps := t.plies()
	for i := 0; i < len(ps); i += 2 {
		turn := &grammar.Turn{Number: i/2 + 1}
		p, err := grammar.ParsePly("", []byte(ps[i].Move))
		if err != nil {
			return ""
		}
		turn.First = &grammar.AnnotatedPly{Ply: p}
		if i+1 < len(ps) {
			q, err := grammar.ParsePly("", []byte(ps[i+1].Move))
			if err != nil {
				return ""
			}
			turn.Second = &grammar.AnnotatedPly{Ply: q}
		}
		rec.Turns = append(rec.Turns, turn)
	}
	if t.g.Reason == "resignation" {
		resign := &grammar.Ply{Resign: true}
		if len(ps)%2 == 0 {
			rec.Turns = append(rec.Turns, &grammar.Turn{Number: len(ps)/2 + 1, First: &grammar.AnnotatedPly{Ply: resign}})
		} else {
			rec.Turns[len(rec.Turns)-1].Second = &grammar.AnnotatedPly{Ply: resign}
		}
	}
	var b strings.Builder
	if err := grammar.WriteRecord(&b, rec); err != nil {
		return ""
	}
	return b.String()
}

// terminations maps the engine's and the server's reasons to the words of
// the record format's Termination tag (docs/notation.md).
var terminations = map[string]string{
	"escape":        "king escaped",
	"king captured": "king captured",
	"edge fort":     "edge fort",
	"encirclement":  "encirclement",
	"repetition":    "repetition",
	"no legal move": "no legal move",
	"resignation":   "resignation",
	"draw agreed":   "agreement",
	"timeout":       "timeout",
}

func resultToken(r string) string {
	if r == "" {
		return "*"
	}
	return r
}

func resultOutcome(r string) grammar.Outcome {
	switch r {
	case "attackers":
		return grammar.AttackersWin
	case "defenders":
		return grammar.DefendersWin
	case "draw":
		return grammar.Draw
	}
	return grammar.Unfinished
}
