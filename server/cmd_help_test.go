package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
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
// Tournaments and the digest are topics (outside trial §13).
func TestHelpTopics(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ line, lang, want string }{
		{"help moves", referee.English, referee.Tr(referee.English, "help.moves")},
		{"help notation", referee.English, referee.Tr(referee.English, "help.moves")},
		{"help keys", referee.English, referee.Tr(referee.English, "help.keys")},
		{"hilfe züge", referee.German, referee.Tr(referee.German, "help.moves")},
		{"hilfe schlüssel", referee.German, referee.Tr(referee.German, "help.keys")},
		{"hilfe turniere", referee.German, referee.Tr(referee.German, "help.topic.tournaments")},
		{"hilfe täglich", referee.German, referee.Tr(referee.German, "help.topic.digest")},
		{"help brandubh", referee.German, "Brandubh 7×7 (Federation Brandubh) (brandubh)\nFlucht in eine Ecke"}, // alice is German now
		{"help tablut", referee.German, "Tablut 9×9 (Linné, wie Aage Nielsen es rekonstruiert hat) (tablut)\n"},
		{"help commands", referee.German, referee.Tr(referee.German, "help.intro")},
		{"help nosuch", referee.German, referee.Tr(referee.German, "hint.topic", "nosuch") + "\n\n" + referee.Tr(referee.German, "help.intro")},
		{"hilfe brandub", referee.German, referee.Tr(referee.German, "hint.topic", "brandub") + " " + referee.Tr(referee.German, "hint.variant", "brandubh")},
		{"sprache en", referee.English, referee.Tr(referee.English, "language.set")},
		{"help copenhagen", referee.English, "Copenhagen Hnefatafl 11×11 (copenhagen)\ntournament standard: corner escape"},
		{"help copenhagn", referee.English, referee.Tr(referee.English, "hint.topic", "copenhagn") + " " + referee.Tr(referee.English, "hint.variant", "copenhagen")},
		{"help keys", referee.English, "do not forward these mails"},
		{"help tournaments", referee.English, referee.Tr(referee.English, "help.topic.tournaments")},
		{"help digest", referee.English, referee.Tr(referee.English, "help.topic.digest")},
		{"help", referee.English, "watch <game|tournament> [results]"}, // outside trial §13: an event can be watched
		{"help", referee.English, mailer.Unmark(referee.HelpOverview(referee.English))},
	} {
		sent := h.deliver(alice, "x", c.line, nil)
		text := to(t, sent, alice).Text
		mustContain(t, c.line, text, c.want)
		if strings.Contains(text, referee.Tr(c.lang, "err.nothing")) {
			t.Errorf("%s: refused:\n%s", c.line, text)
		}
	}
	mustContain(t, "variant help", referee.VariantHelp(referee.English, mustVariant(t, "brandubh")), "First ply: attackers.")
	mustContain(t, "variant help", referee.VariantHelp(referee.German, mustVariant(t, "brandubh")), "Erster Halbzug: Angreifer.")
	for _, lang := range []string{referee.English, referee.German} {
		for _, key := range []string{"help.keys", "help.moves", "help.outro"} {
			if s := referee.Tr(lang, key); strings.Contains(s, "docs/") || strings.Contains(s, ".md") {
				t.Errorf("%s %s points at a repository file: %q", lang, key, s)
			}
		}
		for _, v := range []string{"brandubh", "copenhagen", "ardri"} {
			if s := referee.VariantHelp(lang, mustVariant(t, v)); strings.Contains(s, "RULES.md") || strings.Contains(s, "seed") || strings.Contains(s, "records/") {
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
	if n := strings.Count(text, referee.Tr(referee.English, "help.intro")); n != 1 {
		t.Errorf("the reply holds the overview %d times, want once:\n%s", n, text)
	}
	for i := 1; i <= 5; i++ {
		mustContain(t, "reply", text, referee.Tr(referee.English, "hint.topic", fmt.Sprintf("topic%d", i)))
	}
}
