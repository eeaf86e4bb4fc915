package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func TestChallengeCap(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < referee.MaxChallengesPerHour; i++ {
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

// TestChallengeCapSaysWhen (trial 22): the refusal over the cap says from
// when the next challenge is taken, the moment the oldest counted one
// leaves the hour, in UTC, or in the sender's digest zone once they set
// one; a challenge at that moment is taken.
func TestChallengeCapSaysWhen(t *testing.T) {
	h := newHarness(t)
	h.step = 10 * time.Minute
	var first time.Time
	for i := 0; i < referee.MaxChallengesPerHour; i++ {
		if sent := h.deliver(alice, "x", fmt.Sprintf("new brandubh with p%d@player.test", i), nil); len(sent) != 2 {
			t.Fatalf("challenge %d: %d mails, want 2", i+1, len(sent))
		}
		if i == 0 {
			first = h.now
		}
	}
	next := first.Add(time.Hour)
	sent := h.deliver(alice, "x", "new brandubh with victim@player.test", nil)
	h.mustRefuse("err.challenges")
	mustContain(t, "refusal", to(t, sent, alice).Text, referee.Tr(referee.English, "err.challenges", referee.MaxChallengesPerHour, catalog.Instant(referee.English, next)))
	h.step = time.Second // still within the same hour
	h.deliver(alice, "x", "notify digest 07:30 Europe/Berlin", nil)
	if p := h.player(alice); p.DigestZone != "Europe/Berlin" {
		t.Fatalf("alice's digest zone %q", p.DigestZone)
	}
	sent = h.deliver(alice, "x", "neu brandubh mit opfer@player.test", nil)
	h.mustRefuse("err.challenges")
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	mustContain(t, "German refusal", to(t, sent, alice).Text,
		referee.Tr(referee.German, "err.challenges", referee.MaxChallengesPerHour, next.In(berlin).Format("02.01.2006 um 15:04:05")+" Europe/Berlin"))
	h.now = next.Add(-h.step)
	if sent = h.deliver(alice, "x", "new brandubh with victim@player.test", nil); len(sent) != 2 {
		t.Fatalf("the challenge at %v, when the refusal said, sent %d mails, want 2:\n%s", next, len(sent), texts(sent))
	}
}

// TestNewGame: a challenge in German as the defenders; the invitation
// carries the rules in brief in the opponent's language, each mail its
// recipient's key.
func TestNewGame(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "neu Brandubh mit <bob@player.test> als verteidiger", nil)
	if len(sent) != 2 {
		t.Fatalf("%d mails, want 2", len(sent))
	}
	id := referee.FindGame(to(t, sent, alice).Subject, "", nil).ID
	g := h.state(id)
	if g.Status != "invited" || g.AttackerToken == "" || g.DefenderToken == "" || g.AttackerToken == g.DefenderToken {
		t.Fatalf("new game %v", g)
	}
	mustContain(t, "confirmation", to(t, sent, alice).Text, referee.Tr(referee.German, "challenge.sent", bob, "Verteidiger"), g.DefenderToken)
	mustContain(t, "invitation", to(t, sent, bob).Text, referee.Tr(referee.English, "invite.body", alice, "Brandubh 7×7 (Federation Brandubh)", "attackers"),
		referee.Tr(referee.English, "invite.rules", "corner escape, armed king strong only on and beside the throne, weak elsewhere"), g.AttackerToken)
}

// TestNewGameRefusals: what "new" refuses, in both languages, with the
// hint for a variant name with a typo.
func TestNewGameRefusals(t *testing.T) {
	cases := []struct {
		en, de, key string
		// hint is the hint the refusal must end with, "" for none
		hint  func(lang string) string
		never string
	}{
		{"new copenhagn with bob@player.test", "neu copenhagn mit bob@player.test", "err.unknownvariant", func(l string) string {
			return referee.Tr(l, "hint.variant", "copenhagen")
		}, ""},
		{"new tabult with bob@player.test", "neu tabult mit bob@player.test", "err.unknownvariant", func(l string) string {
			return referee.Tr(l, "hint.variant", "tablut")
		}, ""},
		{"new chess with bob@player.test", "neu schach mit bob@player.test", "err.unknownvariant", nil, "?"},
		{"new brandubh with alice@player.test", "neu brandubh mit alice@player.test", "err.self", nil, ""},
		{"new brandubh with tafl@game.test", "neu brandubh mit tafl@game.test", "err.inviteme", nil, ""},
		{"new brandubh with bob@player.test as kings", "neu brandubh mit bob@player.test als könige", "err.badside", nil, ""},
	}
	for _, lang := range []string{referee.English, referee.German} {
		h := newHarness(t)
		for _, c := range cases {
			line := c.en
			if lang == referee.German {
				line = c.de
			}
			sent := h.deliver(alice, "x", line, nil)
			if len(sent) != 1 || sent[0].to != alice {
				t.Fatalf("%s: %d mails, want one refusal to alice:\n%s", line, len(sent), texts(sent))
			}
			h.mustRefuse(c.key)
			mustContain(t, line, sent[0].msg.Text, referee.Tr(lang, "err.nothing"))
			if c.hint != nil {
				mustContain(t, line, sent[0].msg.Text, c.hint(lang)+"\n")
			}
			if c.never != "" && strings.Contains(sent[0].msg.Text, c.never) {
				t.Errorf("%s: the refusal offers a variant:\n%s", line, sent[0].msg.Text)
			}
		}
	}
}

// TestVariantHint: the nearest variant name within two edits, none beyond.
func TestVariantHint(t *testing.T) {
	for name, want := range map[string]string{
		"copenhagn": "copenhagen", "kopenhagen": "copenhagen", "tabult": "tablut", "brandub": "brandubh",
		"fetlarr": "fetlar", "seabatle": "seabattle", "chess": "", "x": "", "": "",
	} {
		got := referee.VariantHint(referee.English, name)
		if want == "" && got != "" || want != "" && got != referee.Tr(referee.English, "hint.variant", want) {
			t.Errorf("variantHint(%q) = %q, want the hint for %q", name, got, want)
		}
	}
}
