package server

import (
	"testing"
)

func TestGames(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "games", nil)
	mustContain(t, "no games", to(t, sent, alice).Text, tr(english, "games.none"))
	id := startBrandubh(t, h)
	sent = h.deliver(alice, "x", "games", nil)
	mustContain(t, "games", to(t, sent, alice).Text, id, "brandubh", "bob@player.test", "your move (move 1)")
	sent = h.deliver(bob, "x", "games", nil)
	mustContain(t, "games", to(t, sent, bob).Text, "their move (move 1)")
	if s := h.last(bob).msg.Subject; s != "your mail to taflmail" {
		t.Errorf("reply subject %q, want the fixed one (never the player's own, see subject)", s)
	}
	// an invitation either way, a declined and a finished game, in German
	h.deliver(alice, "x", "new tablut with carol@player.test", nil)
	h.deliver("dave@player.test", "x", "new fetlar with bob@player.test", nil)
	h.deliver(bob, "x", "new brandubh with erin@player.test", nil)
	h.reply("erin@player.test", "decline")
	h.deliver(bob, "x", "new tablut with frank@player.test", nil)
	h.deliver(alice, "[taflmail "+id+" "+h.mailVars(alice, id)["{{KEY}}"]+"]", "resign", nil)
	text := to(t, h.deliver(bob, "x", "partien", nil), bob).Text
	mustContain(t, "German games", text, tr(german, "games.header"),
		tr(german, "games.invited.you"), tr(german, "games.invited"), tr(german, "games.declined"),
		tr(german, "games.finished", tr(german, "result.defenders")), "gegen alice@player.test")
}
