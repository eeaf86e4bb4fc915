package server

import (
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestTournamentsList: "tournaments" lists the events open for entry
// (until their closing day) and those running, in English and German;
// anyone may ask.
func TestTournamentsList(t *testing.T) {
	h := newHarness(t)
	text := to(t, h.deliver("stranger@player.test", "x", "tournaments", nil), "stranger@player.test").Text
	mustContain(t, "no tournaments", text, referee.Tr(referee.English, "tournaments.none"))

	h.createEvent("open", nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	})
	h.createEvent("invited", []string{alice, bob}, func(t *archive.Tournament) { t.StartDate = t.StartDate.AddDate(0, 0, 7) })
	h.createEvent("running", []string{alice, bob, "carol@player.test"}, nil)
	if _, err := StartTournament(h.srv, h.ctx(), "running"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	text = to(t, h.deliver("stranger@player.test", "x", "tournaments", nil), "stranger@player.test").Text
	mustContain(t, "the list", text, referee.Tr(referee.English, "tournaments.open.header"), "open  Cup open", "join open",
		referee.Tr(referee.English, "tournaments.running.header"), "running  Cup running", "standings running")
	if contains(text, "invited") {
		t.Errorf("an event by invitation is listed as open:\n%s", text)
	}
	text = to(t, h.deliver("fremder@player.test", "x", "turniere", nil), "fremder@player.test").Text
	mustContain(t, "German list", text, referee.Tr(referee.German, "tournaments.open.header"), "anmelden open", "tabelle running")

	// after the closing day the event is no longer open
	h.now = h.now.AddDate(0, 0, 6)
	text = to(t, h.deliver("stranger@player.test", "x", "tournaments", nil), "stranger@player.test").Text
	if contains(text, "join open") {
		t.Errorf("an event past its closing day is listed as open:\n%s", text)
	}
}
