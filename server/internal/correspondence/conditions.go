package correspondence

import (
	"errors"
	"strings"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Conditional moves (issue 12): "if h6-h9 then h3-h4", chains "if A then
// B if C then D", several alternatives with different first moves, in one
// mail or over several. A player sets them while the opponent is to move;
// each line is checked against the position and the positions it leads
// to when it arrives, and kept with the game (archive.Conditions, private
// to its owner). When the opponent plays a line's first move, the
// referee plays the answer at once (fireConditions) and the lines that go
// on stay set for the opponent's next ply; any other move of the
// opponent cancels them all.
//
// The edges: a line whose first move ends the game is refused (there is
// nothing to answer), and so is one that goes on after a move that ends
// it; an answer that repeats a position is played with what the rules
// make of the repetition, as the player's own move would be (the
// confirmation says so); an answer the engine refuses when the time comes
// (it cannot happen for a line checked on arrival, since the position is
// the one checked, but it is checked again) cancels the set and tells the
// owner why; a draw offer the opponent sends with the move lapses with the
// answer as with any move, one sent after it stands; a takeback drops
// both players' conditions (their positions are gone).

// maxConditionLines is how many lines one player may keep in one game;
// maxConditionPairs how many "if … then …" one line may chain.
const (
	maxConditionLines = 50
	maxConditionPairs = 10
)

// ConditionsOf returns the conditional moves of the player of side in g
// ("attackers" or "defenders", archive's side names): a pointer into g,
// so that a change to them is g's.
func ConditionsOf(g *archive.Game, side string) *archive.Conditions {
	if side == "attackers" {
		return &g.AttackersConditions
	}
	return &g.DefendersConditions
}

// otherSide returns "defenders" for "attackers" and the other way round.
func otherSide(side string) string {
	if side == "attackers" {
		return "defenders"
	}
	return "attackers"
}

// conditionRefusal refuses a conditional line at the move starting at
// column col of the line: a caret under it, then the text of key. It is an
// err.cond.at refusal wrapping the one of key.
func conditionRefusal(ss *referee.Session, col int, key string, args ...any) *referee.Refusal {
	r := ss.RefusalOf("err.cond.at", col, ss.RefusalOf(key, args...))
	r.Before = "  " + strings.Repeat(" ", max(col-1, 0)) + "^\n"
	return r
}

// conditionLine checks a conditional command against t's position, the
// opponent to move: every move must be legal in the position the line
// leads to, with right capture marks if it has any, and no move may
// follow one that ends the game. It returns the line as canonical ply
// texts (the first the opponent's).
func conditionLine(ss *referee.Session, t *referee.Table, c *grammar.ConditionalCommand) ([]string, error) {
	if len(c.Pairs) > maxConditionPairs {
		return nil, conditionRefusal(ss, c.Pairs[maxConditionPairs].If.Pos.Column, "err.cond.long", maxConditionPairs)
	}
	pos := t.Pos.Clone()
	var line []string
	for _, p := range c.Pairs {
		for j, cm := range []*grammar.ConditionMove{p.If, p.Then} {
			theirs := j == 0
			if pos.Outcome().Over() {
				key := "err.cond.over.theirs"
				if theirs {
					key = "err.cond.over.mine"
				}
				return nil, conditionRefusal(ss, cm.Pos.Column, key, line[len(line)-1])
			}
			m := referee.EngineMove(cm.Move)
			if why := ss.WrongKingMark(pos, cm.Move); why != "" {
				key := "err.cond.illegal.mine"
				if theirs {
					key = "err.cond.illegal.theirs"
				}
				return nil, conditionRefusal(ss, cm.Pos.Column, key, "K"+m.String(), why)
			}
			king, _ := pos.King()
			r, err := pos.Play(m)
			var ill *engine.IllegalMoveError
			if errors.As(err, &ill) {
				key := "err.cond.illegal.mine"
				if theirs {
					key = "err.cond.illegal.theirs"
				}
				ref := conditionRefusal(ss, cm.Pos.Column, key, m, catalog.IllegalReason(ss.Lang, ill))
				switch {
				case ill.Reason == engine.IllegalOffBoard:
					ref.After = " " + referee.BoardHint(ss.Lang, t)
				case theirs && ill.Reason == engine.IllegalNotYourPiece && len(line) == 0:
					ref.After = " " + referee.Tr(ss.Lang, "hint.cond.order")
				}
				return nil, ref
			}
			if err != nil {
				return nil, err
			}
			if marks := cm.Move.CaptureSquares(); len(marks) > 0 && !referee.SameSquares(marks, r.Captures) {
				return nil, conditionRefusal(ss, cm.Pos.Column, "err.captures", referee.SquareList(marks), m, referee.CapturedText(ss.Lang, r.Captures))
			}
			line = append(line, referee.PlyText(r, king))
		}
	}
	return line, nil
}

// conflict returns the index of the first ply where line answers the same
// moves of the opponent differently from have, or -1.
func conflict(have, line []string) int {
	for i := 0; i < len(have) && i < len(line); i++ {
		if !sameMoveText(have[i], line[i]) {
			if i%2 == 1 {
				return i
			}
			return -1
		}
	}
	return -1
}

// sameMoveText reports whether two ply texts are the same move (the same
// squares), whatever their marks.
func sameMoveText(a, b string) bool {
	ma, erra := grammar.ParseMove("", []byte(a))
	mb, errb := grammar.ParseMove("", []byte(b))
	if erra != nil || errb != nil {
		return a == b
	}
	return referee.EngineMove(ma) == referee.EngineMove(mb)
}

// conditionText writes a line in lang: "if h6-h9 then h3-h4 if …".
func conditionText(lang string, line []string) string {
	var parts []string
	for i := 0; i+1 < len(line); i += 2 {
		parts = append(parts, referee.Tr(lang, "cond.pair", line[i], line[i+1]))
	}
	return strings.Join(parts, " ")
}

// conditionList lists a player's lines, one a line, indented.
func conditionList(lang string, c archive.Conditions) string {
	var b strings.Builder
	for _, l := range c.Lines {
		b.WriteString("  " + conditionText(lang, l) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// dropConditions clears both players' conditional moves in t (their
// positions are gone after a takeback) and tells the owners.
func dropConditions(ss *referee.Session, t *referee.Table) {
	for _, side := range []string{"attackers", "defenders"} {
		c := ConditionsOf(t.Game, side)
		if c.Empty() {
			continue
		}
		n := len(c.Lines)
		*c = archive.Conditions{}
		t.Changed = true
		ss.Tell(referee.AddressOf(t.Game, side), t, func(lang string) string { return referee.Trn(lang, "cond.dropped", n, n) })
	}
}
