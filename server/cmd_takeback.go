package server

import (
	"fmt"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("takeback", (*session).takeback)
	handle("accept takeback", (*session).acceptTakeback)
	handle("decline takeback", (*session).declineTakeback)
	helpLine(75, "help.takeback")
}

// Takebacks (issue 12): in a casual, unrated, untimed game between two
// people (the engine opponent takes back nothing) the player who
// played the last ply may ask to undo it ("takeback"); the opponent
// accepts or declines, or moves, which declines. An accepted takeback
// removes the ply from the game (an archive.TakeBacks write: the archive
// keeps it apart, and the record names it in a comment), the asker is to
// move again, a standing draw offer lapses, and both players'
// conditional moves are dropped.

// timedGame reports whether g has a time control (clock.go's control:
// "none" and an older game's free text are none).
func timedGame(g *archive.Game) bool { return control(g).Timed() }

// takebackBarred refuses a takeback in a game that allows none: a
// tournament game (rated, tournamentGame), a timed one, or one against
// the engine opponent, which never takes back (engine.go).
func (ss *session) takebackBarred(g *archive.Game) error {
	switch {
	case engineSide(g) != "":
		return ss.refuse("err.takeback.engine", g.ID)
	case tournamentGame(g):
		return ss.refuse("err.takeback.tournament", g.ID, g.TournamentID)
	case timedGame(g):
		return ss.refuse("err.takeback.timed", g.ID, g.TimeControl)
	}
	return nil
}

// takeback asks the opponent to undo the sender's last ply: only before
// the opponent has answered it.
func (ss *session) takeback(*grammar.TakebackCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	if err := ss.takebackBarred(t.g); err != nil {
		return err
	}
	mine := sideOf(t.g, ss.from)
	ps := t.plies()
	if len(ps) == 0 || t.toMove() == mine {
		return ss.refuse("err.takeback.notyours")
	}
	if t.g.TakebackBy == mine {
		return ss.refuse("err.takeback.pending", t.g.ID)
	}
	last := ps[len(ps)-1].Move
	t.g.TakebackBy = mine
	t.changed = true
	opp := opponentOf(t.g, ss.from)
	ss.say(t, tr(ss.lang, "takeback.asked", opp, last))
	ss.tell(opp, t, func(lang string) string { return tr(lang, "takeback.offered", ss.from, last) })
	return nil
}

// takebackAsked returns the game whose takeback request the sender
// answers: running, not a tournament's (whose refusal is "never in
// tournaments", not "no request"), the request the opponent's.
func (ss *session) takebackAsked() (*table, error) {
	t, err := ss.activeGame()
	if err != nil {
		return nil, err
	}
	if tournamentGame(t.g) {
		return nil, ss.refuse("err.takeback.tournament", t.g.ID, t.g.TournamentID)
	}
	if t.g.TakebackBy == "" || t.g.TakebackBy == sideOf(t.g, ss.from) {
		return nil, ss.refuse("err.takeback.none", t.g.ID)
	}
	return t, nil
}

// acceptTakeback undoes the asker's last ply; both players, and the
// spectators, get the position.
func (ss *session) acceptTakeback(*grammar.AcceptTakebackCommand) error {
	t, err := ss.takebackAsked()
	if err != nil {
		return err
	}
	if err := ss.takebackBarred(t.g); err != nil {
		return err
	}
	asker := addressOf(t.g, t.g.TakebackBy)
	if t.toMove() != sideOf(t.g, ss.from) || len(t.plies()) == 0 {
		// the asker's ply is no longer the last: cannot happen, a move
		// lapses the request
		t.g.TakebackBy, t.changed = "", true
		return ss.refuse("err.takeback.none", t.g.ID)
	}
	undone, err := ss.undoLastPly(t)
	if err != nil {
		return err
	}
	t.g.TakebackBy = ""
	if t.g.DrawOfferBy != "" {
		t.g.DrawOfferBy = ""
		for _, addr := range []string{t.g.Attackers, t.g.Defenders} {
			ss.tell(addr, t, func(lang string) string { return tr(lang, "takeback.drawlapsed") })
		}
	}
	ss.dropConditions(t)
	// each player reads of their own part as "You …", spectators of both
	// by address
	ss.tell(asker, t, func(lang string) string { return tr(lang, "takeback.done.asker", undone.Move, ss.from) })
	ss.say(t, tr(ss.lang, "takeback.done.you", asker, undone.Move))
	ss.tellSpectators(t, func(lang string) string { return tr(lang, "takeback.done", asker, undone.Move, ss.from) })
	ss.showPosition(t)
	return nil
}

// declineTakeback refuses the opponent's request; the asker is told.
func (ss *session) declineTakeback(*grammar.DeclineTakebackCommand) error {
	t, err := ss.takebackAsked()
	if err != nil {
		return err
	}
	asker := addressOf(t.g, t.g.TakebackBy)
	t.g.TakebackBy = ""
	t.changed = true
	ss.say(t, tr(ss.lang, "takeback.declined.you"))
	ss.tell(asker, t, func(lang string) string { return tr(lang, "takeback.declined", ss.from) })
	return nil
}

// lapseTakeback withdraws a standing takeback request when the other
// player moves instead of answering it; the asker is told.
func (ss *session) lapseTakeback(t *table) {
	by := t.g.TakebackBy
	if by == "" {
		return
	}
	t.g.TakebackBy = ""
	if by != sideOf(t.g, ss.from) {
		ss.tell(addressOf(t.g, by), t, func(lang string) string { return tr(lang, "takeback.lapsed", ss.from) })
	}
}

// undoLastPly removes the last ply of t and replays the rest: a ply of
// this mail is dropped, a stored one goes into the archive change as
// taken back (and into t.g.TakenBack, so that the record of this mail
// names it). It returns the ply undone.
func (ss *session) undoLastPly(t *table) (archive.Ply, error) {
	var undone archive.Ply
	if k := len(t.newPlies); k > 0 {
		undone, t.newPlies = t.newPlies[k-1], t.newPlies[:k-1]
	} else {
		k := len(t.g.Plies)
		cor := corrOf(ss)
		if _, twice := cor.takeBacks[t.g.ID]; twice || k == 0 {
			return undone, fmt.Errorf("server: game %s: a second takeback in one mail", t.g.ID)
		}
		undone = t.g.Plies[k-1]
		tb := archive.TakenBack{Ply: undone, UndoneAt: ss.now, UndoneBy: ss.cause.seed}
		if cor.takeBacks == nil {
			cor.takeBacks = map[string]archive.TakenBack{}
		}
		cor.takeBacks[t.g.ID] = tb
		t.g.Plies = t.g.Plies[:k-1]
		t.g.PlyCount--
		t.g.TakenBack = append(t.g.TakenBack, tb)
	}
	g := *t.g
	g.Plies = t.plies()
	fresh, err := load(&g)
	if err != nil {
		return undone, err
	}
	t.pos, t.last, t.changed = fresh.pos, fresh.last, true
	return undone, nil
}
