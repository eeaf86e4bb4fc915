package notation

import (
	"fmt"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

// GameSpec describes a game kept as data rather than as a record file, as
// the archive keeps the referee's games: rules, tags, start, the plies as
// text and how the game ended. NewGame turns it into a Game.
type GameSpec struct {
	// Filename names the game in positions and errors (the archive: the
	// game id).
	Filename string
	// Variant is the rules; the Game's VariantName is its Name. Required.
	Variant *engine.Variant
	// Tags are the header tags, in order (native names: Event, Site, …).
	Tags []Tag
	// Setup is the set-up position the game starts from, or nil for the
	// variant's start position.
	Setup *Setup
	// Plies are the moves in the order played, as OTN move text ("d1-e1",
	// "d2-f2xf3"; RULES.md §0), without move numbers.
	Plies []string
	// Result is who won: engine.Ongoing while the game runs.
	Result engine.Result
	// Reason is how the game ended (RULES.md §1.6, or §1.7 for a
	// resignation, a time-out or an agreed draw); NoReason while it runs.
	Reason engine.Reason
	// Comments are written into the record, each after the first After
	// plies of Plies (before the first ply when After is 0), in the order
	// given; an After beyond the plies puts the comment after the last
	// one. The archive notes a takeback this way (issue 12).
	Comments []PlyComment
}

// PlyComment is a comment of a GameSpec: its text, written after the
// first After plies.
type PlyComment struct {
	After int
	Text  string
}

// nativeTerminations are the native Termination words (docs/notation.md)
// for the engine's reasons.
var nativeTerminations = map[engine.Reason]string{
	engine.ReasonEscape:       "king escaped",
	engine.ReasonKingCaptured: "king captured",
	engine.ReasonEdgeFort:     "edge fort",
	engine.ReasonEncirclement: "encirclement",
	engine.ReasonRepetition:   "repetition",
	engine.ReasonNoLegalMove:  "no legal move",
	engine.ReasonResignation:  "resignation",
	engine.ReasonTimeout:      "timeout",
	engine.ReasonDrawAgreed:   "agreement",
}

// NewGame builds the native-format Game of spec, numbered 1: its plies
// parsed (grammar.ParsePly) and numbered in pairs with the attackers'
// ply first (RULES.md §0), the result and Termination from Result and
// Reason. A resignation or time-out by the side to move after the last
// ply becomes a final resignation or time-out ply, as a record writes it;
// one by the other side (a player may resign while the opponent is to
// move) shows only in the Termination. Replay the Game to check it.
//
// It fails with a *grammar.Error, wrapped with the ply's number and text,
// when a ply is not well-formed move text, and when Variant is nil.
func NewGame(spec GameSpec) (*Game, error) {
	v := spec.Variant
	if v == nil {
		return nil, fmt.Errorf("notation: game %s: no variant", spec.Filename)
	}
	g := &Game{
		Filename: spec.Filename, Format: FormatNative, Number: 1,
		VariantName: v.Name, Variant: v, Setup: spec.Setup,
		Tags:        append([]Tag(nil), spec.Tags...),
		Result:      outcomeOf(spec.Result),
		Termination: nativeTerminations[spec.Reason],
		Plies:       make([]Ply, 0, len(spec.Plies)+1),
	}
	g.TerminationText = g.Termination
	side := v.FirstSide
	if spec.Setup != nil {
		side = spec.Setup.ToMove
	}
	number := 1
	add := func(p *grammar.Ply) {
		if len(g.Plies) > 0 && side == engine.Attackers {
			number++
		}
		g.Plies = append(g.Plies, Ply{Ply: p, Number: number, Second: side == engine.Defenders})
		side = side.Opponent()
	}
	plies, bad, err := grammar.ParsePlies(spec.Filename, spec.Plies)
	if err != nil {
		return nil, fmt.Errorf("notation: game %s: ply %d %q: %w", spec.Filename, bad+1, spec.Plies[bad], err)
	}
	for _, p := range plies {
		add(p)
	}
	for _, c := range spec.Comments {
		switch n := min(c.After, len(g.Plies)); {
		case n <= 0:
			g.Comments = append(g.Comments, c.Text)
		default:
			g.Plies[n-1].Comments = append(g.Plies[n-1].Comments, c.Text)
		}
	}
	if spec.Reason == engine.ReasonResignation || spec.Reason == engine.ReasonTimeout {
		if winner, ok := spec.Result.Winner(); ok && winner.Opponent() == side {
			add(&grammar.Ply{Resign: spec.Reason == engine.ReasonResignation, Timeout: spec.Reason == engine.ReasonTimeout})
		}
	}
	return g, nil
}
