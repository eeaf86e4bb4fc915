package server

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
)

// Reply languages: English by default, German for a player who writes
// German commands or sets "language de" (docs/commands.md).
const (
	english = "en"
	german  = "de"
)

// catalogs holds every text a player can receive, one catalogue per
// language (catalog_en.go, catalog_de.go): key → fmt format. The two
// catalogues have the same keys, and the texts of a key the same fmt verbs
// in the same order (TestCatalogs), so a translation may reword a sentence
// but not reorder its arguments.
var catalogs = map[string]map[string]string{
	english: catalogEN,
	german:  catalogDE,
}

// tr returns the text key in language lang, formatted with args (without
// args the text is returned as it stands). A key missing in lang falls
// back to English, a key missing there to the key itself; TestCatalogs
// keeps both from happening.
func tr(lang, key string, args ...any) string {
	s, ok := catalogs[lang][key]
	if !ok {
		if s, ok = catalogEN[key]; !ok {
			return key
		}
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// trn is tr for a text about n things: the key's singular form, key +
// ".one", when n is 1 and the catalogue has one, else key ("1 spectator
// was removed", "2 spectators were removed"; trial 2 report §12).
func trn(lang, key string, n int, args ...any) string {
	if _, ok := catalogEN[key+".one"]; ok && n == 1 {
		key += ".one"
	}
	return tr(lang, key, args...)
}

// counted writes n things in lang with the counted noun "count."+noun of
// the catalogue: counted(english, "games", 1) is "1 game", for 2 "2
// games". A text with two counts (issue 22 §4: "3 players, 1 game") takes
// each as a %s written so, as trn can pick a form for one count only.
func counted(lang, noun string, n int) string {
	return trn(lang, "count."+noun, n, n)
}

// countedPoints writes a score in lang, as fraction does, with "point" in
// the singular only for exactly 1 ("1 point", "½ points", "1½ points"),
// as CLDR's English and German rules have it.
func countedPoints(lang string, points float64) string {
	n := 2
	if points == 1 {
		n = 1
	}
	return trn(lang, "count.points", n, fraction(points))
}

// sideName names a side in lang: "attackers" / "Angreifer".
func sideName(lang, side string) string { return tr(lang, "side."+side) }

// variantSummary is a variant's rules in brief, in lang. The English text
// is the engine's Variant.Summary (TestCatalogs checks it).
func variantSummary(lang string, v *engine.Variant) string {
	if _, ok := catalogs[lang]["summary."+v.Name]; !ok {
		return v.Summary
	}
	return tr(lang, "summary."+v.Name)
}

// variantTitle is a variant's title in lang, e.g. "Brandubh 7×7
// (Federation Brandubh)". The English text is the engine's Variant.Title
// (TestCatalogs checks it).
func variantTitle(lang string, v *engine.Variant) string {
	if _, ok := catalogs[lang]["title."+v.Name]; !ok {
		return v.Title
	}
	return tr(lang, "title."+v.Name)
}

// boardReasons are the engine's ways a game ends that a diagram's
// game-over line names (RULES.md §1.6), each with a "board.reason." key.
var boardReasons = []engine.Reason{
	engine.ReasonEscape, engine.ReasonKingCaptured, engine.ReasonEdgeFort,
	engine.ReasonEncirclement, engine.ReasonRepetition, engine.ReasonNoLegalMove,
}

// diagramWords returns the legend words of the board diagram in lang.
func diagramWords(lang string) notation.DiagramWords {
	w := notation.DiagramWords{
		Attacker:     tr(lang, "board.attacker"),
		Defender:     tr(lang, "board.defender"),
		King:         tr(lang, "board.king"),
		Throne:       tr(lang, "board.throne"),
		Corner:       tr(lang, "board.corner"),
		LastPly:      tr(lang, "board.lastply"),
		Captured:     tr(lang, "board.captured"),
		ToMove:       tr(lang, "board.tomove"),
		Attackers:    sideName(lang, "attackers"),
		Defenders:    sideName(lang, "defenders"),
		GameOver:     tr(lang, "board.over"),
		AttackersWin: tr(lang, "board.result.attackers"),
		DefendersWin: tr(lang, "board.result.defenders"),
		Draw:         tr(lang, "board.result.draw"),
		Reasons:      map[engine.Reason]string{},
	}
	for _, r := range boardReasons {
		w.Reasons[r] = tr(lang, "board.reason."+r.String())
	}
	return w
}

// illegalReason says in lang why the engine refused a move: the text after
// "d1-d4 is not a legal move: ". The English texts are the engine's own
// (TestIllegalReasons); a reason the catalogue does not know yet is given
// in the engine's words.
func illegalReason(lang string, e *engine.IllegalMoveError) string {
	piece := func(p engine.Piece) string { return tr(lang, "piece."+p.String()) }
	switch e.Reason {
	case engine.IllegalGameOver:
		return tr(lang, "illegal.gameover")
	case engine.IllegalOffBoard:
		return tr(lang, "illegal.offboard", e.At)
	case engine.IllegalNoPiece:
		return tr(lang, "illegal.nopiece", e.At)
	case engine.IllegalNotYourPiece:
		return tr(lang, "illegal.notyourpiece", piece(e.Piece), e.At)
	case engine.IllegalNullMove:
		return tr(lang, "illegal.nullmove")
	case engine.IllegalNotStraight:
		return tr(lang, "illegal.notstraight")
	case engine.IllegalBlocked:
		return tr(lang, "illegal.blocked", e.At)
	case engine.IllegalOccupied:
		return tr(lang, "illegal.occupied", e.At)
	case engine.IllegalRestrictedStop:
		return tr(lang, "illegal.stop", tr(lang, "piece.a."+e.Piece.String()), e.At)
	case engine.IllegalRestrictedPass:
		return tr(lang, "illegal.pass", tr(lang, "piece.a."+e.Piece.String()), e.At)
	}
	return strings.TrimPrefix(e.Error(), "engine: "+e.Move.String()+": ")
}
