package server

import (
	"context"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/club"
)

// TestName (issue 20): "name" alone tells the pseudonym; "name Ada
// Lovelace" as a reply to a game's mail chooses the public name, which
// nobody else can take however they write it; without the key nothing
// changes; "name -" goes back to the pseudonym; German works too, and
// every malformed name is refused with its reason.
func TestName(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	startGame(t, h, "brandubh", "")
	// the subjects of the start mails carry each player's key
	keyed := map[string]string{alice: h.last(alice).msg.Subject, bob: h.last(bob).msg.Subject}
	reply := func(addr, body string) []sentMail { return h.deliver(addr, "Re: "+keyed[addr], body, nil) }
	key, err := h.store.PseudonymKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pseudo := club.Pseudonym(key, alice, 0)
	sent := h.deliver(alice, "my name?", "name", nil)
	mustContain(t, "name alone", to(t, sent, alice).Text, `you appear as "`+pseudo+`", a pseudonym`)
	if strings.Contains(to(t, sent, alice).Text, "@") && strings.Contains(strings.Split(to(t, sent, alice).Text, "\n")[0], alice) {
		t.Errorf("the answer names the address")
	}
	// without a key: refused, nothing stored
	sent = h.deliver(alice, "rename", "name Ada Lovelace", nil)
	mustContain(t, "name without a key", to(t, sent, alice).Text, "reply to a mail about one of your games")
	if n, _ := h.store.PublicName(ctx, alice); n != "" {
		t.Fatalf("a mail without the key set the name %q", n)
	}
	sent = reply(alice, "name  Ada   Lovelace")
	mustContain(t, "name set", to(t, sent, alice).Text, `show you as "Ada Lovelace" instead of "`+pseudo+`"`)
	if n, _ := h.store.PublicName(ctx, alice); n != "Ada Lovelace" {
		t.Fatalf("public name %q after name Ada Lovelace", n)
	}
	sent = h.deliver(alice, "my name?", "name", nil)
	mustContain(t, "name alone", to(t, sent, alice).Text, `you appear as "Ada Lovelace".`)
	for line, want := range map[string]string{
		"name A":                          "too short for a public name: at least 2 characters",
		"name " + strings.Repeat("x", 33): "too long for a public name: at most 32 characters",
		"name bob@player.test":            "letters, digits, blanks and ' - . _ only",
		"name Player ABCDEFG":             "form of a pseudonym",
		"name 42":                         "must start with a letter or digit and hold a letter",
	} {
		sent = reply(bob, line)
		mustContain(t, line, to(t, sent, bob).Text, want)
	}
	// bob may not take it, in any case
	sent = reply(bob, "anzeigename ada LOVELACE")
	mustContain(t, "taken", to(t, sent, bob).Text, `"ada LOVELACE" ist schon der öffentliche Name eines anderen Spielers`)
	if n, _ := h.store.PublicName(ctx, bob); n != "" {
		t.Errorf("bob's refused names left %q", n)
	}
	sent = reply(alice, "name -")
	mustContain(t, "cleared", to(t, sent, alice).Text, `under your pseudonym "`+pseudo+`" again`)
	if n, _ := h.store.PublicName(ctx, alice); n != "" {
		t.Errorf("name - left %q", n)
	}
	sent = reply(bob, "anzeigename Ada Lovelace")
	mustContain(t, "bob takes the freed name", to(t, sent, bob).Text, `Ab jetzt zeigen dich die Webseiten des Vereins als "Ada Lovelace"`)
}
