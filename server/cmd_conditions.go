package server

import (
	"slices"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("if", (*session).conditional)
	handle("conditions", (*session).conditions)
	handle("cancel conditions", (*session).cancelConditions)
	helpLine(35, "help.conditions")
}

// conditional sets a conditional line (conditions.go): the player's game,
// with the key, running, the opponent to move. The line is checked
// against the position; a line that breaks a rule is refused at the move
// that breaks it, one that answers a move of the opponent otherwise than
// a line already set is refused as a conflict, a repeated line changes
// nothing. The other lines of the mail are decided on their own.
func (ss *session) conditional(c *grammar.ConditionalCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	owner := sideOf(t.g, ss.from)
	if t.toMove() == owner {
		return ss.refuse("err.cond.yourmove")
	}
	conds := condsOf(t.g, owner)
	if !conds.Empty() && conds.AtPly != t.pos.Ply() { // out of date: cannot happen while every ply passes afterPly
		*conds = archive.Conditions{}
		t.changed = true
	}
	line, err := ss.conditionLine(t, c)
	if err != nil {
		return err
	}
	for _, have := range conds.Lines {
		if slices.Equal(have, line) {
			ss.say(t, tr(ss.lang, "cond.duplicate", conditionText(ss.lang, line)))
			return nil
		}
		if i := conflict(have, line); i >= 0 {
			return ss.conditionRefusal(c.Pairs[i/2].Then.Pos.Column, "err.cond.conflict", line[i-1], have[i], conditionText(ss.lang, have))
		}
	}
	if len(conds.Lines) >= maxConditionLines {
		return ss.refuse("err.cond.toomany", maxConditionLines)
	}
	conds.AtPly = t.pos.Ply()
	conds.Lines = append(conds.Lines, line)
	t.changed = true
	ss.say(t, trn(ss.lang, "cond.set", len(conds.Lines), conditionText(ss.lang, line), len(conds.Lines)))
	return nil
}

// conditions lists the sender's conditional moves in the game; only the
// sender sees them.
func (ss *session) conditions(*grammar.ConditionsCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	c := condsOf(t.g, sideOf(t.g, ss.from))
	if c.Empty() {
		ss.say(t, tr(ss.lang, "cond.none", t.g.ID))
		return nil
	}
	ss.say(t, tr(ss.lang, "cond.list", t.g.ID)+"\n"+conditionList(ss.lang, *c))
	return nil
}

// cancelConditions drops the sender's conditional moves in the game.
func (ss *session) cancelConditions(*grammar.CancelConditionsCommand) error {
	t, err := ss.gameForCommand()
	if err != nil {
		return err
	}
	c := condsOf(t.g, sideOf(t.g, ss.from))
	if c.Empty() {
		ss.say(t, tr(ss.lang, "cond.none", t.g.ID))
		return nil
	}
	n := len(c.Lines)
	*c = archive.Conditions{}
	t.changed = true
	ss.say(t, trn(ss.lang, "cond.cancelled.you", n, n))
	return nil
}
