package server

import (
	"context"
	"testing"
)

func TestKeysProtectTheGame(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	// bob forges a mail from alice, naming the game in the subject but
	// without alice's key.
	sent := h.deliver(alice, "Re: [taflmail "+id+"] move", "d1-e1", nil)
	mustContain(t, "forged move", to(t, sent, alice).Text, "does not carry your key")
	// bob uses his own key in a mail from alice's address: still refused
	bobKey := findGame(h.last(bob).msg.Subject, "", nil).tokens[0]
	sent = h.deliver(alice, "[taflmail "+id+" "+bobKey+"] move", "d1-e1", nil)
	mustContain(t, "wrong key", to(t, sent, alice).Text, "does not carry your key")
	// a stranger cannot move either
	sent = h.deliver("mallory@evil.test", "[taflmail "+id+" "+bobKey+"]", "d1-e1", nil)
	mustContain(t, "stranger", to(t, sent, "mallory@evil.test").Text, "You are not a player in game "+id)
	g, _ := h.store.Game(context.Background(), id)
	if len(g.Plies) != 0 {
		t.Fatalf("after forged mails the game has %d plies, want 0", len(g.Plies))
	}
	// the subject tag with the right key works without a thread
	aliceKey := findGame(h.last(alice).msg.Subject, "", nil).tokens[0]
	sent = h.deliver(alice, "[taflmail "+id+" "+aliceKey+"]", "1. d1-e1", nil)
	mustContain(t, "keyed move", to(t, sent, bob).Text, "alice@player.test played d1-e1")
}
