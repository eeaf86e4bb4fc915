package server

import (
	"fmt"
	"strconv"
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
// a ply (tellNews, session.go).
func (ss *session) showPosition(t *table) {
	for _, addr := range []string{t.g.Attackers, t.g.Defenders} {
		lang := ss.langOf(addr)
		n := ss.noteFor(addr, lang, t)
		n.game = t
		if t.g.Status == archive.Active && addr != ss.from {
			ss.tellNews(addr, t, func(lang string) string { return statusText(lang, t, addr) })
			continue
		}
		ss.addSection(n, statusText(lang, t, addr))
	}
	ss.positionShown(t) // the modules' positionWatchers: the spectators (module.go)
}

// statusText says whose move it is, or how the game ended, to the player
// at addr.
func statusText(lang string, t *table, addr string) string {
	var b strings.Builder
	if t.g.Status == archive.Declined {
		// never started: nobody is to move (trial 22)
		return tr(lang, "status.notplayed", t.g.ID, declinedWords(lang, t.g.Reason))
	}
	if t.g.Status == archive.Finished {
		b.WriteString(tr(lang, "over.result", resultText(lang, t), t.g.ID))
		if you := youResult(lang, t.g, addr); you != "" {
			b.WriteString(" " + you)
		}
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

// declinedWords names how a challenge ended without a game, from a
// Declined game's Reason (invitations.go): "declined", "challenge
// withdrawn", "challenge expired unanswered" or "invitation undeliverable".
func declinedWords(lang, reason string) string {
	switch reason {
	case reasonWithdrawn:
		return tr(lang, "games.withdrawn")
	case reasonExpired:
		return tr(lang, "games.expired")
	case reasonUndeliverable:
		return tr(lang, "games.undeliverable")
	}
	return tr(lang, "games.declined")
}

// exampleMove returns a legal move with its number, for the "how to move"
// line. It is a quiet one: a man's move (not the king's) that captures
// nothing and does not end the game, so that the example never gives a
// winning move or a capture away (trial report §8.8). Among the quiet
// moves it takes the first by its text after which the opponent cannot
// capture the moved man on the next ply (firstSafeByText), so that the
// example does not hang a man either; when every quiet move does, the
// first quiet move by its text. When there is none, the first legal move;
// without any, "d1-d3".
func exampleMove(t *table) string {
	var buf [256]engine.Move
	ms := t.pos.LegalMoves(buf[:0])
	if len(ms) == 0 {
		return "d1-d3"
	}
	k := firstSafeByText(t.pos, ms)
	if k < 0 {
		k = firstQuietByText(t.pos, ms)
	}
	if k < 0 {
		k = firstByText(ms)
	}
	dots := "."
	if t.pos.Ply()%2 == 1 {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", t.moveNumber(), dots, ms[k])
}

// firstByText returns the index of the move of ms (not empty) whose text
// comes first ("a10-…" before "a2-…"). Each text is written once into a
// buffer: sorting by Move.String cost about a thousand allocations a mail
// (docs/performance.md).
func firstByText(ms []engine.Move) int { return firstWhere(ms, nil) }

// firstQuietByText is firstByText among the quiet moves of ms in pos (see
// exampleMove), -1 when none is. Each move is tried with Make and
// Unmake, which leave pos as it was and allocate nothing.
func firstQuietByText(pos *engine.Position, ms []engine.Move) int {
	return firstWhere(ms, func(m engine.Move) bool {
		if pos.At(m.From) == engine.King {
			return false
		}
		caps := pos.Captures()
		u := pos.Make(m)
		quiet := pos.Captures() == caps && !pos.Outcome().Over()
		pos.Unmake(u)
		return quiet
	})
}

// firstSafeByText is firstByText among the quiet moves of ms in pos (see
// firstQuietByText) after which no legal reply of the opponent captures
// the moved man, -1 when none is. The replies are the engine's
// (LegalMoves), each tried with Make and Unmake, and a reply captures the
// man when the engine's captures of that ply (CapturedSquares) include the
// man's new square: custodial capture and shieldwall alike, by the
// variant's own rules. pos is left as it was.
func firstSafeByText(pos *engine.Position, ms []engine.Move) int {
	var replies [256]engine.Move
	var taken [16]engine.Square
	return firstWhere(ms, func(m engine.Move) bool {
		if pos.At(m.From) == engine.King {
			return false
		}
		caps := pos.Captures()
		u := pos.Make(m)
		defer pos.Unmake(u)
		if pos.Captures() != caps || pos.Outcome().Over() {
			return false
		}
		for _, r := range pos.LegalMoves(replies[:0]) {
			before := pos.Captures()
			ru := pos.Make(r)
			hit := false
			if pos.Captures() != before {
				for _, s := range pos.CapturedSquares(taken[:0], before) {
					hit = hit || s == m.To
				}
			}
			pos.Unmake(ru)
			if hit {
				return false
			}
		}
		return true
	})
}

// firstWhere returns the index of the move of ms whose text comes first
// among those ok accepts (all when ok is nil), -1 when it accepts none.
// ok is called only for a move whose text comes before that of the best
// accepted so far, which spares the costly tests of firstSafeByText most
// moves.
func firstWhere(ms []engine.Move, ok func(engine.Move) bool) int {
	var best, key [16]byte
	bestLen, k := 0, -1
	for i, m := range ms {
		n := len(appendMoveText(key[:0], m))
		if k >= 0 && string(key[:n]) >= string(best[:bestLen]) {
			continue // ok is asked only about a move that would come first
		}
		if ok == nil || ok(m) {
			best, bestLen, k = key, n, i
		}
	}
	return k
}

// appendMoveText appends m as Move.String writes it ("a10-a4").
func appendMoveText(b []byte, m engine.Move) []byte {
	for i, s := range [2]engine.Square{m.From, m.To} {
		if i > 0 {
			b = append(b, '-')
		}
		b = append(b, byte('a'+s.File()))
		b = strconv.AppendInt(b, int64(s.Rank()+1), 10)
	}
	return b
}

// resultText says who won and why: "the defenders win, the king escaped".
func resultText(lang string, t *table) string {
	res := resultWords(lang, t.g)
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
	case "withdrawal":
		why = tr(lang, "reason.withdrawal", sideName(lang, loser))
	case "annulled":
		why = tr(lang, "reason.annulled")
	case "draw agreed":
		// "both players agreed to a draw" says the result already
		return tr(lang, "reason.draw agreed")
	default:
		why = tr(lang, "reason."+t.g.Reason)
	}
	return res + ", " + why
}

// youResult says to the player at addr how the game ended for them: "You
// won.", "You lost."; "" for a game without a result, a draw (the result
// says "a draw" already, the same for both) or a reader who is neither
// player.
func youResult(lang string, g *archive.Game, addr string) string {
	mine := sideOf(g, addr)
	switch {
	case mine == "" || g.Result == "" || g.Result == "draw":
		return ""
	case g.Result == mine:
		return tr(lang, "over.you.won")
	}
	return tr(lang, "over.you.lost")
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

// playerLabel names a player of t in a mail: the address, or for the
// engine its name and level.
func playerLabel(lang string, g *archive.Game, addr string) string {
	if isEngine(addr) {
		return tr(lang, "engine.name", g.EngineLevel)
	}
	return addr
}

// resultWords is how a finished game ended, in words: "the attackers
// win", or "no result" for a game annulled by a withdrawal (T3).
func resultWords(lang string, g *archive.Game) string {
	if g.Result == "" {
		return tr(lang, "result.none")
	}
	return tr(lang, "result."+g.Result)
}

// resultWordsFor is resultWords as the player at addr reads it: "you
// won (the defenders win)", "you lost (…)"; a draw, a game without a
// result and a reader who is neither player (a spectator) get
// resultWords. It says it as the games list does (finishedWords).
func resultWordsFor(lang string, g *archive.Game, addr string) string {
	mine := sideOf(g, addr)
	switch {
	case mine == "" || g.Result == "" || g.Result == "draw":
		return resultWords(lang, g)
	case g.Result == mine:
		return tr(lang, "result.you.won", resultWords(lang, g))
	}
	return tr(lang, "result.you.lost", resultWords(lang, g))
}

// boardText is game t's board and move list in lang, as every mail about
// a game ends: labelled with t's id ("board.of") when the mail shows the
// board of another game too (note.boards).
func boardText(lang string, t *table, labelled bool) string {
	var b strings.Builder
	if labelled {
		b.WriteString(tr(lang, "board.of", t.g.ID) + "\n")
	}
	b.WriteString(t.board(lang) + "\n")
	b.WriteString(tr(lang, "move.list") + "\n" + t.moveList(lang))
	return b.String()
}

// addBoardOf adds to n, the sender's note, a section about game t, which
// is another game than n's: text, then t's board and move list, labelled
// with t's id as every board of n then is (note.boards).
func (ss *session) addBoardOf(n *note, t *table, text string) {
	n.boards = true
	ss.addSection(n, text+"\n\n"+boardText(ss.lang, t, true))
}
