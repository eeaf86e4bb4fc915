package server

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("private", (*session).makePrivate)
	handle("public", (*session).makePublic)
	helpLine(64, "help.private")
}

// privateFlag returns the private flag of side in g.
func privateFlag(g *archive.Game, side string) *bool {
	if side == "attackers" {
		return &g.AttackersPrivate
	}
	return &g.DefendersPrivate
}

// otherSide returns "defenders" for "attackers" and the other way round.
func otherSide(side string) string {
	if side == "attackers" {
		return "defenders"
	}
	return "attackers"
}

// privacyGame returns the game of "private" or "public": the sender's,
// with the key, invited or running, casual.
func (ss *session) privacyGame() (*table, error) {
	t, err := ss.gameForCommand()
	if err != nil {
		return nil, err
	}
	switch t.g.Status {
	case archive.Finished:
		return nil, ss.refuse("err.over", t.g.ID, resultText(ss.lang, t))
	case archive.Declined:
		return nil, ss.refuse("err.notactive", t.g.ID, tr(ss.lang, "status."+string(t.g.Status)))
	}
	if tournamentGame(t.g) {
		return nil, ss.refuse("err.private.tournament", t.g.ID)
	}
	return t, nil
}

// makePrivate refuses spectators for the sender's casual game (issue 12):
// its spectators are removed and told so, and nobody may watch it while
// either player wants it private. The opponent is told.
func (ss *session) makePrivate(*grammar.PrivateCommand) error {
	t, err := ss.privacyGame()
	if err != nil {
		return err
	}
	flag := privateFlag(t.g, sideOf(t.g, ss.from))
	if *flag {
		ss.say(t, tr(ss.lang, "private.already", t.g.ID))
		return nil
	}
	*flag = true
	t.changed = true
	specs, err := ss.srv.spectatorPort().Spectators(ss.ctx, t.g.ID)
	if err != nil {
		return err
	}
	removed := 0
	for _, sp := range specs {
		if ss.unwatching(t.g.ID, sp.Address) {
			continue
		}
		cor := corrOf(ss)
		cor.unwatch = append(cor.unwatch, sp)
		cor.farewells = append(cor.farewells, farewell{t: t, sp: sp})
		removed++
	}
	ss.say(t, trn(ss.lang, "private.set", removed, t.g.ID, removed))
	ss.tell(opponentOf(t.g, ss.from), t, func(lang string) string { return tr(lang, "private.told", ss.from, t.g.ID) })
	return nil
}

// makePublic withdraws the sender's wish for privacy: the game is open to
// spectators again unless the opponent wants it private.
func (ss *session) makePublic(*grammar.PublicCommand) error {
	t, err := ss.privacyGame()
	if err != nil {
		return err
	}
	mine := sideOf(t.g, ss.from)
	flag, theirs := privateFlag(t.g, mine), privateFlag(t.g, otherSide(mine))
	switch {
	case !*flag && !*theirs:
		ss.say(t, tr(ss.lang, "public.already", t.g.ID))
		return nil
	case !*flag:
		ss.say(t, tr(ss.lang, "public.opponent", t.g.ID))
		return nil
	}
	*flag = false
	t.changed = true
	if *theirs {
		ss.say(t, tr(ss.lang, "public.opponent", t.g.ID))
		return nil
	}
	ss.say(t, tr(ss.lang, "public.set", t.g.ID))
	ss.tell(opponentOf(t.g, ss.from), t, func(lang string) string { return tr(lang, "public.told", ss.from, t.g.ID) })
	return nil
}
