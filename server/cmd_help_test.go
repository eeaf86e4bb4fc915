package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/mailer"
)

func TestHelp(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "help", "", nil)
	mustContain(t, "subject-only help", to(t, sent, alice).Text, "new <variant> with <address>")
}

// TestHelpTopics: every topic in both languages, a variant's rules
// (title, name, rules in brief, first ply; no repository file, trial
// report §8.9), and for anything else a line naming the unknown topic, a
// variant name when the topic is near one, and the overview (§8.2).
func TestHelpTopics(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ line, lang, want string }{
		{"help moves", english, tr(english, "help.moves")},
		{"help notation", english, tr(english, "help.moves")},
		{"help keys", english, tr(english, "help.keys")},
		{"hilfe züge", german, tr(german, "help.moves")},
		{"hilfe schlüssel", german, tr(german, "help.keys")},
		{"help brandubh", german, "Brandubh 7×7 (Federation Brandubh) (brandubh)\nFlucht in eine Ecke"}, // alice is German now
		{"help tablut", german, "Tablut 9×9 (Linné, wie Aage Nielsen es rekonstruiert hat) (tablut)\n"},
		{"help commands", german, tr(german, "help.intro")},
		{"help nosuch", german, tr(german, "hint.topic", "nosuch") + "\n\n" + tr(german, "help.intro")},
		{"hilfe brandub", german, tr(german, "hint.topic", "brandub") + " " + tr(german, "hint.variant", "brandubh")},
		{"sprache en", english, tr(english, "language.set")},
		{"help copenhagen", english, "Copenhagen Hnefatafl 11×11 (copenhagen)\ntournament standard: corner escape"},
		{"help copenhagn", english, tr(english, "hint.topic", "copenhagn") + " " + tr(english, "hint.variant", "copenhagen")},
		{"help keys", english, "do not forward these mails"},
		{"help", english, mailer.Unmark(helpOverview(english))},
	} {
		sent := h.deliver(alice, "x", c.line, nil)
		text := to(t, sent, alice).Text
		mustContain(t, c.line, text, c.want)
		if strings.Contains(text, tr(c.lang, "err.nothing")) {
			t.Errorf("%s: refused:\n%s", c.line, text)
		}
	}
	mustContain(t, "variant help", variantHelp(english, mustVariant(t, "brandubh")), "First ply: attackers.")
	mustContain(t, "variant help", variantHelp(german, mustVariant(t, "brandubh")), "Erster Halbzug: Angreifer.")
	for _, lang := range []string{english, german} {
		for _, key := range []string{"help.keys", "help.moves", "help.outro"} {
			if s := tr(lang, key); strings.Contains(s, "docs/") || strings.Contains(s, ".md") {
				t.Errorf("%s %s points at a repository file: %q", lang, key, s)
			}
		}
		for _, v := range []string{"brandubh", "copenhagen", "ardri"} {
			if s := variantHelp(lang, mustVariant(t, v)); strings.Contains(s, "RULES.md") || strings.Contains(s, "seed") || strings.Contains(s, "records/") {
				t.Errorf("%s help %s points at the project's sources: %q", lang, v, s)
			}
		}
	}
}

// TestHelpOnceAMail: a mail of many distinct unknown help topics gets the
// overview once, each topic named (trial report §8.2: 1,000 such lines
// got the overview 20 times).
func TestHelpOnceAMail(t *testing.T) {
	h := newHarness(t)
	var lines []string
	for i := 1; i <= 5; i++ {
		lines = append(lines, fmt.Sprintf("help topic%d", i))
	}
	sent := h.deliver(alice, "x", strings.Join(lines, "\n"), nil)
	text := to(t, sent, alice).Text
	if n := strings.Count(text, tr(english, "help.intro")); n != 1 {
		t.Errorf("the reply holds the overview %d times, want once:\n%s", n, text)
	}
	for i := 1; i <= 5; i++ {
		mustContain(t, "reply", text, tr(english, "hint.topic", fmt.Sprintf("topic%d", i)))
	}
}
