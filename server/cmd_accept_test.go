package server

import (
	"testing"
)

// TestAcceptDecline: only the invited player answers a challenge; accept
// starts the game for both, decline ends it and tells the challenger.
func TestAcceptDecline(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "new brandubh with bob@player.test", nil)
	id := findGame(to(t, sent, bob).Subject, "", nil).id
	before := h.state(id)
	refusedOnly(t, h, id, before, h.reply(alice, "accept"), alice, tr(english, "err.notinvited", id))
	sent = h.reply(bob, "accept")
	if g := h.state(id); g.Status != "active" || len(sent) != 2 {
		t.Fatalf("after accept: %v, %d mails", g, len(sent))
	}
	mustContain(t, "start", to(t, sent, alice).Text, tr(english, "challenge.accepted", bob), tr(english, "move.yours", 1, "attackers"))
	mustContain(t, "start", to(t, sent, bob).Text, tr(english, "challenge.accepted", bob), tr(english, "move.theirs", 1, "attackers"))
	active := h.state(id)
	refusedOnly(t, h, id, active, h.reply(bob, "accept"), bob, tr(english, "err.notinvited", id))

	// declined, in German
	sent = h.deliver(alice, "x", "neu tablut mit carol@player.test", nil)
	id = findGame(to(t, sent, "carol@player.test").Subject, "", nil).id
	sent = h.reply("carol@player.test", "ablehnen")
	if g := h.state(id); g.Status != "declined" || len(sent) != 2 {
		t.Fatalf("after decline: %v, %d mails", g, len(sent))
	}
	mustContain(t, "carol", to(t, sent, "carol@player.test").Text, tr(german, "challenge.you.declined"))
	mustContain(t, "alice", to(t, sent, alice).Text, tr(german, "challenge.declined", "carol@player.test"))
	mustContain(t, "subject", to(t, sent, alice).Subject, tr(german, "subject.declined", "Tablut 9×9 (Linné, wie Aage Nielsen es rekonstruiert hat)"))
	declined := h.state(id)
	sent = h.reply("carol@player.test", "brett")
	mustContain(t, "board of a declined game", to(t, sent, "carol@player.test").Text, "Angreifer: alice@player.test")
	refusedOnly(t, h, id, declined, h.reply(alice, "d1-d2"), alice, tr(german, "err.notactive", id, tr(german, "status.declined")))
}
