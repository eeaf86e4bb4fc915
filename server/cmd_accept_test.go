package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestAcceptDecline: only the invited player answers a challenge; accept
// starts the game for both, decline ends it and tells the challenger.
func TestAcceptDecline(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "new brandubh with bob@player.test", nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	before := h.state(id)
	refusedWith(t, h, id, before, h.reply(alice, "accept"), alice, referee.English, "err.ownchallenge")
	sent = h.reply(bob, "accept")
	if g := h.state(id); g.Status != "active" || len(sent) != 2 {
		t.Fatalf("after accept: %v, %d mails", g, len(sent))
	}
	mustContain(t, "start", to(t, sent, alice).Text, referee.Tr(referee.English, "challenge.accepted", bob), referee.Tr(referee.English, "move.yours", 1, "attackers"))
	// bob reads of his own accept as "You …" (trial 3 report §2)
	mustContain(t, "start", to(t, sent, bob).Text, referee.Tr(referee.English, "challenge.accepted.you"), referee.Tr(referee.English, "move.theirs", 1, "attackers"))
	mustNotContain(t, "start", to(t, sent, bob).Text, bob+" accepted")
	active := h.state(id)
	// a second accept (trial 22): the game is running, since its start
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	m := refusedWith(t, h, id, active, h.reply(bob, "accept"), bob, referee.English, "err.running")
	mustContain(t, "second accept", m.msg.Text, referee.Tr(referee.English, "err.running", id, catalog.Instant(referee.English, g.StartedAt)))
	m = refusedWith(t, h, id, active, h.reply(alice, "annehmen"), alice, referee.German, "err.running.own")
	mustContain(t, "challenger's accept", m.msg.Text, referee.Tr(referee.German, "err.running.own", id, bob, catalog.Instant(referee.German, g.StartedAt)))

	// declined, in German
	sent = h.deliver(alice, "x", "neu tablut mit carol@player.test", nil)
	id = referee.FindGame(to(t, sent, "carol@player.test").Subject, "", nil).ID
	sent = h.reply("carol@player.test", "ablehnen")
	if g := h.state(id); g.Status != "declined" || len(sent) != 2 {
		t.Fatalf("after decline: %v, %d mails", g, len(sent))
	}
	mustContain(t, "carol", to(t, sent, "carol@player.test").Text, referee.Tr(referee.German, "challenge.you.declined"))
	mustContain(t, "alice", to(t, sent, alice).Text, referee.Tr(referee.German, "challenge.declined", "carol@player.test"))
	mustContain(t, "subject", to(t, sent, alice).Subject, referee.Tr(referee.German, "subject.declined", "Tablut 9×9 (Linné, wie Aage Nielsen es rekonstruiert hat)"))
	// a game that never starts shows no side to move, no move list and no
	// key (trial 22), in either mail
	for _, who := range []string{"carol@player.test", alice} {
		mustNotContain(t, "declined mail to "+who, to(t, sent, who).Text, "am Zug", referee.Tr(referee.German, "move.list"), "Dein Schlüssel")
	}
	declined := h.state(id)
	sent = h.reply("carol@player.test", "brett")
	text := to(t, sent, "carol@player.test").Text
	mustContain(t, "board of a declined game", text, "Angreifer: alice@player.test", referee.Tr(referee.German, "status.notplayed", id, referee.Tr(referee.German, "games.declined")))
	mustNotContain(t, "board of a declined game", text, "am Zug", referee.Tr(referee.German, "move.list"), "Dein Schlüssel")
	refusedWith(t, h, id, declined, h.reply(alice, "d1-d2"), alice, referee.German, "err.notactive")
}

// gameRow returns game id as stored.
func (h *harness) gameRow(id string) *archive.Game {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// TestCancelChallenge: the challenger withdraws an open challenge with
// "cancel challenge" ("herausforderung zurückziehen"), and both players
// are told (trial report §6); nobody else can, and not twice; the
// challenger's own "decline" is told how to withdraw, not that there is
// no challenge; games lists it as withdrawn.
func TestCancelChallenge(t *testing.T) {
	for _, lang := range []string{referee.English, referee.German} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			word, decline, games := "cancel challenge", "decline", "games"
			if lang == referee.German {
				word, decline, games = "herausforderung zurückziehen", "ablehnen", "partien"
			}
			sent := h.deliver(alice, "x", map[string]string{referee.English: "new brandubh with bob@player.test", referee.German: "neu brandubh mit bob@player.test"}[lang], nil)
			id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
			before := h.state(id)
			refusedWith(t, h, id, before, h.reply(alice, decline), alice, lang, "err.ownchallenge")
			refusedWith(t, h, id, before, h.reply(bob, "cancel challenge"), bob, referee.English, "err.nochallenge")
			sent = h.reply(alice, word)
			if g := h.gameRow(id); g.Status != archive.Declined || g.Reason != referee.ReasonWithdrawn {
				t.Fatalf("after %q: status %s, reason %q", word, g.Status, g.Reason)
			}
			mustContain(t, "challenger", to(t, sent, alice).Text, referee.Tr(lang, "challenge.withdrawn.you", bob))
			mustContain(t, "challenger's subject", to(t, sent, alice).Subject, referee.Tr(lang, "subject.withdrawn", referee.VariantTitle(lang, mustVariant(t, "brandubh"))))
			mustContain(t, "invited player", to(t, sent, bob).Text, referee.Tr(referee.English, "challenge.withdrawn", alice))
			withdrawn := h.state(id)
			refusedWith(t, h, id, withdrawn, h.reply(bob, "accept"), bob, referee.English, "err.notinvited")
			refusedWith(t, h, id, withdrawn, h.reply(alice, word), alice, lang, "err.nochallenge")
			mustContain(t, "games", to(t, h.deliver(alice, "x", games, nil), alice).Text, referee.Tr(lang, "games.withdrawn"))
		})
	}
}

// TestInvitationUndeliverable: when the SMTP server refuses the invitation
// for good, the challenge ends and the challenger is told (trial report
// §6: the game stayed invited for ever, and alice heard nothing); a mail
// to a player of a running game that fails changes nothing.
func TestInvitationUndeliverable(t *testing.T) {
	h := newHarness(t)
	h.sender.fail = func(to string) error {
		if to == "frank@nowhere.test" {
			return &mailer.SendError{Code: 550, EnhancedCode: "5.7.1", Err: errors.New("relaying denied")}
		}
		return nil
	}
	sent := h.deliver(alice, "x", "new brandubh with frank@nowhere.test", nil)
	h.srv.FlushOutbox(context.Background())
	id := referee.FindGame(to(t, sent, alice).Subject, "", nil).ID
	if g := h.gameRow(id); g.Status != archive.Declined || g.Reason != referee.ReasonUndeliverable {
		t.Fatalf("after the refused invitation: status %s, reason %q", g.Status, g.Reason)
	}
	m := h.last(alice).msg
	mustContain(t, "notice", m.Text, referee.Tr(referee.English, "challenge.undeliverable", "frank@nowhere.test"))
	mustContain(t, "notice subject", m.Subject, "[taflmail "+id+" ", referee.Tr(referee.English, "subject.undeliverable", referee.VariantTitle(referee.English, mustVariant(t, "brandubh"))))
	mustContain(t, "games", to(t, h.deliver(alice, "x", "games", nil), alice).Text, referee.Tr(referee.English, "games.undeliverable"))

	// a running game: bob's mail fails, the game goes on
	h2 := newHarness(t)
	id2 := startBrandubh(t, h2)
	h2.sender.fail = func(to string) error {
		if to == bob {
			return &mailer.SendError{Code: 550, Err: errors.New("mailbox full")}
		}
		return nil
	}
	h2.reply(alice, "d1-e1")
	h2.srv.FlushOutbox(context.Background())
	if g := h2.gameRow(id2); g.Status != archive.Active || len(g.Plies) != 1 {
		t.Errorf("after a failed move notice: status %s, %d plies", g.Status, len(g.Plies))
	}
}

// TestInvitationExpires: a challenge nobody answers ends after
// Options.InvitationExpiry (14 days by default) through the scheduler,
// and the challenger is told (trial report §6); a late accept is refused.
// An accepted challenge keeps no expiry timer.
func TestInvitationExpires(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "sprache de\nnew brandubh with bob@player.test", nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	ts := h.timersOf(id)
	if len(ts) != 1 || ts[0].Key != referee.InvitationKey || !ts[0].Due.Equal(h.gameRow(id).CreatedAt.Add(referee.DefaultInvitationExpiry)) {
		t.Fatalf("the invited game's timers = %+v, want its expiry 14 days on", ts)
	}
	h.now = h.now.Add(13 * 24 * time.Hour)
	if sent := h.runTimers(nil); len(sent) != 0 {
		t.Fatalf("after 13 days %d mails were sent", len(sent))
	}
	h.now = h.now.Add(24*time.Hour + referee.DefaultArrivalGrace) // the expiry is a deadline: it waits for its grace (scheduler.go)
	sent = h.runTimers(nil)
	if len(sent) != 1 || sent[0].to != alice {
		t.Fatalf("at the expiry %d mails, want one to alice:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "expiry", sent[0].msg.Text, referee.Tr(referee.German, "challenge.expired", bob, 14))
	mustContain(t, "expiry subject", sent[0].msg.Subject, "[taflmail "+id+" ", referee.Tr(referee.German, "subject.expired", referee.VariantTitle(referee.German, mustVariant(t, "brandubh"))))
	if g := h.gameRow(id); g.Status != archive.Declined || g.Reason != referee.ReasonExpired {
		t.Fatalf("after the expiry: status %s, reason %q", g.Status, g.Reason)
	}
	expired := h.state(id)
	refusedWith(t, h, id, expired, h.reply(bob, "accept"), bob, referee.English, "err.notinvited")
	if sent := h.runTimers(nil); len(sent) != 0 {
		t.Errorf("the expiry fired again: %d mails", len(sent))
	}

	h2 := newHarness(t)
	id2 := startBrandubh(t, h2)
	for _, tm := range h2.timersOf(id2) {
		if tm.Key == referee.InvitationKey && tm.Done.IsZero() {
			t.Errorf("the accepted game keeps its expiry timer: %+v", tm)
		}
	}
	h2.now = h2.now.Add(15 * 24 * time.Hour)
	h2.runTimers(nil)
	if g := h2.gameRow(id2); g.Status != archive.Active {
		t.Errorf("the accepted game is %s after 15 days", g.Status)
	}
}
