package server

import (
	"context"
	"errors"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func TestKeysProtectTheGame(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	// bob forges a mail from alice, naming the game in the subject but
	// without alice's key.
	sent := h.deliver(alice, "Re: [taflmail "+id+"] move", "d1-e1", nil)
	mustContain(t, "forged move", to(t, sent, alice).Text, "does not carry your key")
	// bob uses his own key in a mail from alice's address: still refused
	bobKey := referee.FindGame(h.last(bob).msg.Subject, "", nil).Tokens[0]
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
	aliceKey := referee.FindGame(h.last(alice).msg.Subject, "", nil).Tokens[0]
	sent = h.deliver(alice, "[taflmail "+id+" "+aliceKey+"]", "1. d1-e1", nil)
	mustContain(t, "keyed move", to(t, sent, bob).Text, "alice@player.test played d1-e1")
}

// TestStoredPlayerReadOnce: a session reads a player's row from the
// archive once and answers every later question about it from that row
// (its decision commits nothing before the end, so a second read would
// give the same row); a player never stored is remembered as not found;
// a failed read is not remembered.
func TestStoredPlayerReadOnce(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if err := h.store.Commit(ctx, archive.Change{Players: []archive.Player{{Address: alice, Language: "de", MessagesOff: true}}}); err != nil {
		t.Fatal(err)
	}
	ss := h.srv.NewSession(h.ctx(), referee.StartCause("", h.now))
	p, err := ss.StoredPlayer(alice)
	if err != nil || p.Language != "de" {
		t.Fatalf("storedPlayer(alice) = %+v, %v; want her row", p, err)
	}
	if _, err := ss.StoredPlayer("nobody@player.test"); !errors.Is(err, archive.ErrNotFound) {
		t.Fatalf("storedPlayer(nobody) = %v, want ErrNotFound", err)
	}
	// Another writer changes alice's row: this session keeps what it read.
	if err := h.store.Commit(ctx, archive.Change{Players: []archive.Player{{Address: alice, Language: "en"}}}); err != nil {
		t.Fatal(err)
	}
	if again, err := ss.StoredPlayer(alice); err != nil || again != p {
		t.Errorf("storedPlayer(alice) again = %+v, %v; want the row read first", again, err)
	}
	if lang, off := ss.LangOf(alice), correspondence.MessagesOff(ss, alice); lang != "de" || !off {
		t.Errorf("langOf, messagesOff = %q, %v; want the session's row: de, true", lang, off)
	}
	// A new session reads the row as stored now.
	if p, err := h.srv.NewSession(h.ctx(), referee.StartCause("", h.now)).StoredPlayer(alice); err != nil || p.Language != "en" {
		t.Errorf("a new session's storedPlayer(alice) = %+v, %v; want language en", p, err)
	}
	// A read that fails is not kept.
	h.store.Close()
	if _, err := ss.StoredPlayer("carol@player.test"); err == nil || errors.Is(err, archive.ErrNotFound) {
		t.Fatalf("storedPlayer on a closed archive = %v; want a failure", err)
	}
	if _, kept := ss.Stored["carol@player.test"]; kept {
		t.Error("a failed read was kept")
	}
}
