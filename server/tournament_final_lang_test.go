package server

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTournamentFinalLanguage: the final mail of a player who writes
// German is German throughout, its crosstable's headers and count of
// finished games too (new-user trial: they were English); an English
// player's is as before, its crosstable tournament.Standings.Text byte
// for byte. Both mails are compared whole with
// testdata/replies/final-{de,en}.golden (-update rewrites them).
func TestTournamentFinalLanguage(t *testing.T) {
	h := newHarness(t)
	const carol = "carol@player.test"
	h.createEvent("cup-29", []string{alice, bob, carol}, nil)
	h.deliver(carol, "x", "sprache de", nil)
	if _, err := StartTournament(h.srv, h.ctx(), "cup-29"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	before := len(h.sender.sent)
	for _, g := range h.eventGames("cup-29") {
		h.inGame(g.ID, g.Attackers, "d1-e1")
		h.inGame(g.ID, g.Defenders, "resign")
	}
	finals := finalMails(h.sender.sent[before:], "Cup cup-29")
	full, err := h.store.TournamentGames(h.ctx(), "cup-29", true)
	if err != nil {
		t.Fatal(err)
	}
	tm, _ := h.store.Tournament(h.ctx(), "cup-29")
	es, _ := h.store.Entries(h.ctx(), "cup-29")
	sts, err := EventStandings(tm, es, full)
	if err != nil || len(sts) != 1 {
		t.Fatalf("EventStandings = %d, %v", len(sts), err)
	}
	for _, tc := range []struct {
		addr, golden string
		wants, not   []string
	}{
		{carol, "final-de", []string{"Platz Spieler", "Pkt", "SB", "6 von 6 Partien beendet.", "Die Abschlusstabelle:"},
			[]string{"Place", "Player", "Pts", "S–B", "games finished", "Ratings in"}},
		{alice, "final-en", []string{untitled(sts[0].Text()), "6 of 6 games finished.", "The final standings:"},
			[]string{"Platz", "Spieler", "Partien beendet"}},
	} {
		if len(finals[tc.addr]) != 1 {
			t.Fatalf("%d final mails to %s, want 1", len(finals[tc.addr]), tc.addr)
		}
		text := finals[tc.addr][0].msg.Text
		mustContain(t, "the final mail to "+tc.addr, text, tc.wants...)
		mustNotContain(t, "the final mail to "+tc.addr, text, tc.not...)
		path := filepath.Join("testdata", "replies", tc.golden+".golden")
		text = unstuffed(finals[tc.addr][0].raw) // the lines as sent, as TestReplyTranscripts writes them
		if *update {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./server -run TestTournamentFinalLanguage -update writes it)", err)
		}
		if text != string(want) {
			t.Errorf("the final mail to %s differs from %s (-update rewrites it; review the diff):\n%s", tc.addr, path, firstDiff(string(want), text))
		}
	}
}
