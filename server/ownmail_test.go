package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"strings"
	"testing"
)

// TestOwnLine: the lines the referee writes, from its catalogues in both
// languages with their arguments filled in, or cut where a mail wraps
// them, are its own; a player's prose, the greeting, short words the
// catalogues hold too and command lines (which a reply may tell the player
// to send) are not.
func TestOwnLine(t *testing.T) {
	intro := referee.Tr(referee.English, "help.intro")
	for _, line := range []string{
		intro,
		"  " + intro,
		intro[:strings.LastIndex(intro[:40], " ")], // wrapped
		referee.Tr(referee.German, "help.intro"),
		referee.Tr(referee.English, "games.header"),
		referee.Tr(referee.German, "games.header"),
		referee.Tr(referee.English, "err.quote", 3),
		referee.Tr(referee.German, "err.quote", 12),
		referee.Tr(referee.English, "leave.taken.now", "2026-12-24 (1 day)", "29 days left in 2026"),
		referee.Tr(referee.German, "err.nocommand"),
		"Game K7QX2M: Brandubh 7×7 (Federation Brandubh)",
		"> Moves so far:",
		wrapAt(referee.Tr(referee.English, "game.key", "K7QX2M"), 45), // wrapped after its verb's text
		wrapAt(referee.Tr(referee.German, "game.key", "K7QX2M"), 58),
	} {
		if !referee.OwnLine(line) {
			t.Errorf("ownLine(%q) = false, want true", line)
		}
	}
	for _, line := range []string{
		"", "Hello,", "Hallo,", "You played well.", "Nothing was changed", "Stellungswiederholung",
		"Verteidiger gewinnen", "Did you mean that?", "Thanks for the game!",
		"join winter-2027 confirm 0123456789", // a command a reply tells the player to send
		"d1-e1",
		strings.Repeat("Commands ", 20000),
		intro[:12], // too little of a line to tell
		// a player's sentences that begin as a text of the referee's
		// with a verb in it, then go on in their own words
		"I read only the first page of the rules, sorry.",
		"Your message will reach him soon.",
		"The board runs from a1 to g7, right?",
		"Die Spieler der Partie sind beide gut",
		"Du spielst in Gruppe A, oder?",
	} {
		if referee.OwnLine(line) {
			t.Errorf("ownLine(%.60q) = true, want false", line)
		}
	}
}

// TestOwnStart: the pasted mail begins at its greeting when the greeting
// stands just above a line ownLine recognises (blank lines between), at
// that line otherwise; a player's own greeting above their own words is
// theirs.
func TestOwnStart(t *testing.T) {
	header := "Game K7QX2M: Brandubh 7×7 (Federation Brandubh)"
	for _, c := range []struct {
		text string
		want int
	}{
		{"d1-e1\nAlice\n\nHello,\n\n" + header, 3},
		{"d1-e1\n> Hallo,\n>\n> " + header, 1},
		{"Hello,\n\nnice move.\n" + header, 3},
		{"Hello,\n\nnice move.\nd1-e1", -1},
		{"d1-e1\n" + header, 1},
		{"Hello,", -1},
	} {
		if got := referee.OwnStart(strings.Split(c.text, "\n")); got != c.want {
			t.Errorf("ownStart(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestOnlyLinePastedGreeting: a one-word mail above a referee's mail
// pasted without quote marks is still one word, whether the pasted
// mail's greeting is recognised with it (ownStart) or not.
func TestOnlyLinePastedGreeting(t *testing.T) {
	header := "Game K7QX2M: Brandubh 7×7 (Federation Brandubh)"
	for _, c := range []struct {
		text string
		want int
	}{
		{"hlep\n\nHello,\n\n" + header + "\nHello,", 0},
		{"hlep\n" + header, 0},
		{"\nhlep\n\nHallo,\n" + header, 1},
		{"hlep\n\nHello,\n\nnice move.\n" + header, -1},
		{"hlep\nthanks", -1},
		{"Hello,\n" + header, -1},
	} {
		if got := referee.OnlyLine(c.text); got != c.want {
			t.Errorf("onlyLine(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// wrapAt returns s cut at its last space before byte n, as a mail client
// wraps a long line.
func wrapAt(s string, n int) string { return s[:strings.LastIndex(s[:n], " ")] }

// TestOwnLineKeepsTheMove: a keyed mail whose first line begins as a
// text of the referee's does ("I read only the first …") and a move
// below it: the move is played, not cut off as the start of a pasted
// reply.
func TestOwnLineKeepsTheMove(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(alice, "I read only the first page of the rules, sorry.\n1. d1-e1")
	if g, err := h.store.Game(t.Context(), id); err != nil || g.PlyCount != 1 {
		t.Fatalf("after alice's move below her sentence: %+v, %v; want 1 ply", g, err)
	}
}
