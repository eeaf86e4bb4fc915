package referee

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
)

// Texts shared by several commands' replies.

// StatusText says whose move it is, or how the game ended, to the player
// at addr.
func StatusText(lang string, t *Table, addr string) string {
	var b strings.Builder
	if t.Game.Status == archive.Declined {
		// never started: nobody is to move (trial 22)
		return Tr(lang, "status.notplayed", t.Game.ID, declinedWords(lang, t.Game.Reason))
	}
	if t.Game.Status == archive.Finished {
		b.WriteString(Tr(lang, "over.result", ResultText(lang, t), t.Game.ID))
		if you := youResult(lang, t.Game, addr); you != "" {
			b.WriteString(" " + you)
		}
		b.WriteString("\n\n" + Tr(lang, "over.record") + "\n\n" + t.RecordText(lang))
		return b.String()
	}
	if t.ToMove() == SideOf(t.Game, addr) {
		b.WriteString(Tr(lang, "move.yours", t.MoveNumber(), SideName(lang, t.ToMove())))
		b.WriteString("\n" + Tr(lang, "move.how", ExampleMove(t)))
	} else {
		b.WriteString(Tr(lang, "move.theirs", t.MoveNumber(), SideName(lang, t.ToMove())))
	}
	return b.String()
}

// declinedWords names how a challenge ended without a game, from a
// Declined game's Reason (invitations.go): "declined", "challenge
// withdrawn", "challenge expired unanswered" or "invitation undeliverable".
func declinedWords(lang, reason string) string {
	switch reason {
	case ReasonWithdrawn:
		return Tr(lang, "games.withdrawn")
	case ReasonExpired:
		return Tr(lang, "games.expired")
	case ReasonUndeliverable:
		return Tr(lang, "games.undeliverable")
	}
	return Tr(lang, "games.declined")
}

// ExampleMove returns a legal move with its number, for the "how to move"
// line. It is a quiet one: a man's move (not the king's) that captures
// nothing and does not end the game, so that the example never gives a
// winning move or a capture away (trial report §8.8). Among the quiet
// moves it takes the first by its text after which the opponent cannot
// capture the moved man on the next ply (FirstSafeByText), so that the
// example does not hang a man either; when every quiet move does, the
// first quiet move by its text. When there is none, the first legal move;
// without any, "d1-d3".
func ExampleMove(t *Table) string {
	var buf [256]engine.Move
	ms := t.Pos.LegalMoves(buf[:0])
	if len(ms) == 0 {
		return "d1-d3"
	}
	k := FirstSafeByText(t.Pos, ms)
	if k < 0 {
		k = FirstQuietByText(t.Pos, ms)
	}
	if k < 0 {
		k = FirstByText(ms)
	}
	dots := "."
	if t.Pos.Ply()%2 == 1 {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", t.MoveNumber(), dots, ms[k])
}

// FirstByText returns the index of the move of ms (not empty) whose text
// comes first ("a10-…" before "a2-…"). Each text is written once into a
// buffer: sorting by Move.String cost about a thousand allocations a mail
// (docs/performance.md).
func FirstByText(ms []engine.Move) int { return firstWhere(ms, nil) }

// FirstQuietByText is FirstByText among the quiet moves of ms in pos (see
// ExampleMove), -1 when none is. Each move is tried with Make and
// Unmake, which leave pos as it was and allocate nothing.
func FirstQuietByText(pos *engine.Position, ms []engine.Move) int {
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

// FirstSafeByText is FirstByText among the quiet moves of ms in pos (see
// FirstQuietByText) after which no legal reply of the opponent captures
// the moved man, -1 when none is. The replies are the engine's
// (LegalMoves), each tried with Make and Unmake, and a reply captures the
// man when the engine's captures of that ply (CapturedSquares) include the
// man's new square: custodial capture and shieldwall alike, by the
// variant's own rules. pos is left as it was.
func FirstSafeByText(pos *engine.Position, ms []engine.Move) int {
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
// With ok, the moves are put in the order of their texts first and ok is
// asked in that order until it accepts one, so the costly tests of
// FirstSafeByText run only for the moves before the one chosen.
func firstWhere(ms []engine.Move, ok func(engine.Move) bool) int {
	if ok == nil {
		var best, key [16]byte
		bestLen, k := 0, -1
		for i, m := range ms {
			n := len(AppendMoveText(key[:0], m))
			if k < 0 || string(key[:n]) < string(best[:bestLen]) {
				best, bestLen, k = key, n, i
			}
		}
		return k
	}
	type text struct {
		key [16]byte
		n   uint8
		i   int
	}
	var buf [256]text
	texts := buf[:0]
	for i, m := range ms {
		var t text
		t.n, t.i = uint8(len(AppendMoveText(t.key[:0], m))), i
		texts = append(texts, t)
	}
	slices.SortFunc(texts, func(a, b text) int {
		return bytes.Compare(a.key[:a.n], b.key[:b.n])
	})
	for _, t := range texts {
		if ok(ms[t.i]) {
			return t.i
		}
	}
	return -1
}

// AppendMoveText appends m as Move.String writes it ("a10-a4").
func AppendMoveText(b []byte, m engine.Move) []byte {
	for i, s := range [2]engine.Square{m.From, m.To} {
		if i > 0 {
			b = append(b, '-')
		}
		b = append(b, byte('a'+s.File()))
		b = strconv.AppendInt(b, int64(s.Rank()+1), 10)
	}
	return b
}

// ResultText says who won and why: "the defenders win, the king escaped".
func ResultText(lang string, t *Table) string {
	res := ResultWords(lang, t.Game)
	var why string
	loser := "attackers"
	if t.Game.Result == "attackers" {
		loser = "defenders"
	}
	switch t.Game.Reason {
	case "resignation":
		why = Tr(lang, "reason.resignation", SideName(lang, loser))
	case "timeout":
		why = Tr(lang, "reason.timeout", SideName(lang, loser))
	case "withdrawal":
		why = Tr(lang, "reason.withdrawal", SideName(lang, loser))
	case "annulled":
		why = Tr(lang, "reason.annulled")
	case "draw agreed":
		// "both players agreed to a draw" says the result already
		return Tr(lang, "reason.draw agreed")
	default:
		why = Tr(lang, "reason."+t.Game.Reason)
	}
	return res + ", " + why
}

// youResult says to the player at addr how the game ended for them: "You
// won.", "You lost."; "" for a game without a result, a draw (the result
// says "a draw" already, the same for both) or a reader who is neither
// player.
func youResult(lang string, g *archive.Game, addr string) string {
	mine := SideOf(g, addr)
	switch {
	case mine == "" || g.Result == "" || g.Result == "draw":
		return ""
	case g.Result == mine:
		return Tr(lang, "over.you.won")
	}
	return Tr(lang, "over.you.lost")
}

// CapturedText lists captured squares, or says "nothing".
func CapturedText(lang string, caps []engine.Square) string {
	if len(caps) == 0 {
		return Tr(lang, "move.nothing")
	}
	var s []string
	for _, c := range caps {
		s = append(s, c.String())
	}
	return strings.Join(s, ", ")
}

// PlayerLabel names a player of t in a mail: the address, or for the
// engine its name and level.
func PlayerLabel(lang string, g *archive.Game, addr string) string {
	if IsEngine(addr) {
		return Tr(lang, "engine.name", g.EngineLevel)
	}
	return addr
}

// ResultWords is how the finished game g ended, in words in lang: "the
// attackers win", or "no result" for a game annulled by a withdrawal
// (T3), whose Result is "". Features word a result with it, never with
// "result."+Result, which has no text for an annulled game.
func ResultWords(lang string, g *archive.Game) string {
	if g.Result == "" {
		return Tr(lang, "result.none")
	}
	return Tr(lang, "result."+g.Result)
}

// resultWordsFor is ResultWords as the player at addr reads it: "you
// won (the defenders win)", "you lost (…)"; a draw, a game without a
// result and a reader who is neither player (a spectator) get
// ResultWords. It says it as the games list does (finishedWords).
func resultWordsFor(lang string, g *archive.Game, addr string) string {
	mine := SideOf(g, addr)
	switch {
	case mine == "" || g.Result == "" || g.Result == "draw":
		return ResultWords(lang, g)
	case g.Result == mine:
		return Tr(lang, "result.you.won", ResultWords(lang, g))
	}
	return Tr(lang, "result.you.lost", ResultWords(lang, g))
}

// BoardText is game t's board and move list in lang, as every mail about
// a game ends: labelled with t's id ("board.of") when the mail shows the
// board of another game too (note.boards).
func BoardText(lang string, t *Table, labelled bool) string {
	var b strings.Builder
	if labelled {
		b.WriteString(Tr(lang, "board.of", t.Game.ID) + "\n")
	}
	b.WriteString(t.Board(lang) + "\n")
	b.WriteString(Tr(lang, "move.list") + "\n" + t.moveList(lang))
	return b.String()
}
