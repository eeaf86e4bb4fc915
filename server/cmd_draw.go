package server

import (
	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("offer draw", (*session).offerDraw)
	handle("accept draw", (*session).acceptDraw)
	handle("decline draw", (*session).declineDraw)
	helpLine(70, "help.draw")
}

// offerDraw records a draw offer and tells the opponent; when the
// opponent's offer already stands, the game is drawn (RULES.md §1.7) —
// unless the offer was written with sentence marks ("Draw?", marked),
// which may be a question: then it is asked about, "Did you mean "accept
// draw"?", as "Accept draw." is (asksFirst), and the offer stands.
func (ss *session) offerDraw(*grammar.OfferDrawCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	mine := sideOf(t.g, ss.from)
	if t.g.DrawOfferBy == mine {
		return ss.refuse("err.drawpending", t.g.ID)
	}
	if t.g.DrawOfferBy != "" && ss.marked {
		accept := "accept draw"
		if ss.lang == german {
			accept = "remis annehmen"
		}
		return ss.refuse("err.didyoumean", accept)
	}
	if t.g.DrawOfferBy != "" { // both offered: that is agreement
		return ss.acceptDraw(nil)
	}
	t.g.DrawOfferBy = mine
	t.changed = true
	opp := opponentOf(t.g, ss.from)
	ss.say(t, tr(ss.lang, "draw.offer.sent", playerLabel(ss.lang, t.g, opp)))
	ss.tell(opp, t, func(lang string) string { return tr(lang, "draw.offered", ss.from) })
	return nil
}

// acceptDraw ends the game drawn when the opponent's offer stands.
func (ss *session) acceptDraw(*grammar.AcceptDrawCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	if t.g.DrawOfferBy == "" || t.g.DrawOfferBy == sideOf(t.g, ss.from) {
		return ss.refuse("err.nodraw", t.g.ID)
	}
	t.g.Status = archive.Finished
	t.g.Result = "draw"
	t.g.Reason = "draw agreed"
	t.g.DrawOfferBy = ""
	t.changed = true
	ss.showPosition(t)
	return nil
}

// declineDraw withdraws the opponent's standing offer.
func (ss *session) declineDraw(*grammar.DeclineDrawCommand) error {
	t, err := ss.activeGame()
	if err != nil {
		return err
	}
	if t.g.DrawOfferBy == "" || t.g.DrawOfferBy == sideOf(t.g, ss.from) {
		return ss.refuse("err.nodraw", t.g.ID)
	}
	t.g.DrawOfferBy = ""
	t.changed = true
	ss.say(t, tr(ss.lang, "draw.declined.you"))
	ss.tell(opponentOf(t.g, ss.from), t, func(lang string) string { return tr(lang, "draw.declined", ss.from) })
	return nil
}
