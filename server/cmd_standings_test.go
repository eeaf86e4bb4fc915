package server

import "testing"

// TestStandingsCommand: the standings are public: a stranger gets the
// crosstable with the ratings; before the start, the players entered;
// an unknown id is refused.
func TestStandingsCommand(t *testing.T) {
	h := newHarness(t)
	carol := "carol@player.test"
	h.createEvent("cup", []string{alice, bob, carol}, nil)
	text := to(t, h.deliver("stranger@player.test", "x", "standings cup", nil), "stranger@player.test").Text
	mustContain(t, "before the start", text, "Cup cup (cup), taking entries.", " 1. alice@player.test", " 3. carol@player.test")
	if _, err := h.srv.StartTournament(h.ctx(), "cup"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	g := h.eventGames("cup")[0]
	h.inGame(g.ID, g.Defenders, "resign")
	text = to(t, h.deliver("stranger@player.test", "x", "standings cup", nil), "stranger@player.test").Text
	mustContain(t, "the crosstable", text, "Cup cup (cup), running.", "Place Player", "1 of 6 games finished", "Ratings in brandubh now",
		g.Attackers)
	text = to(t, h.deliver("fremder@player.test", "x", "tabelle cup", nil), "fremder@player.test").Text
	mustContain(t, "German", text, "Cup cup (cup), Stand: läuft.", "Platz Spieler", "1 von 6 Partien beendet", "Wertungszahlen in brandubh")
	mustNotContain(t, "German", text, "Place", "Player", "games finished")
	text = to(t, h.deliver("stranger@player.test", "x", "standings nope", nil), "stranger@player.test").Text
	mustContain(t, "unknown", text, tr(english, "err.tournament.unknown", "nope"))
}
