package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"testing"
)

// TestRatingCommand: a casual game is rated when the challenge says so
// and the opponent accepts (the invitation tells), and "rating" answers
// from the history, in English and German.
func TestRatingCommand(t *testing.T) {
	h := newHarness(t)
	text := to(t, h.deliver(alice, "x", "rating", nil), alice).Text
	mustContain(t, "no rating", text, referee.Tr(referee.English, "rating.none"))

	sent := h.deliver(alice, "x", "new brandubh with bob@player.test rated", nil)
	mustContain(t, "the invitation", to(t, sent, bob).Text, referee.Tr(referee.English, "invite.rated"), "you no rating yet (1500)")
	mustContain(t, "the confirmation", to(t, sent, alice).Text, referee.Tr(referee.English, "invite.rated"))
	h.reply(bob, "accept")
	h.reply(alice, "d1-e1")
	sent = h.reply(bob, "resign")
	mustContain(t, "the end", to(t, sent, alice).Text, "Your rating in Brandubh 7×7 (Federation Brandubh) is now 1662.3 (RD 290.3) after 1 rated game.")

	text = to(t, h.deliver(alice, "x", "rating", nil), alice).Text
	mustContain(t, "ratings", text, "brandubh", "1662.3", "RD 290.3", "1 rated game,")
	text = to(t, h.deliver(bob, "x", "wertung brandubh", nil), bob).Text
	mustContain(t, "German history", text, "Deine Wertungszahl in Brandubh 7×7 (Federation Brandubh): 1337.7", "gegen alice@player.test", "verloren", "1500.0 → 1337.7")
	text = to(t, h.deliver(bob, "x", "rating tablut", nil), bob).Text
	mustContain(t, "no games of tablut", text, "Du hast noch keine gewerteten Partien in Tablut")
	text = to(t, h.deliver(bob, "x", "rating nonsense", nil), bob).Text
	mustContain(t, "unknown variant", text, "nonsense")

	// an unrated game changes no rating; the next invitation shows both
	h.deliver(alice, "x", "new brandubh with bob@player.test", nil)
	inv := h.last(bob).msg.Text
	mustContain(t, "unrated invitation with ratings", inv, "du 1337.7 (RD 290.3), alice@player.test 1662.3 (RD 290.3)")
	if contains(inv, referee.Tr(referee.German, "invite.rated")) {
		t.Errorf("an unrated invitation says it is rated:\n%s", inv)
	}
	// "games" shows the ratings
	mustContain(t, "games", to(t, h.deliver(alice, "x", "games", nil), alice).Text, "Your ratings: brandubh 1662 (RD 290).", "bob@player.test (1338)")
}
