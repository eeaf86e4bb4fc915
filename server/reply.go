package server

import (
	"fmt"
	"sort"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
)

// Texts shared by several commands' replies.

// showPosition tells both players the position after a change: the board,
// whose move it is, the move list, and at the end the result and the
// record. The board itself is added when the note is written. The game's
// spectators get the new position too (spectate). The position of a
// running game is, for the player other than the sender, only the news of
// a ply (tellRoutine, digest.go).
func (ss *session) showPosition(t *table) {
	for _, addr := range []string{t.g.Attackers, t.g.Defenders} {
		lang := ss.langOf(addr)
		n := ss.noteFor(addr, lang, t)
		n.game = t
		if t.g.Status == archive.Active && addr != ss.from {
			ss.tellRoutine(addr, t, func(lang string) string { return statusText(lang, t, addr) })
			continue
		}
		ss.addSection(n, statusText(lang, t, addr))
	}
	ss.spectate(t)
}

// statusText says whose move it is, or how the game ended, to the player
// at addr.
func statusText(lang string, t *table, addr string) string {
	var b strings.Builder
	if t.g.Status == archive.Finished {
		b.WriteString(tr(lang, "over.result", resultText(lang, t), t.g.ID))
		b.WriteString("\n\n" + tr(lang, "over.record") + "\n\n" + t.recordText(lang))
		return b.String()
	}
	if t.toMove() == sideOf(t.g, addr) {
		b.WriteString(tr(lang, "move.yours", t.moveNumber(), sideName(lang, t.toMove())))
		b.WriteString("\n" + tr(lang, "move.how", exampleMove(t)))
	} else {
		b.WriteString(tr(lang, "move.theirs", t.moveNumber(), sideName(lang, t.toMove())))
	}
	return b.String()
}

// exampleMove returns a legal move with its number, for the "how to move"
// line.
func exampleMove(t *table) string {
	ms := t.pos.LegalMoves(nil)
	if len(ms) == 0 {
		return "d1-d3"
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].String() < ms[j].String() })
	dots := "."
	if t.pos.Ply()%2 == 1 {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", t.moveNumber(), dots, ms[0])
}

// resultText says who won and why: "the defenders win, the king escaped".
func resultText(lang string, t *table) string {
	res := tr(lang, "result."+t.g.Result)
	var why string
	loser := "attackers"
	if t.g.Result == "attackers" {
		loser = "defenders"
	}
	switch t.g.Reason {
	case "resignation":
		why = tr(lang, "reason.resignation", sideName(lang, loser))
	case "timeout":
		why = tr(lang, "reason.timeout", sideName(lang, loser))
	default:
		why = tr(lang, "reason."+t.g.Reason)
	}
	return res + ", " + why
}

// capturedText lists captured squares, or says "nothing".
func capturedText(lang string, caps []engine.Square) string {
	if len(caps) == 0 {
		return tr(lang, "move.nothing")
	}
	var s []string
	for _, c := range caps {
		s = append(s, c.String())
	}
	return strings.Join(s, ", ")
}
