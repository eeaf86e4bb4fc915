package server

import (
	"testing"
)

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

// TestLanguageCommand: "language de" switches the sender's replies to
// German until "sprache en"; English command words do not switch back; an
// unknown language is refused.
func TestLanguageCommand(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "language de", nil)
	mustContain(t, "language de", to(t, sent, alice).Text, tr(german, "language.set"), tr(german, "greeting"))
	sent = h.deliver(alice, "x", "games", nil)
	mustContain(t, "games after language de", to(t, sent, alice).Text, tr(german, "games.none"))
	sent = h.deliver(alice, "x", "sprache en", nil)
	mustContain(t, "sprache en", to(t, sent, alice).Text, tr(english, "language.set"), tr(english, "greeting"))
	sent = h.deliver(alice, "x", "language klingon", nil)
	mustContain(t, "unknown language", to(t, sent, alice).Text, tr(english, "err.badlanguage", "klingon"))
	sent = h.deliver(alice, "x", "sprache klingonisch", nil)
	mustContain(t, "unknown language, German", to(t, sent, alice).Text, tr(german, "err.badlanguage", "klingonisch"))
}
