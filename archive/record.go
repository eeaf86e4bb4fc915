package archive

import (
	"fmt"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
)

// storedTerminations maps the referee's reasons (archive.Game.Reason) to
// the Termination words of the native record format (docs/notation.md).
var storedTerminations = map[string]string{
	"escape":        "king escaped",
	"king captured": "king captured",
	"edge fort":     "edge fort",
	"encirclement":  "encirclement",
	"repetition":    "repetition",
	"no legal move": "no legal move",
	"resignation":   "resignation",
	"timeout":       "timeout",
	"draw agreed":   "agreement",
}

// storedOutcomes maps archive.Game.Result to the record's outcome.
var storedOutcomes = map[string]grammar.Outcome{
	"attackers": grammar.AttackersWin, "defenders": grammar.DefendersWin, "draw": grammar.Draw,
}

// Replay turns a stored game into a notation.Game — the record
// 'taflmail history' mails, with the tags the referee writes — and replays
// it through the engine. A resignation or time-out of the side to move
// becomes a final "resigns"/"timeout" ply; one of the other side (a player
// may resign while the opponent is to move) only the Termination tag. It
// fails when the game cannot be set up at all (unknown variant, malformed
// ply text); disagreements with the rules are in the Replay's Errors.
func (g *Game) Replay() (*notation.Replay, error) {
	v, ok := engine.Lookup(g.Variant)
	if !ok {
		return nil, fmt.Errorf("game %s: unknown variant %q", g.ID, g.Variant)
	}
	ng := &notation.Game{
		Filename: g.ID, Format: notation.FormatNative, Number: 1,
		VariantName: v.Name, Variant: v,
		Tags: []notation.Tag{
			{Name: "Event", Value: "taflmail correspondence game " + g.ID},
			{Name: "Site", Value: "taflmail"},
			{Name: "Date", Value: g.CreatedAt.UTC().Format("2006.01.02")},
			{Name: "Round", Value: "-"},
			{Name: "Attackers", Value: g.Attackers},
			{Name: "Defenders", Value: g.Defenders},
		},
		Result:      storedOutcomes[g.Result],
		Termination: storedTerminations[g.Reason],
	}
	if g.TimeControl != "" {
		ng.Tags = append(ng.Tags, notation.Tag{Name: "TimeControl", Value: g.TimeControl})
	}
	ng.TerminationText = ng.Termination
	side := v.FirstSide
	if g.StartPosition != "" {
		board, toMove, err := notation.ParsePosition(g.StartPosition)
		if err != nil {
			return nil, fmt.Errorf("game %s: start position: %w", g.ID, err)
		}
		ng.Setup = &notation.Setup{Board: board, ToMove: toMove}
		side = toMove
	}
	number := 1
	add := func(i int, p *grammar.Ply) {
		if i > 0 && side == engine.Attackers {
			number++
		}
		ng.Plies = append(ng.Plies, notation.Ply{Ply: p, Number: number, Second: side == engine.Defenders})
		side = side.Opponent()
	}
	for i, p := range g.Plies {
		ply, err := grammar.ParsePly(g.ID, []byte(p.Move))
		if err != nil {
			return nil, fmt.Errorf("game %s: ply %d %q: %w", g.ID, p.N, p.Move, err)
		}
		add(i, ply)
	}
	if g.Reason == "resignation" || g.Reason == "timeout" {
		// The loser's token fits only where the loser is to move.
		loser := engine.Attackers
		if g.Result == "attackers" {
			loser = engine.Defenders
		}
		if loser == side {
			add(len(g.Plies), &grammar.Ply{Resign: g.Reason == "resignation", Timeout: g.Reason == "timeout"})
		}
	}
	return ng.Replay(), nil
}
