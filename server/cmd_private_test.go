package server

import (
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestPrivate: a player makes a casual game private: its spectator is
// removed and told, the opponent is told, nobody may watch it; it stays
// private while either player wants it; "public" opens it again.
func TestPrivate(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.confirmed(watcher, "watch "+id, nil)
	sent := h.reply(bob, "private")
	mustContain(t, "private", to(t, sent, bob).Text, referee.Trn(referee.English, "private.set", 1, id, 1))
	mustContain(t, "opponent told", to(t, sent, alice).Text, referee.Tr(referee.English, "private.told", bob, id))
	bye := to(t, sent, watcher)
	mustContain(t, "farewell", bye.Text, referee.Tr(referee.English, "watch.private", id))
	mustContain(t, "farewell subject", bye.Subject, "[taflmail "+id+"] ", referee.Tr(referee.English, "subject.watch.end", "Brandubh 7×7 (Federation Brandubh)"))
	noKeys(t, "the farewell", sent[len(sent)-1], h.keysOf(id))
	if sp := h.spectatorsOf(id); len(sp) != 0 {
		t.Fatalf("spectators of a private game: %+v", sp)
	}
	h.refusal(h.deliver(viewer, "x", "watch "+id, nil), viewer, referee.English, "err.watch.private")
	if sent := h.reply(alice, "d1-e1"); len(sent) != 2 {
		t.Errorf("a move in a private game caused %d mails, want 2 (no spectators):\n%s", len(sent), texts(sent))
	}

	// both want it private; one "public" is not enough
	h.reply(alice, "privat")
	mustContain(t, "privat", h.last(alice).msg.Text, referee.Tr(referee.German, "private.set", id, 0))
	h.reply(bob, "public")
	mustContain(t, "public, opponent private", h.last(bob).msg.Text, referee.Tr(referee.English, "public.opponent", id))
	if g := h.state(id); g.Status != archive.Active {
		t.Fatal(g)
	}
	h.refusal(h.deliver(viewer, "x", "watch "+id, nil), viewer, referee.English, "err.watch.private") // still private
	sent = h.reply(alice, "öffentlich")
	mustContain(t, "öffentlich", to(t, sent, alice).Text, referee.Tr(referee.German, "public.set", id))
	mustContain(t, "opponent told", to(t, sent, bob).Text, referee.Tr(referee.English, "public.told", alice, id))
	sent = h.confirmed(viewer, "watch "+id, nil)
	mustContain(t, "public again", to(t, sent, viewer).Text, referee.Tr(referee.English, "watch.started", id, alice, bob))

	// keyless "private" is refused like any game command without the key
	before := h.state(id)
	refusedWith(t, h, id, before, h.deliver(alice, "[taflmail "+id+"] x", "private", nil), alice, referee.German, "err.badkey") // alice wrote German
	if g, _ := h.store.Game(t.Context(), id); g.AttackersPrivate || g.DefendersPrivate {
		t.Errorf("a keyless private changed the game: %+v", g)
	}
}

// TestPrivateTournamentGame: a tournament game is always public: "private"
// is refused with the reason, and privacy flags set on it (by whatever
// means) do not keep spectators out.
func TestPrivateTournamentGame(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.setGame(id, func(g *archive.Game) { g.TournamentID = "autumn-2026" })
	before := h.state(id)
	refusedWith(t, h, id, before, h.reply(alice, "private"), alice, referee.English, "err.private.tournament")
	h.setGame(id, func(g *archive.Game) { g.DefendersPrivate = true })
	sent := h.confirmed(watcher, "watch "+id, nil)
	mustContain(t, "watch a tournament game", to(t, sent, watcher).Text, referee.Tr(referee.English, "watch.started", id, alice, bob))
	if sent := h.reply(alice, "d1-e1"); len(sent) != 3 {
		t.Errorf("a move in a tournament game with a spectator caused %d mails, want 3", len(sent))
	}
}
