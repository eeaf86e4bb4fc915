package correspondence

import (
	"fmt"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("takeback", takeback)
	referee.Handle("accept takeback", acceptTakeback)
	referee.Handle("decline takeback", declineTakeback)
	referee.HelpLine(75, "help.takeback")
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
func timedGame(g *archive.Game) bool { return gameclock.Control(g).Timed() }

// takebackBarred refuses a takeback in a game that allows none: a
// tournament game (rated, tournamentGame), a timed one, or one against
// the engine opponent, which never takes back (engine.go).
func takebackBarred(ss *referee.Session, g *archive.Game) error {
	switch {
	case referee.EngineSide(g) != "":
		return ss.Refuse("err.takeback.engine", g.ID)
	case tournamentGame(g):
		return ss.Refuse("err.takeback.tournament", g.ID, g.TournamentID)
	case timedGame(g):
		return ss.Refuse("err.takeback.timed", g.ID, g.TimeControl)
	}
	return nil
}

// takeback asks the opponent to undo the sender's last ply: only before
// the opponent has answered it.
func takeback(ss *referee.Session, _ *grammar.TakebackCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	if err := takebackBarred(ss, t.Game); err != nil {
		return err
	}
	mine := referee.SideOf(t.Game, ss.From)
	ps := t.Plies()
	if len(ps) == 0 || t.ToMove() == mine {
		return ss.Refuse("err.takeback.notyours")
	}
	if t.Game.TakebackBy == mine {
		return ss.Refuse("err.takeback.pending", t.Game.ID)
	}
	last := ps[len(ps)-1].Move
	t.Game.TakebackBy = mine
	t.Changed = true
	opp := referee.OpponentOf(t.Game, ss.From)
	ss.Say(t, referee.Tr(ss.Lang, "takeback.asked", opp, last))
	ss.Tell(opp, t, func(lang string) string { return referee.Tr(lang, "takeback.offered", ss.From, last) })
	return nil
}

// takebackAsked returns the game whose takeback request the sender
// answers: running, not a tournament's (whose refusal is "never in
// tournaments", not "no request"), the request the opponent's.
func takebackAsked(ss *referee.Session) (*referee.Table, error) {
	t, err := ss.ActiveGame()
	if err != nil {
		return nil, err
	}
	if tournamentGame(t.Game) {
		return nil, ss.Refuse("err.takeback.tournament", t.Game.ID, t.Game.TournamentID)
	}
	if t.Game.TakebackBy == "" || t.Game.TakebackBy == referee.SideOf(t.Game, ss.From) {
		return nil, ss.Refuse("err.takeback.none", t.Game.ID)
	}
	return t, nil
}

// acceptTakeback undoes the asker's last ply; both players, and the
// spectators, get the position.
func acceptTakeback(ss *referee.Session, _ *grammar.AcceptTakebackCommand) error {
	t, err := takebackAsked(ss)
	if err != nil {
		return err
	}
	if err := takebackBarred(ss, t.Game); err != nil {
		return err
	}
	asker := referee.AddressOf(t.Game, t.Game.TakebackBy)
	if t.ToMove() != referee.SideOf(t.Game, ss.From) || len(t.Plies()) == 0 {
		// the asker's ply is no longer the last: cannot happen, a move
		// lapses the request
		t.Game.TakebackBy, t.Changed = "", true
		return ss.Refuse("err.takeback.none", t.Game.ID)
	}
	undone, err := undoLastPly(ss, t)
	if err != nil {
		return err
	}
	t.Game.TakebackBy = ""
	if t.Game.DrawOfferBy != "" {
		t.Game.DrawOfferBy = ""
		for _, addr := range []string{t.Game.Attackers, t.Game.Defenders} {
			ss.Tell(addr, t, func(lang string) string { return referee.Tr(lang, "takeback.drawlapsed") })
		}
	}
	dropConditions(ss, t)
	// each player reads of their own part as "You …", spectators of both
	// by address
	ss.Tell(asker, t, func(lang string) string { return referee.Tr(lang, "takeback.done.asker", undone.Move, ss.From) })
	ss.Say(t, referee.Tr(ss.Lang, "takeback.done.you", asker, undone.Move))
	tellSpectators(ss, t, func(lang string) string { return referee.Tr(lang, "takeback.done", asker, undone.Move, ss.From) })
	ss.ShowPosition(t)
	return nil
}

// declineTakeback refuses the opponent's request; the asker is told.
func declineTakeback(ss *referee.Session, _ *grammar.DeclineTakebackCommand) error {
	t, err := takebackAsked(ss)
	if err != nil {
		return err
	}
	asker := referee.AddressOf(t.Game, t.Game.TakebackBy)
	t.Game.TakebackBy = ""
	t.Changed = true
	ss.Say(t, referee.Tr(ss.Lang, "takeback.declined.you"))
	ss.Tell(asker, t, func(lang string) string { return referee.Tr(lang, "takeback.declined", ss.From) })
	return nil
}

// lapseTakeback withdraws a standing takeback request when the other
// player moves instead of answering it; the asker is told.
func lapseTakeback(ss *referee.Session, t *referee.Table) {
	by := t.Game.TakebackBy
	if by == "" {
		return
	}
	t.Game.TakebackBy = ""
	if by != referee.SideOf(t.Game, ss.From) {
		ss.Tell(referee.AddressOf(t.Game, by), t, func(lang string) string { return referee.Tr(lang, "takeback.lapsed", ss.From) })
	}
}

// undoLastPly removes the last ply of t and replays the rest: a ply of
// this mail is dropped, a stored one goes into the archive change as
// taken back (and into t.g.TakenBack, so that the record of this mail
// names it). It returns the ply undone.
func undoLastPly(ss *referee.Session, t *referee.Table) (archive.Ply, error) {
	var undone archive.Ply
	if k := len(t.NewPlies); k > 0 {
		undone, t.NewPlies = t.NewPlies[k-1], t.NewPlies[:k-1]
	} else {
		k := len(t.Game.Plies)
		cor := corrOf(ss)
		if _, twice := cor.takeBacks[t.Game.ID]; twice || k == 0 {
			return undone, fmt.Errorf("server: game %s: a second takeback in one mail", t.Game.ID)
		}
		undone = t.Game.Plies[k-1]
		tb := archive.TakenBack{Ply: undone, UndoneAt: ss.Now, UndoneBy: ss.Cause.Seed}
		if cor.takeBacks == nil {
			cor.takeBacks = map[string]archive.TakenBack{}
		}
		cor.takeBacks[t.Game.ID] = tb
		t.Game.Plies = t.Game.Plies[:k-1]
		t.Game.PlyCount--
		t.Game.TakenBack = append(t.Game.TakenBack, tb)
	}
	g := *t.Game
	g.Plies = t.Plies()
	fresh, err := referee.Load(&g)
	if err != nil {
		return undone, err
	}
	t.Pos, t.Last, t.Changed = fresh.Pos, fresh.Last, true
	return undone, nil
}
