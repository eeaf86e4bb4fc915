package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

const (
	alice = "alice@player.test"
	bob   = "bob@player.test"
)

// startBrandubh has alice challenge bob to Brandubh (alice attacks) and
// bob accept; it returns the game id.
func startBrandubh(t *testing.T, h *harness) string {
	t.Helper()
	sent := h.deliver(alice, "a game?", "Hi!\nnew brandubh with bob@player.test\nCheers, Alice", nil)
	if len(sent) != 2 {
		t.Fatalf("new game sent %d mails, want 2 (confirmation and invitation)", len(sent))
	}
	inv := to(t, sent, bob)
	mustContain(t, "invitation", inv.Text, "alice@player.test challenges you", "Brandubh", "accept")
	mustContain(t, "invitation subject", inv.Subject, "[taflmail ")
	id := findGame(inv.Subject, "", nil).id
	if id == "" {
		t.Fatalf("invitation subject %q names no game", inv.Subject)
	}
	sent = h.reply(bob, "accept")
	if len(sent) != 2 {
		t.Fatalf("accept sent %d mails, want 2", len(sent))
	}
	mustContain(t, "alice's start mail", to(t, sent, alice).Text, "it is your move", "1. ")
	mustContain(t, "bob's start mail", to(t, sent, bob).Text, "attackers to move")
	return id
}

func TestWholeGameByMail(t *testing.T) {
	h := newHarness(t)
	h.srv.opts.RecordsDir = t.TempDir()
	id := startBrandubh(t, h)
	// A short Brandubh game in which the king escapes to a1 on ply 6.
	plies := []struct{ who, move string }{
		{alice, "d1-e1"}, {bob, "d3-e3"}, {alice, "d2-e2"}, {bob, "d4-d1"}, {alice, "e1-f1"}, {bob, "d1-a1"},
	}
	for i, p := range plies {
		sent := h.reply(p.who, "my move:\n"+p.move+"\n-- \nsent from my phone")
		if len(sent) != 2 {
			t.Fatalf("ply %d %s: %d mails sent, want 2", i+1, p.move, len(sent))
		}
		for _, m := range sent {
			mustContain(t, "reply to ply "+p.move, m.msg.Text, p.move, "[", "Moves so far:")
			if m.msg.InReplyTo == "" {
				t.Errorf("ply %d: reply to %s has no In-Reply-To", i+1, m.to)
			}
			if got := m.msg.Header["Auto-Submitted"]; len(got) == 0 || got[0] != "auto-replied" {
				t.Errorf("reply has Auto-Submitted %v, want auto-replied", got)
			}
		}
	}
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != archive.Finished || g.Result != "defenders" || g.Reason != "escape" || len(g.Plies) != 6 {
		t.Fatalf("game after the escape: status %s result %q reason %q plies %d; want finished defenders escape 6",
			g.Status, g.Result, g.Reason, len(g.Plies))
	}
	final := h.last(alice).msg.Text
	mustContain(t, "final mail", final, "The game is over: the defenders win, the king escaped", `[Result "defenders"]`, `[Termination "king escaped"]`)
	data, err := os.ReadFile(filepath.Join(h.srv.opts.RecordsDir, id+".tafl"))
	if err != nil {
		t.Fatalf("record file: %v", err)
	}
	recs, err := grammar.ParseRecords(id+".tafl", data)
	if err != nil || len(recs) != 1 || len(recs[0].Plies()) != 6 {
		t.Fatalf("record file does not parse back to one game of 6 plies: %v\n%s", err, data)
	}
}

func TestMoveRefusals(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	tests := []struct {
		name, from, body string
		wants            []string
	}{
		{"out of turn", bob, "d3-e3", []string{"It is not your move", "> d3-e3", "Nothing was changed"}},
		{"blocked path", alice, "d1-d4", []string{"d1-d4 is not a legal move: path blocked at d2"}},
		{"illegal square", alice, "d1-d33", []string{"> d1-d33", "^", "Expected rank 1 to 19"}},
		{"two moves", alice, "d1-e1\nd2-c2", []string{"holds 2 moves", "None of them was played"}},
		{"wrong number", alice, "3. d1-e1", []string{"Your move number 3. does not match: the game is at 1. now."}},
		{"wrong capture mark", alice, "d1-e1xe2", []string{"You marked e2 as captured, but d1-e1 captures nothing"}},
		{"no command", alice, "Hello there, how are you?", []string{"I found no command"}},
	}
	for _, tt := range tests {
		sent := h.reply(tt.from, tt.body)
		if len(sent) != 1 || sent[0].to != tt.from {
			t.Fatalf("%s: %d mails sent, want 1 reply to the sender", tt.name, len(sent))
		}
		mustContain(t, tt.name, sent[0].msg.Text, tt.wants...)
		g, err := h.store.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Plies) != 0 {
			t.Fatalf("%s: the game has %d plies, want 0", tt.name, len(g.Plies))
		}
	}
	// the board comes with a refusal about a game
	mustContain(t, "refusal", h.last(alice).msg.Text, "a  b  c  d  e  f  g", "attackers to move")
}

func TestKeysProtectTheGame(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	// bob forges a mail from alice, naming the game in the subject but
	// without alice's key.
	sent := h.deliver(alice, "Re: [taflmail "+id+"] move", "d1-e1", nil)
	mustContain(t, "forged move", to(t, sent, alice).Text, "does not carry your key")
	// bob uses his own key in a mail from alice's address: still refused
	bobKey := findGame(h.last(bob).msg.Subject, "", nil).tokens[0]
	sent = h.deliver(alice, "[taflmail "+id+" "+bobKey+"] move", "d1-e1", nil)
	mustContain(t, "wrong key", to(t, sent, alice).Text, "does not carry your key")
	// a stranger cannot move either
	sent = h.deliver("mallory@evil.test", "[taflmail "+id+" "+bobKey+"]", "d1-e1", nil)
	mustContain(t, "stranger", to(t, sent, "mallory@evil.test").Text, "You are not a player in game "+id)
	g, _ := h.store.Game(context.Background(), id)
	if len(g.Plies) != 0 {
		t.Fatalf("after forged mails the game has %d plies, want 0", len(g.Plies))
	}
	// the subject tag with the right key works without a thread
	aliceKey := findGame(h.last(alice).msg.Subject, "", nil).tokens[0]
	sent = h.deliver(alice, "[taflmail "+id+" "+aliceKey+"]", "1. d1-e1", nil)
	mustContain(t, "keyed move", to(t, sent, bob).Text, "alice@player.test played d1-e1")
}

func TestSameMailTwice(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	last := h.last(alice).msg
	hdr := map[string]string{"Message-ID": "<twice@player.test>", "In-Reply-To": "<" + last.MessageID + ">"}
	first := h.deliver(alice, "Re: "+last.Subject, "d1-e1", hdr)
	second := h.deliver(alice, "Re: "+last.Subject, "d1-e1", hdr)
	if len(first) != 2 || len(second) != 0 {
		t.Fatalf("same mail twice: %d then %d mails sent, want 2 then 0", len(first), len(second))
	}
	g, _ := h.store.Game(context.Background(), id)
	if len(g.Plies) != 1 {
		t.Fatalf("same mail twice: %d plies, want 1", len(g.Plies))
	}
}

func TestNoRepliesToMachines(t *testing.T) {
	h := newHarness(t)
	cases := map[string]map[string]string{
		"auto-reply": {"Auto-Submitted": "auto-replied"},
		"vacation":   {"X-Autoreply": "yes"},
		"list":       {"Precedence": "list", "List-Id": "<l.x>"},
	}
	for name, hdr := range cases {
		if sent := h.deliver(alice, "Out of office", "I am away. board", hdr); len(sent) != 0 {
			t.Errorf("%s: %d replies, want none", name, len(sent))
		}
	}
	if sent := h.deliver("tafl@game.test", "loop", "board", nil); len(sent) != 0 {
		t.Errorf("own mail: %d replies, want none", len(sent))
	}
	if sent := h.deliver("MAILER-DAEMON@mx.test", "Undelivered Mail", "board", nil); len(sent) != 0 {
		t.Errorf("bounce: %d replies, want none", len(sent))
	}
}

func TestRefusalCap(t *testing.T) {
	h := newHarness(t)
	replies := 0
	for i := 0; i < 12; i++ {
		h.now = h.now.Add(-55 * time.Minute) // keep all mails within one hour
		replies += len(h.deliver("spammer@x.test", "hi", "gibberish d9-z", nil))
	}
	if replies != 5 {
		t.Fatalf("12 bad mails in an hour got %d replies, want 5 (the cap)", replies)
	}
}

func TestGermanReplies(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "Partie", "neu brandubh mit bob@player.test als verteidiger", nil)
	mustContain(t, "German confirmation", to(t, sent, alice).Text, "Deine Herausforderung wurde an bob@player.test gesendet. Du spielst die Verteidiger.")
	mustContain(t, "English invitation", to(t, sent, bob).Text, "You would play the attackers")
	sent = h.reply(bob, "accept")
	mustContain(t, "German start mail", to(t, sent, alice).Text, "Angreifer am Zug")
	sent = h.reply(alice, "brett")
	mustContain(t, "German board", to(t, sent, alice).Text, "Zug 1: Angreifer am Zug")
	sent = h.deliver("carol@player.test", "x", "neu brandubh", nil)
	mustContain(t, "German syntax error", to(t, sent, "carol@player.test").Text, "In deiner Zeile 1:", "Erwartet:")
}

func TestHelpAndLists(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "help", "", nil)
	mustContain(t, "subject-only help", to(t, sent, alice).Text, "new <variant> with <address>")
	sent = h.deliver(alice, "x", "variants", nil)
	mustContain(t, "variants", to(t, sent, alice).Text, "copenhagen", "brandubh", "tablut")
	id := startBrandubh(t, h)
	sent = h.deliver(alice, "x", "games", nil)
	mustContain(t, "games", to(t, sent, alice).Text, id, "brandubh", "bob@player.test", "your move (move 1)")
	sent = h.deliver(bob, "x", "games", nil)
	mustContain(t, "games", to(t, sent, bob).Text, "their move (move 1)")
	if s := h.last(bob).msg.Subject; s != "your mail to taflmail" {
		t.Errorf("reply subject %q, want the fixed one (never the player's own, see subject)", s)
	}
}

func TestQuotedServerMailIsNotRead(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	last := h.last(alice).msg
	// Outlook-style top posting: the whole earlier mail below, no ">"
	body := "d1-e1\n\n" + last.Text
	sent := h.deliver(alice, "RE: "+last.Subject, body, map[string]string{"In-Reply-To": "<" + last.MessageID + ">"})
	if len(sent) != 2 {
		t.Fatalf("%d mails sent, want 2 (the move was played, the quoted mail ignored):\n%s", len(sent), h.last(alice).msg.Text)
	}
	mustContain(t, "bob's mail", to(t, sent, bob).Text, "alice@player.test played d1-e1")
	g, _ := h.store.Game(context.Background(), id)
	if len(g.Plies) != 1 {
		t.Fatalf("%d plies, want 1", len(g.Plies))
	}
}

func TestChallengeCap(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < maxChallengesPerHour; i++ {
		sent := h.deliver(alice, "x", fmt.Sprintf("new brandubh with p%d@player.test", i), nil)
		if len(sent) != 2 {
			t.Fatalf("challenge %d: %d mails, want 2", i+1, len(sent))
		}
		h.now = h.now.Add(-50 * time.Minute) // keep them within the hour
	}
	sent := h.deliver(alice, "x", "new brandubh with victim@player.test", nil)
	if len(sent) != 1 || sent[0].to != alice {
		t.Fatalf("challenge over the cap: %d mails, want only a refusal to the sender", len(sent))
	}
	mustContain(t, "refusal", sent[0].msg.Text, "challenges in the last hour")
}

func TestResignationRecord(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	h.reply(bob, "d3-f3")
	h.reply(alice, "d2-f2xf3")
	// the attackers resign while the defenders are to move
	sent := h.reply(alice, "resign")
	final := to(t, sent, bob).Text
	mustContain(t, "final mail", final, "the defenders win, the attackers resigned", `[Termination "resignation"]`)
	if strings.Contains(final, "to move\n") {
		t.Errorf("the board of a resigned game still names a side to move:\n%s", final)
	}
	rec := final[strings.Index(final, "[Event"):]
	rec = rec[:strings.Index(rec, "\n\n     a")+1]
	recs, err := grammar.ParseRecords("resigned.tafl", []byte(rec))
	if err != nil || len(recs) != 1 {
		t.Fatalf("record does not parse: %v\n%s", err, rec)
	}
	if strings.Contains(rec, "---") {
		t.Errorf("record marks a resignation by the side to move:\n%s", rec)
	}
}
