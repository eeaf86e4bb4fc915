package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestWithdrawConfirmation: "withdraw ID" only asks, saying what it
// would do; the confirmation needs the entry's key, which the question
// gave to the player's address alone, so a forged sender cannot withdraw
// anybody. A player not in the event, or an event that is over, is
// refused.
func TestWithdrawConfirmation(t *testing.T) {
	h := newHarness(t)
	players := []string{alice, bob, "carol@player.test"}
	h.createEvent("cup", players, nil)
	if _, err := StartTournament(h.srv, h.ctx(), "cup"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	text := to(t, h.deliver(alice, "x", "withdraw cup", nil), alice).Text
	mustContain(t, "the question", text, "finished 0 of your 4 games, fewer than half", "all your games would be annulled", "withdraw cup confirm ")
	if e := entryOf(t, h, "cup", alice); e.Withdrawn() {
		t.Fatalf("asking withdrew alice: %+v", e)
	}
	// a wrong key (a forger who guesses) changes nothing
	h.refusal(h.deliver(alice, "x", "withdraw cup confirm aaaaaaaaaa", nil), alice, referee.English, "err.withdraw.key")
	h.refusal(h.deliver("dave@player.test", "x", "withdraw cup", nil), "dave@player.test", referee.English, "err.withdraw.notin")
	h.refusal(h.deliver("dave@player.test", "x", "abmelden nope", nil), "dave@player.test", referee.German, "err.tournament.unknown")

	// the German confirmation
	sent := h.deliver(bob, "x", "abmelden cup", nil)
	m := confirmLine.FindStringSubmatch(to(t, sent, bob).Text)
	if m == nil || m[3] != "bestätigen" {
		t.Fatalf("German question: %q", to(t, sent, bob).Text)
	}
	sent = h.deliver(bob, "x", m[0], nil)
	mustContain(t, "German withdrawal", to(t, sent, bob).Text, "Du bist aus Cup cup ausgeschieden", "annulliert")
	if e := entryOf(t, h, "cup", bob); !e.Withdrawn() || !e.Annulled {
		t.Errorf("bob's entry: %+v", e)
	}
	// bob's four games ended, without result; each of his opponents got
	// a mail in the game's thread
	n := 0
	for _, g := range h.eventGames("cup") {
		if referee.SideOf(g, bob) == "" {
			continue
		}
		if g.Status != archive.Finished || g.Result != "" || g.Reason != "annulled" {
			t.Errorf("bob's game %s: %s %q %q", g.ID, g.Status, g.Result, g.Reason)
		}
		gameMail(t, sent, referee.OpponentOf(g, bob), g.ID)
		// bob reads of his own withdrawal as "Du …" (trial 3 report §2)
		mine := gameMail(t, sent, bob, g.ID).Text
		mustContain(t, "bob's game mail", mine, referee.Tr(referee.German, "withdraw.told.annulled.you", "Cup cup"))
		mustNotContain(t, "bob's game mail", mine, bob+" ist aus")
		n++
	}
	if n != 4 {
		t.Errorf("bob had %d games, want 4", n)
	}
	h.refusal(h.deliver(bob, "x", "withdraw cup", nil), bob, referee.German, "err.withdraw.notin") // twice
}

// TestWithdrawByDirector: the director's withdrawal of a player who
// finished at least half of their games loses their running games; the
// last game ending finishes the event.
func TestWithdrawByDirector(t *testing.T) {
	h := newHarness(t)
	carol := "carol@player.test"
	h.createEvent("cup", []string{alice, bob, carol}, nil)
	if _, err := StartTournament(h.srv, h.ctx(), "cup"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	// carol finishes two of her four games (both against alice), and
	// alice and bob all of theirs
	for _, g := range h.eventGames("cup") {
		if referee.SideOf(g, bob) == "" || referee.SideOf(g, alice) != "" {
			h.inGame(g.ID, g.Attackers, "resign")
		}
	}
	w, err := WithdrawPlayer(h.srv, h.ctx(), "cup", carol)
	if err != nil || w.Annulled || w.Finished != 2 || w.Games != 4 {
		t.Fatalf("WithdrawPlayer = %+v, %v; want 2 of 4 finished, not annulled", w, err)
	}
	for _, g := range h.eventGames("cup") {
		if referee.SideOf(g, carol) != "" && referee.SideOf(g, bob) != "" && (g.Reason != "withdrawal" || referee.AddressOf(g, g.Result) != bob) {
			t.Errorf("carol's game against bob %s: %q %q", g.ID, g.Result, g.Reason)
		}
	}
	tm, _ := h.store.Tournament(h.ctx(), "cup")
	if tm.Status != archive.TournamentFinished {
		t.Errorf("status after the last game = %s, want finished", tm.Status)
	}
	if _, err := WithdrawPlayer(h.srv, h.ctx(), "cup", alice); err == nil || !strings.Contains(err.Error(), "finished") {
		t.Errorf("withdrawing from a finished event = %v", err)
	}
	if _, err := WithdrawPlayer(h.srv, h.ctx(), "nope", alice); err == nil {
		t.Errorf("withdrawing from an unknown event = nil")
	}
}

func entryOf(t *testing.T, h *harness, id, player string) archive.Entry {
	t.Helper()
	es, err := h.store.Entries(h.ctx(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Player == player {
			return e
		}
	}
	t.Fatalf("%s has no entry in %s", player, id)
	return archive.Entry{}
}
