package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/digest"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The daily digest (issue 12, digest.go) through the referee on a fake
// clock.

// player reads a player row or fails the test.
func (h *harness) player(addr string) *archive.Player {
	h.t.Helper()
	p, err := h.store.Player(context.Background(), addr)
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// mailsTo returns the mails of ms sent to addr.
func mailsTo(ms []sentMail, addr string) []sentMail {
	var out []sentMail
	for _, m := range ms {
		if m.to == addr {
			out = append(out, m)
		}
	}
	return out
}

// TestDigestInsteadOfEachPly: bob chooses "notify digest 07:30"; alice's
// plies no longer reach him, her message waits; at 07:30 UTC one mail
// lists the game with its tag line and key, her last ply, the board and
// her message; a second run and a restarted daemon send nothing more; his
// plain reply to the digest plays; a day without a game on move sends
// nothing; a draw offer and the result come at once; "notify each"
// brings back a mail per ply.
func TestDigestInsteadOfEachPly(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	sent := h.deliver(bob, "settings", "notify digest 07:30", nil)
	mustContain(t, "the answer to notify digest", to(t, sent, bob).Text,
		referee.Tr(referee.English, "notify.digest", "07:30 UTC", "2026-11-30 07:30:00 UTC", referee.Tr(referee.English, "notify.zone.utc")))
	if p := h.player(bob); !p.Digest || p.DigestAt != 450 || !p.DigestDue.Equal(time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)) {
		t.Fatalf("bob's row = %+v", p)
	}
	mustContain(t, "notify alone", to(t, h.deliver(bob, "x", "notify", nil), bob).Text,
		referee.Tr(referee.English, "notify.show.digest", "07:30 UTC", "2026-11-30 07:30:00 UTC"))

	sent = h.reply(alice, "d1-e1\n\nGood luck, Bob!")
	if got := mailsTo(sent, bob); len(got) != 0 {
		t.Fatalf("alice's ply mailed bob, who chose the digest:\n%s", got[0].msg.Text)
	}
	if g := h.state(id); len(g.Plies) != 1 {
		t.Fatalf("alice's ply was not played: %v", g)
	}
	key := h.mailVars(bob, id)["{{KEY}}"]
	if got, _ := h.store.Game(context.Background(), id); got.MessageToDefenders != "Good luck, Bob!" {
		t.Fatalf("alice's message does not wait for the digest: %q", got.MessageToDefenders)
	}

	h.now = time.Date(2026, 11, 30, 7, 29, 0, 0, time.UTC)
	if got := h.runTimers(nil); len(got) != 0 {
		t.Fatalf("before 07:30 the scheduler sent:\n%s", subjects(got))
	}
	h.now = time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)
	got := h.runTimers(nil)
	if len(got) != 1 || got[0].to != bob {
		t.Fatalf("at 07:30 the scheduler sent:\n%s", subjects(got))
	}
	digest := got[0].msg
	if digest.Subject != referee.Tr(referee.English, "digest.subject.one") {
		t.Errorf("digest subject %q", digest.Subject)
	}
	mustContain(t, "digest", digest.Text, referee.Tr(referee.English, "digest.intro", "07:30 UTC"), "Game "+id+": Brandubh",
		"alice@player.test played d1-e1.", "[taflmail "+id+" "+key+"]", "Move 1: it is your move (defenders).",
		"alice@player.test writes:", "Good luck, Bob!")
	if g, _ := h.store.Game(context.Background(), id); g.MessageToDefenders != "" {
		t.Errorf("the digest did not deliver alice's message: %q waits", g.MessageToDefenders)
	}
	if p := h.player(bob); !p.DigestDue.Equal(time.Date(2026, 12, 1, 7, 30, 0, 0, time.UTC)) {
		t.Errorf("after the digest the next is due %v", p.DigestDue)
	}
	if more := h.runTimers(nil); len(more) != 0 {
		t.Errorf("a second run sent:\n%s", subjects(more))
	}
	if more := h.runTimers(h.restart(h.store, nil)); len(more) != 0 {
		t.Errorf("a restarted daemon sent:\n%s", subjects(more))
	}

	// a plain reply to the digest (one game quoted) plays in that game
	sent = h.reply(bob, "d3-f3")
	if g := h.state(id); len(g.Plies) != 2 {
		t.Fatalf("bob's reply to the digest was not played:\n%s", to(t, sent, bob).Text)
	}
	// the next day nothing waits for bob: no mail, the timer moves on
	h.now = time.Date(2026, 12, 1, 7, 30, 0, 0, time.UTC)
	if more := h.runTimers(nil); len(more) != 0 {
		t.Errorf("a digest without a game on move was sent:\n%s", subjects(more))
	}
	if p := h.player(bob); !p.DigestDue.Equal(time.Date(2026, 12, 2, 7, 30, 0, 0, time.UTC)) {
		t.Errorf("after an empty digest the next is due %v", p.DigestDue)
	}

	// urgent news comes at once: a draw offer, a ply that lapses bob's
	// own offer, the result
	mustContain(t, "a draw offer to a digest player", to(t, h.reply(alice, "offer draw"), bob).Text, referee.Tr(referee.English, "draw.offered", alice))
	h.reply(bob, "decline draw")
	h.reply(bob, "offer draw")
	mustContain(t, "a lapsed offer to a digest player", to(t, h.reply(alice, "d2-f2xf3"), bob).Text, referee.Tr(referee.English, "draw.lapsed"))

	// notify each: alice's plies reach bob again
	mustContain(t, "notify each", to(t, h.deliver(bob, "x", "notify each", nil), bob).Text, referee.Tr(referee.English, "notify.each"))
	if p := h.player(bob); p.Digest || !p.DigestDue.IsZero() {
		t.Errorf("after notify each bob's row = %+v", p)
	}
	h.replyTo(bob, h.lastAbout(bob, id), "e4-e3")
	mustContain(t, "a ply after notify each", to(t, h.reply(alice, "e1-e2"), bob).Text, "alice@player.test played e1-e2.")
}

// TestDigestResultAtOnce: a result reaches a digest player at once.
func TestDigestResultAtOnce(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	h.deliver(bob, "x", "notify digest", nil)
	if p := h.player(bob); p.DigestAt != digest.DefaultAt {
		t.Fatalf("notify digest without a time: at minute %d", p.DigestAt)
	}
	mustContain(t, "a resignation to a digest player", to(t, h.reply(alice, "resign"), bob).Text, "The game is over")
}

// TestDigestRestart: the daemon killed at the digest's commit, or just
// after it, and started again sends the digest exactly once; one that was
// down for days sends the missed digest once and keeps the time of day.
func TestDigestRestart(t *testing.T) {
	for _, kill := range []string{"before-commit", "after-commit", "down-for-days"} {
		t.Run(kill, func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			h.deliver(bob, "x", "notify digest 07:30", nil)
			h.play(id, "d1-e1")
			h.now = time.Date(2026, 11, 30, 7, 30, 5, 0, time.UTC)
			before := len(h.sender.sent)
			ctx := context.Background()
			switch kill {
			case "down-for-days":
				h.now = time.Date(2026, 12, 3, 11, 0, 0, 0, time.UTC)
			default:
				fs := h.withFaults()
				fs.inject("Commit", fault{err: errKilled, after: kill == "after-commit"})
				if _, err := h.restart(fs, nil).RunTimers(ctx); err == nil {
					t.Fatal("RunTimers with the commit killed succeeded")
				}
			}
			for range 2 {
				h.now = h.now.Add(time.Minute)
				h.runTimers(h.restart(h.store, nil))
			}
			got := mailsTo(h.sender.sent[before:], bob)
			if len(got) != 1 || !strings.Contains(got[0].msg.Text, "Game "+id) {
				t.Fatalf("%d digests sent, want 1:\n%s", len(got), subjects(got))
			}
			want := time.Date(2026, 12, 1, 7, 30, 0, 0, time.UTC)
			if kill == "down-for-days" {
				want = time.Date(2026, 12, 4, 7, 30, 0, 0, time.UTC)
			}
			if p := h.player(bob); !p.DigestDue.Equal(want) {
				t.Errorf("next digest due %v, want %v", p.DigestDue, want)
			}
		})
	}
}

// TestDigestThirtyGames: a player with 30 games on move gets one mail
// under maxReplyBytes that lists all of them, each with its own tag line;
// a reply keeping two tag lines with two moves, or one move under the
// whole digest quoted, plays in none and names the games; a reply keeping
// one tag line plays there, also top-posted over the digest quoted without
// marks.
func TestDigestThirtyGames(t *testing.T) {
	h := newHarness(t)
	h.step = 10 * time.Minute // at most 5 challenges an hour
	var ids []string
	for i := range 30 {
		sent := h.deliver(alice, "x", "new brandubh with bob@player.test", nil)
		id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
		if id == "" {
			t.Fatalf("game %d: no invitation:\n%s", i+1, texts(sent))
		}
		h.reply(bob, "accept")
		ids = append(ids, id)
	}
	h.deliver(bob, "x", "notify digest 12:00", nil)
	for _, id := range ids {
		sent := h.replyTo(alice, h.lastAbout(alice, id), "d1-e1")
		if len(mailsTo(sent, bob)) != 0 || len(h.state(id).Plies) != 1 {
			t.Fatalf("game %s: alice's ply was not played or mailed bob", id)
		}
	}
	h.now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	got := h.runTimers(nil)
	if len(got) != 1 || got[0].to != bob {
		t.Fatalf("the digest: %d mails:\n%s", len(got), subjects(got))
	}
	digest := got[0]
	if len(digest.raw) > referee.MaxReplyBytes {
		t.Errorf("the digest has %d bytes, more than maxReplyBytes %d", len(digest.raw), referee.MaxReplyBytes)
	}
	if digest.msg.Subject != referee.Tr(referee.English, "digest.subject", 30) {
		t.Errorf("subject %q", digest.msg.Subject)
	}
	for _, id := range ids {
		mustContain(t, "the digest", digest.msg.Text, "[taflmail "+id+" "+h.mailVars(bob, id)["{{KEY}}"]+"]", "Game "+id+": ")
	}
	tag := func(id string) string { return "[taflmail " + id + " " + h.mailVars(bob, id)["{{KEY}}"] + "]" }

	sent := h.replyTo(bob, digest, tag(ids[0])+"\nd3-f3\n"+tag(ids[1])+"\nd3-f3")
	mustContain(t, "two games in one mail", to(t, sent, bob).Text, "Your mail names several games", ids[0], ids[1], referee.Tr(referee.English, "err.nothing"))
	quoted := "> " + strings.ReplaceAll(digest.msg.Text, "\n", "\n> ")
	sent = h.replyTo(bob, digest, "d3-f3\n\n"+quoted)
	mustContain(t, "one move under the quoted digest", to(t, sent, bob).Text, "Your mail names several games", ids[0], ids[29])
	for _, id := range ids[:2] {
		if n := len(h.state(id).Plies); n != 1 {
			t.Fatalf("a refused reply played in %s: %d plies", id, n)
		}
	}
	h.replyTo(bob, digest, tag(ids[2])+"\nd3-f3\n\n"+quoted)
	if n := len(h.state(ids[2]).Plies); n != 2 {
		t.Errorf("a reply keeping one tag line did not play: %d plies", n)
	}
	h.replyTo(bob, digest, tag(ids[3])+"\nd3-f3\n\n"+digest.msg.Text) // top-posted, no quote marks
	if n := len(h.state(ids[3]).Plies); n != 2 {
		t.Errorf("a top-posted reply over the digest did not play: %d plies", n)
	}
}

// lastAbout returns the last mail sent to addr about game id.
func (h *harness) lastAbout(addr, id string) sentMail {
	h.t.Helper()
	for i := len(h.sender.sent) - 1; i >= 0; i-- {
		if m := h.sender.sent[i]; m.to == addr && strings.Contains(m.msg.Subject, id) {
			return m
		}
	}
	h.t.Fatalf("no mail to %s about %s", addr, id)
	return sentMail{}
}

// TestDigestBounded: however many games wait for the player, the digest
// stays under maxReplyBytes: full entries as long as they fit, then one
// tag line per game, then a count.
func TestDigestBounded(t *testing.T) {
	h := newHarness(t)
	ss := h.srv.NewSession(context.Background(), referee.Cause{Kind: referee.CauseDigest, Seed: "bounded", At: h.now})
	ss.Lang = referee.English
	var ts []*referee.Table
	for i := range 1500 {
		g := &archive.Game{ID: fmt.Sprintf("G%05d", i), Variant: "copenhagen", Attackers: alice, Defenders: bob,
			Status: archive.Active, AttackerToken: "aaaaaaaaaa", DefenderToken: "bbbbbbbbbb"}
		tb, err := referee.Load(g)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tb)
	}
	o, err := digest.Mail(ss, &archive.Player{Address: alice, Digest: true, DigestAt: 60}, ts)
	if err != nil || o == nil {
		t.Fatalf("digest.Mail = %v, %v", o, err)
	}
	if len(o.Raw) > referee.MaxReplyBytes {
		t.Errorf("the digest of 1500 games has %d bytes, more than %d", len(o.Raw), referee.MaxReplyBytes)
	}
	m, err := mailer.Parse(strings.NewReader(string(o.Raw)), 0)
	if err != nil {
		t.Fatal(err)
	}
	full := strings.Count(m.Text, "Game G")
	lines := strings.Count(m.Text, "[taflmail G")
	if full == 0 || full >= lines || !strings.Contains(m.Text, "send \"games\" for the list") {
		t.Errorf("%d full entries, %d tag lines, no count at the end:\n%s", full, lines, m.Text[len(m.Text)-500:])
	}
	if !strings.Contains(m.Text, referee.Tr(referee.English, "digest.more", 1500-full)) {
		t.Errorf("the digest does not say that %d more games wait", 1500-full)
	}
}

// TestDigestGerman: in German, "benachrichtigung täglich 7:30" is answered
// in German and the digest is German.
func TestDigestGerman(t *testing.T) {
	h := newHarness(t)
	id := startGame(t, h, "brandubh", referee.German)
	mustContain(t, "benachrichtigung täglich", to(t, h.deliver(bob, "x", "Benachrichtigung täglich um 7:30 Uhr", nil), bob).Text,
		referee.Tr(referee.German, "notify.digest", "07:30 Uhr UTC", "30.11.2026 um 07:30:00 UTC", referee.Tr(referee.German, "notify.zone.utc")))
	h.play(id, "d1-e1")
	h.now = time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)
	got := h.runTimers(nil)
	if len(got) != 1 {
		t.Fatalf("%d mails:\n%s", len(got), subjects(got))
	}
	if got[0].msg.Subject != referee.Tr(referee.German, "digest.subject.one") {
		t.Errorf("subject %q", got[0].msg.Subject)
	}
	mustContain(t, "German digest", got[0].msg.Text, referee.Tr(referee.German, "digest.intro", "07:30 Uhr UTC"), "Partie "+id+": ",
		"alice@player.test hat d1-e1 gezogen.", "Zug 1: du bist am Zug (Verteidiger).")
	mustContain(t, "benachrichtigung einzeln", to(t, h.deliver(bob, "x", "benachrichtigung einzeln", nil), bob).Text, referee.Tr(referee.German, "notify.each"))
	mustContain(t, "a bad time", to(t, h.deliver(bob, "x", "benachrichtigung täglich 25:00", nil), bob).Text, "25:00")
}
