package correspondence

import (
	"errors"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// fireConditions runs after the player at ss.from (or the engine
// opponent, enginePly) played a ply in t (the last of t.newPlies): the
// opponent's conditional moves whose line starts with that ply are
// answered at once, the lines going on stay set; any
// other ply cancels them, and a ply that ends the game drops them. The
// owner is told what happened; the mover sees the answer like any move.
func fireConditions(ss *referee.Session, t *referee.Table) error {
	owner := otherSide(referee.SideOf(t.Game, ss.From))
	conds := ConditionsOf(t.Game, owner)
	if conds.Empty() || len(t.NewPlies) == 0 {
		return nil
	}
	set := *conds
	*conds = archive.Conditions{}
	t.Changed = true
	ownerAddr := referee.AddressOf(t.Game, owner)
	played := t.NewPlies[len(t.NewPlies)-1]
	if set.AtPly != played.N-1 { // cannot happen while every ply passes here
		ss.Tell(ownerAddr, t, func(lang string) string { return referee.Tr(lang, "cond.stale") })
		return nil
	}
	if t.Game.Status == archive.Finished {
		return nil
	}
	answer, rest := conditionAnswer(set.Lines, played.Move)
	if answer == "" {
		ss.TellNews(ownerAddr, t, func(lang string) string {
			// the news of the ply itself says who played it (tellNews)
			return referee.Trn(lang, "cond.cancelled", len(set.Lines), len(set.Lines), played.Move)
		})
		return nil
	}
	return playCondition(ss, t, conds, ownerAddr, played, answer, rest)
}

// conditionAnswer returns the answer of the conditional lines to the ply
// move (the second ply of the line that starts with it; the last such
// line wins) and what each line starting with it goes on with after its
// answer. answer is "" when no line starts with move.
func conditionAnswer(lines [][]string, move string) (answer string, rest [][]string) {
	for _, l := range lines {
		if sameMoveText(l[0], move) {
			answer = l[1]
			if len(l) > 2 {
				rest = append(rest, l[2:])
			}
		}
	}
	return answer, rest
}

// playCondition plays answer, the owner's conditional answer to the ply
// played, in t at once, and sets the owner's conditions (conds) to rest
// when the game goes on. An answer that does not parse or is illegal is
// not played and the owner (at ownerAddr) is told why; otherwise the
// mover sees the answer like any move and the owner is told it was
// played (tellConditionPlayed). Only an error of the engine other than an
// illegal move is returned.
func playCondition(ss *referee.Session, t *referee.Table, conds *archive.Conditions, ownerAddr string, played archive.Ply, answer string, rest [][]string) error {
	mv, err := grammar.ParseMove("conditions", []byte(answer))
	if err != nil {
		ss.Tell(ownerAddr, t, func(lang string) string {
			return referee.Tr(lang, "cond.failed", answer, referee.GrammarText(lang, err))
		})
		return nil
	}
	m := referee.EngineMove(mv)
	king, _ := t.Pos.King()
	next := t.Pos.Clone()
	r, err := next.Play(m)
	var ill *engine.IllegalMoveError
	if errors.As(err, &ill) {
		ss.Tell(ownerAddr, t, func(lang string) string {
			return referee.Tr(lang, "cond.failed", answer, catalog.IllegalReason(lang, ill))
		})
		return nil
	}
	if err != nil {
		return err
	}
	t.Pos, t.Last = next, &r
	// the opponent's ply's arrival and commit time: an instant reply, which
	// the owner's clock is charged nothing for (clock.go); the timers of
	// the new position come with every game the mail writes (collectClock)
	t.NewPlies = append(t.NewPlies, archive.Ply{N: played.N + 1, Move: referee.PlyText(r, king), At: played.At, Avail: played.Avail})
	if t.Game.DrawOfferBy != "" { // as any move: cannot stand here, the opponent's ply lapsed it
		t.Game.DrawOfferBy = ""
		ss.Tell(ss.From, t, func(lang string) string { return referee.Tr(lang, "draw.lapsed") })
	}
	if o := r.Outcome; o.Over() {
		t.Game.Status = archive.Finished
		t.Game.Result = o.Result.String()
		t.Game.Reason = o.Reason.String()
	} else if len(rest) > 0 {
		*conds = archive.Conditions{AtPly: played.N + 1, Lines: rest}
	}
	tellConditionPlayed(ss, t, ownerAddr, played, referee.PlyText(r, king), r.Captures, *conds)
	return nil
}

// tellConditionPlayed tells the mover that the owner's (at ownerAddr)
// conditional answer ply to played was played, with its captures, and
// the owner that it was, with the conditional lines left.
func tellConditionPlayed(ss *referee.Session, t *referee.Table, ownerAddr string, played archive.Ply, ply string, captures []engine.Square, left archive.Conditions) {
	ss.Tell(ss.From, t, func(lang string) string {
		s := referee.Tr(lang, "move.played", ownerAddr, ply)
		if len(captures) > 0 {
			s += " " + referee.Tr(lang, "move.captures", referee.CapturedText(lang, captures))
		}
		return s
	})
	ss.TellNews(ownerAddr, t, func(lang string) string {
		s := referee.Tr(lang, "cond.played", ply, referee.PlayerLabel(lang, t.Game, ss.From), played.Move)
		if len(captures) > 0 {
			s += " " + referee.Tr(lang, "move.captures", referee.CapturedText(lang, captures))
		}
		if !left.Empty() {
			s += "\n" + referee.Trn(lang, "cond.left", len(left.Lines), len(left.Lines)) + "\n" + conditionList(lang, left)
		}
		return s
	})
}
