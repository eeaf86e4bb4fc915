package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestStartGames: an organiser's match of two timed games between the same
// players (one with each side, CORRESPONDENCE.md §6 Decision T1) starts at
// once: each player gets a mail per game with its own key and the clocks,
// the games run with their timers, and a reply to such a mail is a move.
// Bad pairings start nothing.
func TestStartGames(t *testing.T) {
	h := newHarness(t)
	tc, err := notation.ParseTimeControl("", "3d+1d")
	if err != nil {
		t.Fatal(err)
	}
	before := len(h.sender.sent)
	ids, err := h.srv.StartGames(context.Background(), []referee.GameStart{
		{Variant: "brandubh", Attackers: alice, Defenders: "Bob@Player.test", TimeControl: tc, TournamentID: "autumn-2026"},
		{Variant: "brandubh", Attackers: bob, Defenders: alice, TimeControl: tc, TournamentID: "autumn-2026"},
	})
	if err != nil || len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("StartGames = %v, %v", ids, err)
	}
	h.srv.FlushOutbox(context.Background())
	sent := h.sender.sent[before:]
	if len(sent) != 4 {
		t.Fatalf("%d mails, want one per player and game:\n%s", len(sent), subjects(sent))
	}
	for _, id := range ids {
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != archive.Active || g.TimeControl != "3d+1d" || !g.StartedAt.Equal(h.now) || g.TournamentID != "autumn-2026" {
			t.Errorf("game %s: %+v", id, g)
		}
		if d := h.deadlineOf(id); !d.Equal(h.now.Add(3*day + time.Second)) {
			t.Errorf("game %s: deadline %v", id, d)
		}
		for _, who := range []string{alice, bob} {
			key := referee.TokenOf(g, who)
			n := 0
			for _, m := range sent {
				if m.to == who && strings.Contains(m.msg.Subject, "[taflmail "+id+" "+key+"]") {
					n++
					mustContain(t, who, m.msg.Text, "Brandubh", "starts now. You play the", "Time control: 3d+1d", "Clocks (3d+1d)", key)
				}
			}
			if n != 1 {
				t.Errorf("game %s: %d mails to %s with its key", id, n, who)
			}
		}
	}
	// alice replies to her mail of the first game with a move
	for _, m := range sent {
		if m.to == alice && strings.Contains(m.msg.Subject, ids[0]) {
			h.replyTo(alice, m, "d1-e1")
		}
	}
	if g := h.state(ids[0]); len(g.Plies) != 1 {
		t.Errorf("the move in reply to the start mail was not played: %v", g)
	}

	for _, bad := range [][]referee.GameStart{
		{{Variant: "chess", Attackers: alice, Defenders: bob}},
		{{Variant: "brandubh", Attackers: alice, Defenders: alice}},
		{{Variant: "brandubh", Attackers: alice, Defenders: "tafl@game.test"}},
		{{Variant: "brandubh", Attackers: alice, Defenders: bob}, {Variant: "brandubh", Attackers: "not an address", Defenders: bob}},
	} {
		gs, _ := h.store.GamesOf(context.Background(), bob)
		if _, err := h.srv.StartGames(context.Background(), bad); err == nil {
			t.Errorf("StartGames(%+v) started", bad)
		}
		if after, _ := h.store.GamesOf(context.Background(), bob); len(after) != len(gs) {
			t.Errorf("a failed StartGames(%+v) left %d games", bad, len(after)-len(gs))
		}
	}
}
