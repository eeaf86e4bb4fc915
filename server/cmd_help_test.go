package server

import (
	"strings"
	"testing"
)

func TestHelp(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "help", "", nil)
	mustContain(t, "subject-only help", to(t, sent, alice).Text, "new <variant> with <address>")
}

// TestHelpTopics: every topic in both languages, a variant's rules, and
// the overview for anything else.
func TestHelpTopics(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ line, lang, want string }{
		{"help moves", english, tr(english, "help.moves")},
		{"help notation", english, tr(english, "help.moves")},
		{"help keys", english, tr(english, "help.keys")},
		{"hilfe züge", german, tr(german, "help.moves")},
		{"hilfe schlüssel", german, tr(german, "help.keys")},
		{"help brandubh", german, "Brandubh 7×7 (Federation Brandubh) (brandubh), 7×7\nFlucht in eine Ecke"}, // alice is German now
		{"help commands", german, tr(german, "help.intro")},
		{"help nosuch", german, tr(german, "help.outro")},
		{"sprache en", english, tr(english, "language.set")},
		{"help copenhagen", english, "Copenhagen Hnefatafl 11×11 (copenhagen), 11×11\ntournament standard: corner escape"},
		{"help", english, helpOverview(english)},
	} {
		sent := h.deliver(alice, "x", c.line, nil)
		text := to(t, sent, alice).Text
		mustContain(t, c.line, text, c.want)
		if strings.Contains(text, tr(c.lang, "err.nothing")) {
			t.Errorf("%s: refused:\n%s", c.line, text)
		}
	}
	mustContain(t, "variant help", variantHelp(english, mustVariant(t, "brandubh")), "First ply: attackers. Source: ")
	mustContain(t, "variant help", variantHelp(german, mustVariant(t, "brandubh")), "Erster Halbzug: Angreifer. Quelle: ")
}
