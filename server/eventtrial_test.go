package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// Tests of the fixes after the outside trial of tournaments, the digest
// and watching (numbered as its report).

// TestEventTrialAnnulledSpectatorSubject (§3): when a player's withdrawal
// annuls his games, a spectator following the event reads in each game's
// subject that it ended without a result ("result.none"), in English and
// in German, never the bare key "result.".
func TestEventTrialAnnulledSpectatorSubject(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		h := newHarness(t)
		const dave = "dave@player.test"
		h.createEvent("cup-30", []string{alice, bob, dave}, nil)
		watch := "watch cup-30"
		if lang == referee.German {
			watch = "sprache de\nzuschauen cup-30"
		}
		h.confirmed(watcher, watch, nil)
		if _, err := StartTournament(h.srv, h.ctx(), "cup-30"); err != nil {
			t.Fatal(err)
		}
		h.srv.FlushOutbox(h.ctx())
		sent := h.withdrawByMail("cup-30", dave)
		n := 0
		for _, g := range h.eventGames("cup-30") {
			if referee.SideOf(g, dave) == "" {
				continue
			}
			if g.Status != archive.Finished || g.Result != "" {
				t.Fatalf("%s: dave's game %s is %s %q, want annulled", lang, g.ID, g.Status, g.Result)
			}
			subject := gameMail(t, sent, watcher, g.ID).Subject
			mustContain(t, lang+" spectator's subject", subject, referee.Tr(lang, "result.none"))
			if strings.Contains(subject, "result.") {
				t.Errorf("%s: the spectator's subject names a missing text: %q", lang, subject)
			}
			n++
		}
		if n != 4 {
			t.Errorf("%s: dave had %d games, want 4", lang, n)
		}
	}
}
