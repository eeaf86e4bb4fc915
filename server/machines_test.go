package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"strings"
	"testing"
	"time"
)

// machineMailCases are mails that programs send: bounces, automatic
// replies, list traffic, our own mail looped back. None is answered or
// acted on, even when it carries a player's key and a legal move; the
// log says why.
var machineMailCases = []struct {
	file string
	from string // the From address, as recorded
	why  string // the reason logged
}{
	{"bounce-dsn.eml", "mailer-daemon@mx.player.test", "why=bounce"},
	{"bounce-null-sender.eml", "microsoftexchange329e71ec88ae4615bbc36ab6ce41109e@player.test", "why=bounce"},
	{"bounce-mailer-daemon.eml", "mailer-daemon@mx.player.test", "why=bounce"},
	{"bounce-report.eml", "postmaster-reports@mx.player.test", "why=bounce"},
	{"auto-replied.eml", alice, "why=auto-reply"},
	{"auto-generated.eml", alice, "why=auto-reply"},
	{"x-autoreply.eml", alice, "why=auto-reply"},
	{"precedence-bulk.eml", alice, "why=auto-reply"},
	{"precedence-junk.eml", alice, "why=auto-reply"},
	{"precedence-list.eml", alice, "why=auto-reply"},
	{"list-id.eml", alice, "why=auto-reply"},
	{"read-receipt.eml", alice, "why=auto-reply"},
	{"own-address.eml", "tafl@game.test", `why="sent by the server itself or by nobody"`},
}

// TestMachineMail: bounces, auto-replies, list mail and our own mail are
// recorded as ignored and logged; nothing is sent and the game does not
// change, although most of them carry alice's key and a legal move.
func TestMachineMail(t *testing.T) {
	for _, tc := range machineMailCases {
		t.Run(strings.TrimSuffix(tc.file, ".eml"), func(t *testing.T) {
			h := newHarness(t)
			log := h.captureLog()
			id := startBrandubh(t, h)
			before := h.state(id)
			sent := h.deliverFile(tc.file, alice, id)
			if len(sent) != 0 {
				t.Fatalf("%d mails sent, want none:\n%s", len(sent), texts(sent))
			}
			h.unchanged(tc.file, id, before)
			if n := h.count(tc.from, referee.Ignored); n != 1 {
				t.Errorf("%d mails from %s recorded as ignored, want 1", n, tc.from)
			}
			if out := h.outbox(); len(out) != 4 { // the 4 mails of startBrandubh
				t.Errorf("outbox holds %d mails, want the 4 of the game's start", len(out))
			}
			mustContain(t, "log", log.String(), `msg="mail ignored"`, tc.why)
		})
	}
}

// TestMachineMailAutoSubmittedNo: "Auto-Submitted: no" is what a person's
// mail program may write; such a mail is answered and its move played.
func TestMachineMailAutoSubmittedNo(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	sent := h.deliverFile("auto-submitted-no.eml", alice, id)
	if got := h.state(id).Plies; len(got) != 1 || got[0] != "d1-e1" {
		t.Fatalf("plies %v, want [d1-e1]", got)
	}
	if len(sent) != 2 {
		t.Fatalf("%d mails sent, want 2", len(sent))
	}
}

// TestMachineMailReplies: every mail the server sends says it is
// automatic (Auto-Submitted: auto-replied), so well-behaved responders do
// not answer it, and none goes to the server's own address.
func TestMachineMailReplies(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.play(id, "d1-e1", "d3-e3")
	h.deliver(alice, "x", "help", nil)
	h.deliver("mallory@evil.test", "[taflmail "+id+"]", "d2-e2", nil)
	if len(h.sender.sent) < 8 {
		t.Fatalf("only %d mails sent", len(h.sender.sent))
	}
	for _, m := range h.sender.sent {
		if got := m.msg.Header["Auto-Submitted"]; len(got) != 1 || got[0] != "auto-replied" {
			t.Errorf("mail to %s has Auto-Submitted %v", m.to, got)
		}
		if m.to == "tafl@game.test" {
			t.Errorf("a mail went to the server's own address")
		}
		if !m.msg.IsAutoReply {
			t.Errorf("mail to %s is not recognised as an auto-reply by our own parser", m.to)
		}
	}
}

// TestRefusalCapPerSender: refusals to one address are capped per hour;
// the cap neither silences other senders nor blocks a good move, and it
// lifts after the hour.
func TestRefusalCapPerSender(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	id := startBrandubh(t, h)
	before := h.state(id)
	start := h.now
	// 8 forged mails in alice's name, without her key, within 40 minutes.
	refusals := 0
	for i := 0; i < 8; i++ {
		h.now = start.Add(time.Duration(i) * 5 * time.Minute)
		raw := "From: alice@player.test\r\nTo: tafl@game.test\r\nSubject: [taflmail " + id + "] move\r\n" +
			"Message-ID: <forged-" + string(rune('a'+i)) + "@evil.test>\r\n\r\nd1-e1\r\n"
		for _, m := range h.deliverRaw([]byte(raw)) {
			if m.to != alice {
				t.Fatalf("a refusal went to %s", m.to)
			}
			mustContain(t, "refusal", m.msg.Text, referee.Tr(referee.English, "err.badkey", id, id))
			refusals++
		}
	}
	if refusals != 5 {
		t.Errorf("8 refused mails in 40 minutes got %d replies, want 5 (the cap)", refusals)
	}
	if n := strings.Count(log.String(), "refusal not sent:"); n != 3 {
		t.Errorf("the log notes the cap %d times, want 3", n)
	}
	h.unchanged("forged mails", id, before)
	// Another sender is not affected.
	h.now = start.Add(41 * time.Minute)
	if sent := h.deliverRaw([]byte("From: mallory@evil.test\r\nSubject: [taflmail " + id + "]\r\nMessage-ID: <m1@evil.test>\r\n\r\nd1-e1\r\n")); len(sent) != 1 || sent[0].to != "mallory@evil.test" {
		t.Errorf("mallory's first refusal: %d mails sent, want 1 to mallory", len(sent))
	}
	// alice's real move, with her key, is applied and answered.
	h.now = start.Add(42 * time.Minute)
	sent := h.reply(alice, "d1-e1")
	if len(sent) != 2 || len(h.state(id).Plies) != 1 {
		t.Fatalf("alice's good move under the cap: %d mails, plies %v", len(sent), h.state(id).Plies)
	}
	// An hour after the last refusal alice is answered again.
	h.now = start.Add(96 * time.Minute)
	raw := "From: alice@player.test\r\nSubject: [taflmail " + id + "] move\r\nMessage-ID: <forged-late@evil.test>\r\n\r\nd2-e2\r\n"
	if sent := h.deliverRaw([]byte(raw)); len(sent) != 1 {
		t.Errorf("after the hour: %d replies, want 1", len(sent))
	}
}
