package referee

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

// Table is a game being worked on while one mail is handled: the stored
// game, its position replayed through the engine, and what this mail adds.
type Table struct {
	Game    *archive.Game    // the stored game, changed in place by the session
	Variant *engine.Variant  // the game's rules
	Pos     *engine.Position // the position after the last ply, replayed
	// Last is the last ply played, for the diagram.
	Last *engine.PlyResult
	// NewPlies are the plies this session added, to be stored.
	NewPlies []archive.Ply
	// Changed reports that the session changed the game's row.
	Changed bool
	// WasOver: the game was over when it was loaded, so this session
	// did not end it (tournament_end.go: results, standings, ratings).
	WasOver bool
}

// LimitEventLeave cuts the players' leave of a tournament game to what
// the event allows per calendar year (CORRESPONDENCE.md §3.1: a
// tournament may allow fewer days, or none; clock.LimitLeave), so that
// its clocks, its timers and its record count only that. The allowance
// is the game's own data (archive.Game.Event), so every game loaded is
// cut (Load), a casual game not at all.
func LimitEventLeave(g *archive.Game) { club.LimitEventLeave(g) }

// Load replays a stored game into a Table. A stored game that does not
// replay is an internal error: the archive only holds plies the engine
// accepted.
func Load(g *archive.Game) (*Table, error) {
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
	LimitEventLeave(g)
	t := &Table{Game: g, Variant: v, Pos: r.Final, WasOver: g.Status == archive.Finished}
	for i, pr := range r.Plies {
		if r.Game.Plies[i].Ply.Move == nil {
			continue // a resignation or time-out token
		}
		if !pr.Played || pr.AfterEnd {
			return nil, fmt.Errorf("server: game %s ply %d does not replay: %v", g.ID, i+1, r.Err())
		}
		t.Last = &r.Plies[i].PlyResult
	}
	if t.Pos == nil {
		return nil, fmt.Errorf("server: game %s: no position after replay: %v", g.ID, r.Err())
	}
	return t, nil
}

// EngineMove converts a parsed move to the engine's coordinates.
func EngineMove(m *grammar.Move) engine.Move {
	return engine.Move{
		From: engine.SquareAt(m.From.File, m.From.Rank-1),
		To:   engine.SquareAt(m.To.File, m.To.Rank-1),
	}
}

// PlyText writes a played ply in canonical OTN: "d1-d3", with the
// captured squares as "xd4/e5", a captured king, who stood on king, as
// "xKf6", and a move of the king as "Kf6-c6".
func PlyText(r engine.PlyResult, king engine.Square) string {
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

// SideOf returns "attackers" or "defenders" for an address in game g, or ""
// when the address plays neither side.
func SideOf(g *archive.Game, addr string) string {
	switch addr {
	case g.Attackers:
		return "attackers"
	case g.Defenders:
		return "defenders"
	}
	return ""
}

// OpponentOf returns the other player's address.
func OpponentOf(g *archive.Game, addr string) string {
	if addr == g.Attackers {
		return g.Defenders
	}
	return g.Attackers
}

// TokenOf returns the per-game key of the player at addr.
func TokenOf(g *archive.Game, addr string) string {
	switch addr {
	case g.Attackers:
		return g.AttackerToken
	case g.Defenders:
		return g.DefenderToken
	}
	return ""
}

// AddressOf returns the address playing side.
func AddressOf(g *archive.Game, side string) string {
	if side == "attackers" {
		return g.Attackers
	}
	return g.Defenders
}

// Plies returns every ply of the table, stored and new.
func (t *Table) Plies() []archive.Ply {
	return append(append([]archive.Ply(nil), t.Game.Plies...), t.NewPlies...)
}

// ToMove names the side to move.
func (t *Table) ToMove() string { return t.Pos.ToMove().String() }

// MoveNumber is the number of the move pair the next ply belongs to
// (RULES.md §0: a move number counts pairs of plies).
func (t *Table) MoveNumber() int { return t.Pos.Ply()/2 + 1 }

// Board draws the position as the ASCII diagram of every reply, marking
// the last ply and its captures, with the legend in lang; marked
// mailer.Preformatted.
func (t *Table) Board(lang string) string {
	var b strings.Builder
	opts := []notation.DiagramOption{notation.WithWords(catalog.DiagramWords(lang))}
	if t.Game.Status == archive.Finished && !t.Pos.Outcome().Over() {
		// resigned or drawn by agreement: the engine would still name a
		// side to move; the reply says how the game ended
		opts = append(opts, notation.WithoutSideToMove())
	}
	if t.Last != nil {
		opts = append(opts, notation.WithLastMove(t.Last.Move), notation.WithCaptures(t.Last.Captures...))
	}
	if err := notation.WriteASCII(&b, t.Pos, opts...); err != nil {
		return Tr(lang, "board.unavailable")
	}
	return mailer.Preformatted(b.String())
}

// moveList writes the plies as numbered move pairs, "  1. d1-d3  h6-h9",
// marked mailer.Preformatted.
func (t *Table) moveList(lang string) string {
	ps := t.Plies()
	if len(ps) == 0 {
		return "  " + Tr(lang, "move.none") + "\n"
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

// Record writes the game as a canonical native record (docs/notation.md),
// the same text `taflmail export` writes and `taflmail validate` accepts.
func (t *Table) Record() (string, error) {
	g := *t.Game
	g.Plies = t.Plies()
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

// RecordText is the record for a reply in lang, or a note that it is
// unavailable.
func (t *Table) RecordText(lang string) string {
	rec, err := t.Record()
	if err != nil {
		return Tr(lang, "record.unavailable", err)
	}
	return rec
}

// Reasons of a declined game other than the invited player's decline.
const (
	// ReasonWithdrawn is the reason of a challenge its challenger
	// cancelled ("cancel challenge").
	ReasonWithdrawn = "withdrawn"
	// ReasonExpired is the reason of an invitation nobody answered within
	// Options.InvitationExpiry (its timer, InvitationKey).
	ReasonExpired = "expired"
	// ReasonUndeliverable is the reason of an invitation whose mail the
	// relay gave up on (invitationFailed).
	ReasonUndeliverable = "undeliverable"
)
