package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
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
// German until "sprache en"; English command words do not switch back,
// nor German ones to German once a language is chosen; an unknown
// language is refused.
func TestLanguageCommand(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "language de", nil)
	mustContain(t, "language de", to(t, sent, alice).Text, referee.Tr(referee.German, "language.set"), referee.Tr(referee.German, "greeting"))
	sent = h.deliver(alice, "x", "games", nil)
	mustContain(t, "games after language de", to(t, sent, alice).Text, referee.Tr(referee.German, "games.none"))
	sent = h.deliver(alice, "x", "sprache en", nil)
	mustContain(t, "sprache en", to(t, sent, alice).Text, referee.Tr(referee.English, "language.set"), referee.Tr(referee.English, "greeting"))
	sent = h.deliver(alice, "x", "language klingon", nil)
	mustContain(t, "unknown language", to(t, sent, alice).Text, referee.Tr(referee.English, "err.badlanguage", "klingon"))
	// alice chose English: her choice wins over the German command word
	sent = h.deliver(alice, "x", "sprache klingonisch", nil)
	mustContain(t, "unknown language, German words, English chosen", to(t, sent, alice).Text, referee.Tr(referee.English, "err.badlanguage", "klingonisch"))
	// carol chose nothing: the German command word is answered in German
	sent = h.deliver("carol@player.test", "x", "sprache klingonisch", nil)
	mustContain(t, "unknown language, German words, no choice", to(t, sent, "carol@player.test").Text, referee.Tr(referee.German, "err.badlanguage", "klingonisch"))
}

// TestStoredLanguageWins: a player who chose "language en" and then
// writes German command words is still answered in English, and the
// subject of the game's thread stays English; a player who chose nothing
// is answered in German for German commands, as before (docs/commands.md,
// Languages).
func TestStoredLanguageWins(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	sent := h.reply(alice, "language en")
	mustContain(t, "language en", to(t, sent, alice).Text, referee.Tr(referee.English, "language.set"))
	before := h.last(alice).msg.Subject
	sent = h.reply(alice, "brett")
	got := to(t, sent, alice)
	mustContain(t, "board for an English chooser", got.Text, referee.Tr(referee.English, "greeting"), "attackers to move")
	mustNotContain(t, "board for an English chooser", got.Text, referee.Tr(referee.German, "greeting"), "Angreifer")
	if got.Subject != before {
		t.Errorf("subject flipped with the German command word:\n got %q\nwant %q", got.Subject, before)
	}
	// the choice is still stored: a later English command stays English
	sent = h.reply(alice, "board")
	mustContain(t, "board after brett", to(t, sent, alice).Text, referee.Tr(referee.English, "greeting"))
	// bob chose nothing: his German command is answered in German
	sent = h.reply(bob, "brett")
	mustContain(t, "board for a player without a choice", to(t, sent, bob).Text, referee.Tr(referee.German, "greeting"), "Angreifer am Zug")
}

// TestSlipKeepsLanguage (outside trial): a German line that is no
// command — a misspelt one ("rücknahme annehmn", answered "Did you
// mean …?") or one that does not parse ("remis anbiten") — is answered
// in German, but stores no language: the player's next replies, and the
// subject of the game's thread, stay in the language they were in. A
// German command that parses still stores German.
func TestSlipKeepsLanguage(t *testing.T) {
	for _, line := range []string{"rücknahme annehmn", "remis anbiten"} {
		h := newHarness(t)
		startBrandubh(t, h)
		before := h.last(alice).msg.Subject
		sent := h.reply(alice, line)
		mustContain(t, line, to(t, sent, alice).Text, "> "+line, referee.Tr(referee.German, "err.nothing"))
		if l := h.player(alice).Language; l != "" {
			t.Errorf("%q stored the language %q, want none", line, l)
		}
		got := to(t, h.reply(alice, "board"), alice)
		mustContain(t, "board after "+line, got.Text, referee.Tr(referee.English, "greeting"), "attackers to move")
		mustNotContain(t, "board after "+line, got.Text, referee.Tr(referee.German, "greeting"))
		if got.Subject != before {
			t.Errorf("after %q the subject is %q, want %q", line, got.Subject, before)
		}
	}
	h := newHarness(t)
	startBrandubh(t, h)
	h.reply(alice, "brett")
	if l := h.player(alice).Language; l != referee.German {
		t.Errorf("brett stored the language %q, want %q", l, referee.German)
	}
}
