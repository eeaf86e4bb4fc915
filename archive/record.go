package archive

import (
	"fmt"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// storedReasons maps the referee's reasons (archive.Game.Reason, the
// words of engine.Reason.String) to the engine's.
var storedReasons = map[string]engine.Reason{
	"escape": engine.ReasonEscape, "king captured": engine.ReasonKingCaptured,
	"edge fort": engine.ReasonEdgeFort, "encirclement": engine.ReasonEncirclement,
	"repetition": engine.ReasonRepetition, "no legal move": engine.ReasonNoLegalMove,
	"resignation": engine.ReasonResignation, "timeout": engine.ReasonTimeout,
	"draw agreed": engine.ReasonDrawAgreed,
	// a tournament game lost because its player withdrew (Decision T3)
	// is a resignation as far as the record goes; an annulled one has no
	// result and goes on ("*") in the record
	"withdrawal": engine.ReasonResignation,
}

// storedResults maps archive.Game.Result to the engine's result.
var storedResults = map[string]engine.Result{
	"attackers": engine.AttackersWin, "defenders": engine.DefendersWin, "draw": engine.Draw,
}

// takenBackComment is the record's comment for a ply undone by agreement,
// written after the ply before it: "ply 3 d2-f2 taken back by agreement".
func takenBackComment(tb TakenBack) string {
	return fmt.Sprintf("ply %d %s taken back by agreement", tb.N, tb.Move)
}

// Replay turns a stored game into a notation.Game — the record
// 'taflmail history' mails, with the tags the referee writes (a
// tournament game's Event and Round from its Event) — and replays
// it through the engine. A resignation or time-out of the side to move
// becomes a final "resigns"/"timeout" ply; one of the other side (a player
// may resign while the opponent is to move) only the Termination tag
// (notation.NewGame). A ply taken back (Game.TakenBack) is not played; a
// comment after the ply before it names it. A timed game that has started
// carries its clock data (CORRESPONDENCE.md §5): the TimeControl, Start
// and leave tags (the players' leave that touches the game), every ply's
// arrival as %ts (and %avail where the commit was later), and a final
// time-out's declaration or resignation's arrival as its %ts; any other
// game is written as before clocks existed. A finished game whose end no
// ply's %ts tells (EndedAt) gets an End tag (setEnd); a game that is not
// rated, a Rated tag "no" (notation.TagRated). It fails when the game cannot be set up at all
// (unknown variant, malformed start position or ply text); disagreements
// with the rules are in the Replay's Errors.
func (g *Game) Replay() (*notation.Replay, error) {
	v, ok := engine.Lookup(g.Variant)
	if !ok {
		return nil, fmt.Errorf("game %s: unknown variant %q", g.ID, g.Variant)
	}
	event, round := "taflmail correspondence game "+g.ID, "-"
	if g.Event != nil {
		event, round = g.Event.Name, g.Event.RoundTag()
	}
	spec := notation.GameSpec{
		Filename: g.ID, Variant: v,
		Tags: []notation.Tag{
			{Name: "Event", Value: event},
			{Name: "Site", Value: "taflmail"},
			{Name: "Date", Value: g.CreatedAt.UTC().Format("2006.01.02")},
			{Name: "Round", Value: round},
			{Name: "Attackers", Value: g.Attackers},
			{Name: "Defenders", Value: g.Defenders},
		},
		Result: storedResults[g.Result],
		Reason: storedReasons[g.Reason],
		Plies:  make([]string, len(g.Plies)),
	}
	if !g.Rated {
		spec.Tags = append(spec.Tags, notation.Tag{Name: notation.TagRated, Value: "no"})
	}
	if g.TimeControl != "" {
		spec.Tags = append(spec.Tags, notation.Tag{Name: "TimeControl", Value: g.TimeControl})
	}
	if g.StartPosition != "" {
		board, toMove, err := notation.ParsePosition(g.StartPosition)
		if err != nil {
			return nil, fmt.Errorf("game %s: start position: %w", g.ID, err)
		}
		spec.Setup = &notation.Setup{Board: board, ToMove: toMove}
	}
	for i, p := range g.Plies {
		spec.Plies[i] = p.Move
	}
	for _, tb := range g.TakenBack {
		spec.Comments = append(spec.Comments, notation.PlyComment{After: tb.N - 1, Text: takenBackComment(tb)})
	}
	ng, err := notation.NewGame(spec)
	if err != nil {
		return nil, err
	}
	g.setClock(ng)
	g.setEnd(ng)
	return ng.Replay(), nil
}

// setClock writes the clock data of a timed game that has started into
// its record (CORRESPONDENCE.md §5).
func (g *Game) setClock(ng *notation.Game) {
	if g.TimeControl == "" || g.StartedAt.IsZero() {
		return
	}
	tc, err := notation.ParseTimeControl(g.ID, g.TimeControl)
	if err != nil || !tc.Timed() {
		return // free text of an older game: the tag stays as it is
	}
	c := notation.Clock{Control: tc, Start: g.StartedAt}
	for side, ls := range g.Leave {
		for _, l := range ls {
			if l.End().After(g.StartedAt) && (g.EndedAt.IsZero() || l.Start().Before(g.EndedAt)) {
				c.Leave[side] = append(c.Leave[side], l)
			}
		}
	}
	ng.SetClock(c)
	for i, p := range g.Plies {
		if i < len(ng.Plies) {
			ng.Plies[i].Time = notation.PlyTime{Arrival: p.At, Avail: p.Avail}
		}
	}
	if n := len(ng.Plies); n == len(g.Plies)+1 && !g.EndedAt.IsZero() {
		// a final time-out or resignation carries when the game ended (the
		// declaration, the resigning mail's arrival), so that its record
		// ends then and not at the ply before it (Decision R1)
		ng.Plies[n-1].Time = notation.PlyTime{Arrival: g.EndedAt}
	}
}

// setEnd writes when a finished game ended into its record as an End
// tag when the record would not tell it otherwise: when its last ply's
// %ts (tournament.GameEnd) is another instant, or it has none (a draw
// agreed, a resignation while the opponent was to move, a game lost by
// withdrawal, any finished untimed game). So every reader of the record
// rates the game at the instant the referee rated it (Decision R1), and
// in the same order as the referee.
func (g *Game) setEnd(ng *notation.Game) {
	if g.Status != Finished || g.EndedAt.IsZero() || g.Result == "" {
		return
	}
	if n := len(ng.Plies); n > 0 && ng.Plies[n-1].Time.Arrival.Equal(g.EndedAt) {
		return
	}
	ng.Tags = append(ng.Tags, notation.Tag{Name: notation.TagEnd, Value: notation.FormatInstant(g.EndedAt)})
}
