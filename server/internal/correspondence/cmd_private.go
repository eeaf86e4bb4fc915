package correspondence

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func init() {
	referee.Handle("private", makePrivate)
	referee.Handle("public", makePublic)
	referee.HelpLine(64, "help.private")
}

// privateFlag returns the private flag of side in g.
func privateFlag(g *archive.Game, side string) *bool {
	if side == "attackers" {
		return &g.AttackersPrivate
	}
	return &g.DefendersPrivate
}

// privacyGame returns the game of "private" or "public": the sender's,
// with the key, invited or running, casual.
func privacyGame(ss *referee.Session) (*referee.Table, error) {
	t, err := ss.GameForCommand()
	if err != nil {
		return nil, err
	}
	switch t.Game.Status {
	case archive.Finished:
		return nil, ss.Refuse("err.over", t.Game.ID, referee.ResultText(ss.Lang, t))
	case archive.Declined:
		return nil, ss.Refuse("err.notactive", t.Game.ID, referee.Tr(ss.Lang, "status."+string(t.Game.Status)))
	}
	if tournamentGame(t.Game) {
		return nil, ss.Refuse("err.private.tournament", t.Game.ID)
	}
	return t, nil
}

// makePrivate refuses spectators for the sender's casual game (issue 12):
// its spectators are removed and told so, and nobody may watch it while
// either player wants it private. The opponent is told.
func makePrivate(ss *referee.Session, _ *grammar.PrivateCommand) error {
	t, err := privacyGame(ss)
	if err != nil {
		return err
	}
	flag := privateFlag(t.Game, referee.SideOf(t.Game, ss.From))
	if *flag {
		ss.Say(t, referee.Tr(ss.Lang, "private.already", t.Game.ID))
		return nil
	}
	*flag = true
	t.Changed = true
	specs, err := ss.Server.SpectatorPort().Spectators(ss.Ctx, t.Game.ID)
	if err != nil {
		return err
	}
	removed := 0
	for _, sp := range specs {
		if unwatching(ss, t.Game.ID, sp.Address) {
			continue
		}
		cor := corrOf(ss)
		cor.spectatorsRemoved = append(cor.spectatorsRemoved, sp)
		cor.farewells = append(cor.farewells, farewell{t: t, sp: sp})
		removed++
	}
	ss.Say(t, referee.Trn(ss.Lang, "private.set", removed, t.Game.ID, removed))
	ss.Tell(referee.OpponentOf(t.Game, ss.From), t, func(lang string) string { return referee.Tr(lang, "private.told", ss.From, t.Game.ID) })
	return nil
}

// makePublic withdraws the sender's wish for privacy: the game is open to
// spectators again unless the opponent wants it private.
func makePublic(ss *referee.Session, _ *grammar.PublicCommand) error {
	t, err := privacyGame(ss)
	if err != nil {
		return err
	}
	mine := referee.SideOf(t.Game, ss.From)
	flag, theirs := privateFlag(t.Game, mine), privateFlag(t.Game, otherSide(mine))
	switch {
	case !*flag && !*theirs:
		ss.Say(t, referee.Tr(ss.Lang, "public.already", t.Game.ID))
		return nil
	case !*flag:
		ss.Say(t, referee.Tr(ss.Lang, "public.opponent", t.Game.ID))
		return nil
	}
	*flag = false
	t.Changed = true
	if *theirs {
		ss.Say(t, referee.Tr(ss.Lang, "public.opponent", t.Game.ID))
		return nil
	}
	ss.Say(t, referee.Tr(ss.Lang, "public.set", t.Game.ID))
	ss.Tell(referee.OpponentOf(t.Game, ss.From), t, func(lang string) string { return referee.Tr(lang, "public.told", ss.From, t.Game.ID) })
	return nil
}
