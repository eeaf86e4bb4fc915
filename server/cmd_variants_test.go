package server

import (
	"testing"

	"github.com/taflmail/taflmail/engine"
)

func TestVariants(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "variants", nil)
	mustContain(t, "variants", to(t, sent, alice).Text, "copenhagen", "brandubh", "tablut")
	// every variant, with its summary in the reader's language
	for _, lang := range []string{english, german} {
		word := map[string]string{english: "variants", german: "varianten"}[lang]
		text := to(t, h.deliver(alice, "x", word, nil), alice).Text
		mustContain(t, word, text, tr(lang, "variants.header"))
		for _, v := range engine.Variants() {
			mustContain(t, word, text, v.Name, variantSummary(lang, v))
		}
	}
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
