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

// TestEventTrialNotifyEachBringsHeld (§4): a player who ends the digest
// with "notify each" while an opponent's ply waits for it finds that
// game in the reply, with its tag line and key, the ply, the board and
// the message the opponent left (which is then delivered), in English and
// in German; before, the reply only said a mail per move comes from now
// on, and the ply was never told. Without the digest on, "notify each"
// lists nothing.
func TestEventTrialNotifyEachBringsHeld(t *testing.T) {
	for _, c := range []struct{ lang, digest, each string }{
		{referee.English, "notify digest 23:00", "notify each"},
		{referee.German, "benachrichtigung täglich 23:00", "benachrichtigung einzeln"},
	} {
		h := newHarness(t)
		id := startBrandubh(t, h)
		h.deliver(bob, "settings", c.digest, nil)
		if sent := h.reply(alice, "d1-e1\n\nYour move, Bob!"); len(mailsTo(sent, bob)) != 0 {
			t.Fatalf("%s: alice's ply was not held for bob's digest", c.lang)
		}
		text := to(t, h.deliver(bob, "settings", c.each, nil), bob).Text
		g := h.gameOf(id)
		mustContain(t, c.lang+" reply to "+c.each, text, referee.Tr(c.lang, "notify.each"),
			referee.Trn(c.lang, "notify.each.waiting", 1, 1),
			referee.Tr(c.lang, "move.played", alice, "d1-e1"),
			"[taflmail "+id+" "+referee.TokenOf(g, bob)+"]",
			"Your move, Bob!")
		if g.MessageToDefenders != "" {
			t.Errorf("%s: alice's message still waits after it was told: %q", c.lang, g.MessageToDefenders)
		}
		if h.player(bob).Digest {
			t.Errorf("%s: bob still has the digest", c.lang)
		}
		// the digest is off now: "notify each" again lists nothing
		text = to(t, h.deliver(bob, "settings", c.each, nil), bob).Text
		mustNotContain(t, c.lang+" second "+c.each, text, referee.Trn(c.lang, "notify.each.waiting", 1, 1), "[taflmail "+id)
	}
}

// TestEventTrialUnwatchEventNotFollowed (§6): "unwatch blitz-1" from
// someone who does not follow the tournament is refused as a tournament
// not followed, its id as written, in English and in German — not as a
// game "BLITZ-1" not watched. A game's id is still read as a game's.
func TestEventTrialUnwatchEventNotFollowed(t *testing.T) {
	h := newHarness(t)
	h.createEvent("blitz-1", []string{alice, bob, "dave@player.test"}, nil)
	for _, c := range []struct{ lang, line string }{
		{referee.English, "unwatch blitz-1"},
		{referee.German, "sprache de\nzuschauen beenden Blitz-1"},
	} {
		m := h.refusal(h.deliver(watcher, "x", c.line, nil), watcher, c.lang, "err.unwatch.event.not")
		mustContain(t, c.lang+" refusal", m.Text, referee.Tr(c.lang, "err.unwatch.event.not", "blitz-1"))
		mustNotContain(t, c.lang+" refusal", m.Text, "BLITZ-1")
	}
	h.refusal(h.deliver(watcher, "x", "unwatch K7QX2M", nil), watcher, referee.German, "err.unwatch.not")
}

// TestEventTrialFinalAfterLastResult (§7): the mail that ends an event
// (its final standings) reaches each player, and the spectator following
// its results, after the result of the game whose end finished it — the
// loser's answer to his own "resign" included — not before.
func TestEventTrialFinalAfterLastResult(t *testing.T) {
	h := newHarness(t)
	games := 0
	for _, m := range finishCup(h) {
		if strings.Contains(m.msg.Subject, "[taflmail ") {
			games++
		}
	}
	if games == 0 {
		t.Fatal("no game mails")
	}
	last := h.eventGames("cup-28")
	g := last[len(last)-1]
	var order []string
	for _, m := range h.sender.sent {
		if strings.Contains(m.msg.Subject, "[taflmail "+g.ID) || finalMails([]sentMail{m}, "Cup cup-28")[m.to] != nil {
			order = append(order, m.to+" "+m.msg.Subject)
		}
	}
	for _, addr := range []string{g.Attackers, g.Defenders, viewer} {
		result, final := -1, -1
		for i, line := range order {
			if !strings.HasPrefix(line, addr+" ") {
				continue
			}
			if strings.Contains(line, "[taflmail "+g.ID) {
				result = i
			} else if final < 0 {
				final = i
			}
		}
		if result < 0 || final < 0 || final < result {
			t.Errorf("%s: the last game's result is mail %d, the final standings mail %d; want the result first:\n%s", addr, result, final, strings.Join(order, "\n"))
		}
	}
}
