package correspondence

import (
	"slices"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("if", conditional)
	referee.Handle("conditions", conditions)
	referee.Handle("cancel conditions", cancelConditions)
	referee.HelpLine(35, "help.conditions")
}

// conditional sets a conditional line (conditions.go): the player's game,
// with the key, running, the opponent to move. The line is checked
// against the position; a line that breaks a rule is refused at the move
// that breaks it, one that answers a move of the opponent otherwise than
// a line already set is refused as a conflict, a repeated line changes
// nothing. The other lines of the mail are decided on their own.
func conditional(ss *referee.Session, c *grammar.ConditionalCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	owner := referee.SideOf(t.Game, ss.From)
	if t.ToMove() == owner {
		return ss.Refuse("err.cond.yourmove")
	}
	conds := ConditionsOf(t.Game, owner)
	if !conds.Empty() && conds.AtPly != t.Pos.Ply() { // out of date: cannot happen while every ply passes afterPly
		*conds = archive.Conditions{}
		t.Changed = true
	}
	line, err := conditionLine(ss, t, c)
	if err != nil {
		return err
	}
	for _, have := range conds.Lines {
		if slices.Equal(have, line) {
			ss.Say(t, referee.Tr(ss.Lang, "cond.duplicate", conditionText(ss.Lang, line)))
			return nil
		}
		if i := conflict(have, line); i >= 0 {
			return conditionRefusal(ss, c.Pairs[i/2].Then.Pos.Column, "err.cond.conflict", line[i-1], have[i], conditionText(ss.Lang, have))
		}
	}
	if len(conds.Lines) >= maxConditionLines {
		return ss.Refuse("err.cond.toomany", maxConditionLines)
	}
	conds.AtPly = t.Pos.Ply()
	conds.Lines = append(conds.Lines, line)
	t.Changed = true
	ss.Say(t, referee.Trn(ss.Lang, "cond.set", len(conds.Lines), conditionText(ss.Lang, line), len(conds.Lines)))
	return nil
}

// conditions lists the sender's conditional moves in the game; only the
// sender sees them.
func conditions(ss *referee.Session, _ *grammar.ConditionsCommand) error {
	t, err := ss.GameForCommand()
	if err != nil {
		return err
	}
	c := ConditionsOf(t.Game, referee.SideOf(t.Game, ss.From))
	if c.Empty() {
		ss.Say(t, referee.Tr(ss.Lang, "cond.none", t.Game.ID))
		return nil
	}
	ss.Say(t, referee.Tr(ss.Lang, "cond.list", t.Game.ID)+"\n"+conditionList(ss.Lang, *c))
	return nil
}

// cancelConditions drops the sender's conditional moves in the game.
func cancelConditions(ss *referee.Session, _ *grammar.CancelConditionsCommand) error {
	t, err := ss.GameForCommand()
	if err != nil {
		return err
	}
	c := ConditionsOf(t.Game, referee.SideOf(t.Game, ss.From))
	if c.Empty() {
		ss.Say(t, referee.Tr(ss.Lang, "cond.none", t.Game.ID))
		return nil
	}
	n := len(c.Lines)
	*c = archive.Conditions{}
	t.Changed = true
	ss.Say(t, referee.Trn(ss.Lang, "cond.cancelled.you", n, n))
	return nil
}
