package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"testing"
)

// TestDraw: an offer, a refusal of it, a second offer accepted; what each
// player is told; the offers a player cannot make or answer.
func TestDraw(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	before := h.state(id)
	refusedWith(t, h, id, before, h.reply(alice, "accept draw"), alice, referee.English, "err.nodraw")
	sent := h.reply(alice, "offer draw")
	mustContain(t, "offer", to(t, sent, alice).Text, referee.Tr(referee.English, "draw.offer.sent", bob))
	mustContain(t, "offer", to(t, sent, bob).Text, referee.Tr(referee.English, "draw.offered", alice))
	offered := h.state(id)
	if offered.DrawOfferBy != "attackers" {
		t.Fatalf("after the offer: %v", offered)
	}
	refusedWith(t, h, id, offered, h.reply(alice, "offer draw"), alice, referee.English, "err.drawpending")
	refusedWith(t, h, id, offered, h.reply(alice, "accept draw"), alice, referee.English, "err.nodraw")
	sent = h.reply(bob, "remis ablehnen")
	mustContain(t, "decline", to(t, sent, alice).Text, referee.Tr(referee.English, "draw.declined", bob))
	mustContain(t, "decline", to(t, sent, bob).Text, referee.Tr(referee.German, "draw.declined.you"))
	mustNotContain(t, "decline", to(t, sent, bob).Text, referee.Tr(referee.German, "draw.declined", bob))
	if g := h.state(id); g.DrawOfferBy != "" || g.Status != "active" {
		t.Fatalf("after the decline: %v", g)
	}
	// both offer: that is agreement
	h.reply(bob, "remis anbieten")
	sent = h.reply(alice, "offer draw")
	g := h.state(id)
	if g.Status != "finished" || g.Result != "draw" || g.Reason != "draw agreed" {
		t.Fatalf("after both offered: %v", g)
	}
	// the draw said once (trial 3 report §4)
	mustContain(t, "draw", to(t, sent, alice).Text, "The game is over: both players agreed to a draw ("+id+").\n")
	mustContain(t, "draw", to(t, sent, bob).Text, "Die Partie ist beendet: beide Spieler haben sich auf ein Remis geeinigt ("+id+").\n")
	refusedOnly(t, h, id, g, h.reply(bob, "remis anbieten"), bob, referee.Tr(referee.German, "err.over", id, "beide Spieler haben sich auf ein Remis geeinigt"))
}

// TestDrawLapses: a move lapses a standing offer; the other player is told.
func TestDrawLapses(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(bob, "offer draw")
	sent := h.reply(alice, "d1-e1")
	mustContain(t, "lapsed", to(t, sent, bob).Text, referee.Tr(referee.English, "draw.lapsed"))
	if g := h.state(id); g.DrawOfferBy != "" {
		t.Fatalf("the offer stands after the move: %v", g)
	}
}
