package server

import (
	"context"

	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/grammar"
)

func TestWholeGameByMail(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.RecordsDir = t.TempDir()
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
	data, err := os.ReadFile(filepath.Join(h.srv.Opts.RecordsDir, id+".tafl"))
	if err != nil {
		t.Fatalf("record file: %v", err)
	}
	recs, err := grammar.ParseRecords(id+".tafl", data)
	if err != nil || len(recs) != 1 || len(recs[0].Plies()) != 6 {
		t.Fatalf("record file does not parse back to one game of 6 plies: %v\n%s", err, data)
	}
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
