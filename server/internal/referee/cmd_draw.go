package referee

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	Handle("offer draw", (*Session).offerDraw)
	Handle("accept draw", (*Session).acceptDraw)
	Handle("decline draw", (*Session).declineDraw)
	HelpLine(70, "help.draw")
}

// offerDraw records a draw offer and tells the opponent; when the
// opponent's offer already stands, the game is drawn (RULES.md §1.7) —
// unless the offer was written with sentence marks ("Draw?", marked),
// which may be a question: then it is asked about, "Did you mean "accept
// draw"?", as "Accept draw." is (asksFirst), and the offer stands.
func (ss *Session) offerDraw(*grammar.OfferDrawCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	mine := SideOf(t.Game, ss.From)
	if t.Game.DrawOfferBy == mine {
		return ss.Refuse("err.drawpending", t.Game.ID)
	}
	if t.Game.DrawOfferBy != "" && ss.marked {
		accept := "accept draw"
		if ss.Lang == German {
			accept = "remis annehmen"
		}
		return ss.Refuse("err.didyoumean", accept)
	}
	if t.Game.DrawOfferBy != "" { // both offered: that is agreement
		return ss.acceptDraw(nil)
	}
	t.Game.DrawOfferBy = mine
	t.Changed = true
	opp := OpponentOf(t.Game, ss.From)
	ss.Say(t, Tr(ss.Lang, "draw.offer.sent", PlayerLabel(ss.Lang, t.Game, opp)))
	ss.Tell(opp, t, func(lang string) string { return Tr(lang, "draw.offered", ss.From) })
	return nil
}

// acceptDraw ends the game drawn when the opponent's offer stands.
func (ss *Session) acceptDraw(*grammar.AcceptDrawCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	if t.Game.DrawOfferBy == "" || t.Game.DrawOfferBy == SideOf(t.Game, ss.From) {
		return ss.Refuse("err.nodraw", t.Game.ID)
	}
	t.Game.Status = archive.Finished
	t.Game.Result = "draw"
	t.Game.Reason = "draw agreed"
	t.Game.DrawOfferBy = ""
	t.Changed = true
	ss.ShowPosition(t)
	return nil
}

// declineDraw withdraws the opponent's standing offer.
func (ss *Session) declineDraw(*grammar.DeclineDrawCommand) error {
	t, err := ss.ActiveGame()
	if err != nil {
		return err
	}
	if t.Game.DrawOfferBy == "" || t.Game.DrawOfferBy == SideOf(t.Game, ss.From) {
		return ss.Refuse("err.nodraw", t.Game.ID)
	}
	t.Game.DrawOfferBy = ""
	t.Changed = true
	ss.Say(t, Tr(ss.Lang, "draw.declined.you"))
	ss.Tell(OpponentOf(t.Game, ss.From), t, func(lang string) string { return Tr(lang, "draw.declined", ss.From) })
	return nil
}
