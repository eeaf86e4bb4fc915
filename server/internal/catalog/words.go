package catalog

import (
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/tournament"
)

// This file holds the words other packages own and the catalogue says in a
// language: sides, pieces, variants, the board diagram's legend and the
// engine's reasons for refusing a move. Their English texts are the
// engine's and notation's own (TestCatalogEnglishIsTheSources,
// TestIllegalReasons), so English replies read as those packages write.

// Side names a side in lang: Side(English, "attackers") is "attackers",
// Side(German, "attackers") "Angreifer". side is "attackers" or
// "defenders"; another gives the key "side."+side, as Text does.
func Side(lang, side string) string { return Text(lang, "side."+side) }

// VariantSummary is a variant's rules in brief, in lang. Without a
// "summary."+v.Name text in lang (a variant the catalogue does not know
// yet) it is the engine's v.Summary, which is also the English text
// (TestCatalogEnglishIsTheSources).
func VariantSummary(lang string, v *engine.Variant) string {
	if _, ok := catalogs[lang]["summary."+v.Name]; !ok {
		return v.Summary
	}
	return Text(lang, "summary."+v.Name)
}

// VariantTitle is a variant's title in lang, e.g. "Brandubh 7×7
// (Federation Brandubh)". Without a "title."+v.Name text in lang (most
// titles are names, the same in every language) it is the engine's
// v.Title, which is also the English text (TestCatalogEnglishIsTheSources).
func VariantTitle(lang string, v *engine.Variant) string {
	if _, ok := catalogs[lang]["title."+v.Name]; !ok {
		return v.Title
	}
	return Text(lang, "title."+v.Name)
}

// BoardReasons are the engine's ways a game ends that a diagram's
// game-over line names (RULES.md §1.6), each with a "board.reason." key
// (and a "reason." key for the reply's result line).
var BoardReasons = []engine.Reason{
	engine.ReasonEscape, engine.ReasonKingCaptured, engine.ReasonEdgeFort,
	engine.ReasonEncirclement, engine.ReasonRepetition, engine.ReasonNoLegalMove,
}

// DiagramWords returns the legend words of the board diagram in lang, for
// notation.WithWords; in English they are notation.EnglishDiagramWords
// with a reason for each of BoardReasons.
func DiagramWords(lang string) notation.DiagramWords {
	w := notation.DiagramWords{
		Attacker:     Text(lang, "board.attacker"),
		Defender:     Text(lang, "board.defender"),
		King:         Text(lang, "board.king"),
		Throne:       Text(lang, "board.throne"),
		Corner:       Text(lang, "board.corner"),
		LastPly:      Text(lang, "board.lastply"),
		Captured:     Text(lang, "board.captured"),
		ToMove:       Text(lang, "board.tomove"),
		Attackers:    Side(lang, "attackers"),
		Defenders:    Side(lang, "defenders"),
		GameOver:     Text(lang, "board.over"),
		AttackersWin: Text(lang, "board.result.attackers"),
		DefendersWin: Text(lang, "board.result.defenders"),
		Draw:         Text(lang, "board.result.draw"),
		Reasons:      map[engine.Reason]string{},
	}
	for _, r := range BoardReasons {
		w.Reasons[r] = Text(lang, "board.reason."+r.String())
	}
	return w
}

// IllegalReason says in lang why the engine refused a move: the text after
// "d1-d4 is not a legal move: ". The English texts are the engine's own
// (TestIllegalReasons); a reason the catalogue does not know yet is given
// in the engine's words, e.Error() without its "engine: <move>: " prefix.
func IllegalReason(lang string, e *engine.IllegalMoveError) string {
	piece := func(p engine.Piece) string { return Text(lang, "piece."+p.String()) }
	switch e.Reason {
	case engine.IllegalGameOver:
		return Text(lang, "illegal.gameover")
	case engine.IllegalOffBoard:
		return Text(lang, "illegal.offboard", e.At)
	case engine.IllegalNoPiece:
		return Text(lang, "illegal.nopiece", e.At)
	case engine.IllegalNotYourPiece:
		return Text(lang, "illegal.notyourpiece", piece(e.Piece), e.At)
	case engine.IllegalNullMove:
		return Text(lang, "illegal.nullmove")
	case engine.IllegalNotStraight:
		return Text(lang, "illegal.notstraight")
	case engine.IllegalBlocked:
		return Text(lang, "illegal.blocked", e.At)
	case engine.IllegalOccupied:
		return Text(lang, "illegal.occupied", e.At)
	case engine.IllegalRestrictedStop:
		return Text(lang, "illegal.stop", Text(lang, "piece.a."+e.Piece.String()), e.At)
	case engine.IllegalRestrictedPass:
		return Text(lang, "illegal.pass", Text(lang, "piece.a."+e.Piece.String()), e.At)
	}
	return strings.TrimPrefix(e.Error(), "engine: "+e.Move.String()+": ")
}

// CountedPoints writes a score in lang, as tournament.FormatScore does, with "point" in
// the singular only for exactly 1 ("1 point", "½ points", "1½ points"),
// as CLDR's English and German rules have it.
func CountedPoints(lang string, points float64) string {
	n := 2
	if points == 1 {
		n = 1
	}
	return TextN(lang, "count.points", n, tournament.FormatScore(points))
}
