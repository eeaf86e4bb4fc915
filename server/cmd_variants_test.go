package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func TestVariants(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "variants", nil)
	mustContain(t, "variants", to(t, sent, alice).Text, "copenhagen", "brandubh", "tablut")
	// every variant, with its summary in the reader's language
	for _, lang := range []string{referee.English, referee.German} {
		word := map[string]string{referee.English: "variants", referee.German: "varianten"}[lang]
		text := to(t, h.deliver(alice, "x", word, nil), alice).Text
		mustContain(t, word, text, referee.Tr(lang, "variants.header"))
		for _, v := range engine.Variants() {
			mustContainWrapped(t, word, text, v.Name, catalog.VariantSummary(lang, v))
		}
		// the board sizes as the summaries and the CLI write them (trial
		// report §8)
		mustContain(t, word, text, "11×11", " 7×7 ")
		if strings.Contains(text, "11x11") {
			t.Errorf("%s: the list writes 11x11:\n%s", word, text)
		}
	}
}

// TestVariantTitlesInGerman: a German player's mails name the variant with
// its German title, not the English words of the engine's (trial report
// §8): the invitation, the confirmation, the game header.
func TestVariantTitlesInGerman(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "neu historical mit bob@player.test", nil)
	for _, m := range sent {
		if m.to == alice {
			mustContain(t, "confirmation", m.msg.Subject+"\n"+m.msg.Text, "Historical Hnefatafl 11×11 (Flucht an den Rand)")
			if strings.Contains(m.msg.Text, "edge escape") {
				t.Errorf("a German mail holds the English title:\n%s", m.msg.Text)
			}
		}
	}
	// bob writes English: his invitation keeps the engine's title
	mustContain(t, "invitation", to(t, sent, bob).Subject, "Historical Hnefatafl 11×11 (edge escape)")
}

// mustVariant returns a built-in variant.
func mustVariant(t *testing.T, name string) *engine.Variant {
	t.Helper()
	v, ok := engine.Lookup(name)
	if !ok {
		t.Fatalf("no variant %q", name)
	}
	return v
}
