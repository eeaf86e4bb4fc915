package server

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/club"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
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
	// wasOver: the game was over when it was loaded, so this session
	// did not end it (tournament.go: results, standings, ratings).
	wasOver bool
}

// limitEventLeave cuts the players' leave of a tournament game to what
// the event allows per calendar year (CORRESPONDENCE.md §3.1: a
// tournament may allow fewer days, or none; clock.LimitLeave), so that
// its clocks, its timers and its record count only that. The allowance
// is the game's own data (archive.Game.Event), so every game loaded is
// cut (load), a casual game not at all.
func limitEventLeave(g *archive.Game) { club.LimitEventLeave(g) }

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
	r, err := g.Replay()
	if err != nil {
		return nil, fmt.Errorf("server: game %s: %w", g.ID, err)
	}
	limitEventLeave(g)
	t := &table{g: g, v: v, pos: r.Final, wasOver: g.Status == archive.Finished}
	for i, pr := range r.Plies {
		if r.Game.Plies[i].Ply.Move == nil {
			continue // a resignation or time-out token
		}
		if !pr.Played || pr.AfterEnd {
			return nil, fmt.Errorf("server: game %s ply %d does not replay: %v", g.ID, i+1, r.Err())
		}
		t.last = &r.Plies[i].PlyResult
	}
	if t.pos == nil {
		return nil, fmt.Errorf("server: game %s: no position after replay: %v", g.ID, r.Err())
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
// captured squares as "xd4/e5", a captured king, who stood on king, as
// "xKf6", and a move of the king as "Kf6-c6".
func plyText(r engine.PlyResult, king engine.Square) string {
	var b strings.Builder
	if r.Piece == engine.King {
		b.WriteByte('K') // canonical OTN marks the king's moves (notation.WriteNative)
	}
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
// the last ply and its captures, with the legend in lang; marked
// mailer.Preformatted.
func (t *table) board(lang string) string {
	var b strings.Builder
	opts := []notation.DiagramOption{notation.WithWords(catalog.DiagramWords(lang))}
	if t.g.Status == archive.Finished && !t.pos.Outcome().Over() {
		// resigned or drawn by agreement: the engine would still name a
		// side to move; the reply says how the game ended
		opts = append(opts, notation.WithoutSideToMove())
	}
	if t.last != nil {
		opts = append(opts, notation.WithLastMove(t.last.Move), notation.WithCaptures(t.last.Captures...))
	}
	if err := notation.WriteASCII(&b, t.pos, opts...); err != nil {
		return tr(lang, "board.unavailable")
	}
	return mailer.Preformatted(b.String())
}

// moveList writes the plies as numbered move pairs, "  1. d1-d3  h6-h9",
// marked mailer.Preformatted.
func (t *table) moveList(lang string) string {
	ps := t.plies()
	if len(ps) == 0 {
		return "  " + tr(lang, "move.none") + "\n"
	}
	var b strings.Builder
	for i := 0; i < len(ps); i += 2 {
		line := fmt.Sprintf("%4d. %-14s", i/2+1, ps[i].Move)
		if i+1 < len(ps) {
			line += ps[i+1].Move
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return mailer.Preformatted(b.String())
}

// record writes the game as a canonical native record (docs/notation.md),
// the same text `taflmail export` writes and `taflmail validate` accepts.
func (t *table) record() (string, error) {
	g := *t.g
	g.Plies = t.plies()
	r, err := g.Replay()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := notation.WriteNative(&b, r); err != nil {
		return "", err
	}
	return b.String(), nil
}

// recordText is the record for a reply in lang, or a note that it is
// unavailable.
func (t *table) recordText(lang string) string {
	rec, err := t.record()
	if err != nil {
		return tr(lang, "record.unavailable", err)
	}
	return rec
}
