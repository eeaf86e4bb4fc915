package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestStandingsCommand: the standings are public: a stranger gets the
// crosstable with the ratings; before the start, the players entered;
// an unknown id is refused.
func TestStandingsCommand(t *testing.T) {
	h := newHarness(t)
	carol := "carol@player.test"
	h.createEvent("cup", []string{alice, bob, carol}, nil)
	text := to(t, h.deliver("stranger@player.test", "x", "standings cup", nil), "stranger@player.test").Text
	mustContain(t, "before the start", text, "Cup cup (cup), taking entries.", " 1. alice@player.test", " 3. carol@player.test")
	if _, err := StartTournament(h.srv, h.ctx(), "cup"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	g := h.eventGames("cup")[0]
	h.inGame(g.ID, g.Defenders, "resign")
	text = to(t, h.deliver("stranger@player.test", "x", "standings cup", nil), "stranger@player.test").Text
	mustContain(t, "the crosstable", text, "Cup cup (cup), running.", "Place Player", "1 of 6 games finished", "Ratings in brandubh now",
		g.Attackers)
	if n := strings.Count(text, "Cup cup"); n != 1 {
		t.Errorf("the event's name is in the standings %d times, want 1:\n%s", n, text)
	}
	text = to(t, h.deliver("fremder@player.test", "x", "tabelle cup", nil), "fremder@player.test").Text
	mustContain(t, "German", text, "Cup cup (cup), Stand: läuft.", "Platz Spieler", "1 von 6 Partien beendet", "Wertungszahlen in brandubh")
	mustNotContain(t, "German", text, "Place", "Player", "games finished")
	// the first line names the event; the table does not again (trial 22)
	if n := strings.Count(text, "Cup cup"); n != 1 {
		t.Errorf("the event's name is in the German standings %d times, want 1:\n%s", n, text)
	}
	// in groups each table is headed by its group alone
	var players []string
	for _, p := range []string{"p1", "p2", "p3", "p4", "p5", "p6"} {
		players = append(players, p+"@player.test")
	}
	h.createEvent("groups", players, func(t *archive.Tournament) { t.Groups = 2 })
	if _, err := StartTournament(h.srv, h.ctx(), "groups"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	text = to(t, h.deliver("fremder@player.test", "x", "tabelle groups", nil), "fremder@player.test").Text
	mustContain(t, "groups", text, "Cup groups (groups), Stand: läuft.", "\nGruppe 1\n", "\nGruppe 2\n")
	if n := strings.Count(text, "Cup groups"); n != 1 {
		t.Errorf("the event's name is in the standings in groups %d times, want 1:\n%s", n, text)
	}
	text = to(t, h.deliver("stranger@player.test", "x", "standings nope", nil), "stranger@player.test").Text
	mustContain(t, "unknown", text, referee.Tr(referee.English, "err.tournament.unknown", "nope"))
}
