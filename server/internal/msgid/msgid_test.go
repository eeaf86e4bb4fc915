package msgid

import (
	"strings"
	"testing"
)

// TestReplyThread: a reply about a game carries the player's key, and
// Thread reads the game and the key back; the same inputs give the same
// id (a cause decided again writes the same mails), another mail number
// or recipient another; a mail about no game, or without a key, has no
// thread to read.
func TestReplyThread(t *testing.T) {
	id := Reply("<in@example.org>", 0, "bob@player.test", "K7QX2M", "3f9k2m7q4d", "tafl.test")
	if !strings.HasPrefix(id, "tm.K7QX2M.3f9k2m7q4d.") || !strings.HasSuffix(id, "@tafl.test") {
		t.Fatalf("Reply = %s, want tm.K7QX2M.3f9k2m7q4d.<nonce>@tafl.test", id)
	}
	if game, token, ok := Thread(id); !ok || game != "K7QX2M" || token != "3f9k2m7q4d" {
		t.Errorf("Thread(%s) = %q, %q, %v; want K7QX2M, 3f9k2m7q4d, true", id, game, token, ok)
	}
	if again := Reply("<in@example.org>", 0, "bob@player.test", "K7QX2M", "3f9k2m7q4d", "tafl.test"); again != id {
		t.Errorf("the same reply twice: %s, then %s", id, again)
	}
	for _, other := range []string{
		Reply("<in@example.org>", 1, "bob@player.test", "K7QX2M", "3f9k2m7q4d", "tafl.test"),
		Reply("<in@example.org>", 0, "alice@player.test", "K7QX2M", "3f9k2m7q4d", "tafl.test"),
		Reply("<in2@example.org>", 0, "bob@player.test", "K7QX2M", "3f9k2m7q4d", "tafl.test"),
	} {
		if other == id {
			t.Errorf("another mail, recipient or cause gives the same id %s", id)
		}
	}
	for _, plain := range []string{
		Reply("<in@example.org>", 0, "bob@player.test", "", "", "tafl.test"),
		Reply("<in@example.org>", 0, "bob@player.test", "K7QX2M", "", "tafl.test"),
	} {
		if strings.Count(plain, ".") != 2 || !strings.HasPrefix(plain, "tm.") {
			t.Errorf("a mail about no game with a key: %s, want tm.<nonce>@tafl.test", plain)
		}
		if _, _, ok := Thread(plain); ok {
			t.Errorf("Thread(%s) found a game and a key", plain)
		}
	}
}

// TestSpectatorIDsHoldNoKey: spectators can never move (docs/security.md,
// "Spectators"): Thread finds no key in the ids of their mails, a game's
// or an event's, nor in forged shapes near a reply's.
func TestSpectatorIDsHoldNoKey(t *testing.T) {
	for _, id := range []string{
		Spectator("<in@example.org>", "carol@watcher.test", "K7QX2M", "tafl.test"),
		Event("seed", "carol@watcher.test", "winter-2027", "tafl.test"),
		"tm.K7QX2M.3F9K2M7Q4D.5e0c9a81@tafl.test", // a key in capitals
		"tm.K7QX2M.3f9k2m7q4.5e0c9a81@tafl.test",  // nine characters
		"tm.k7qx2m.3f9k2m7q4d.5e0c9a81@tafl.test", // a game id in small letters
		"x.tm.K7QX2M.3f9k2m7q4d.5e0c9a81@tafl.test",
	} {
		if game, token, ok := Thread(id); ok {
			t.Errorf("Thread(%s) = %q, %q: a key where there is none", id, game, token)
		}
	}
	if id := Spectator("<in@example.org>", "carol@watcher.test", "K7QX2M", "tafl.test"); !strings.HasPrefix(id, "tm.K7QX2M.watch.") {
		t.Errorf("Spectator = %s, want tm.K7QX2M.watch.<nonce>@tafl.test", id)
	}
	if id := Event("seed", "carol@watcher.test", "winter-2027", "tafl.test"); !strings.HasPrefix(id, "tm.event.winter-2027.") {
		t.Errorf("Event = %s, want tm.event.winter-2027.<nonce>@tafl.test", id)
	}
}

// TestValid: what a hostile mail's ids may not smuggle into a reply's
// headers.
func TestValid(t *testing.T) {
	for id, want := range map[string]bool{
		"abc@example.org": true, "tm.K7QX2M.3f9k2m7q4d.5e0c@tafl.test": true,
		"": false, "no-at-sign": false, "a b@example.org": false, "a@b\r\nBcc: x@y": false,
		"<a@b>": false, `a"@b`: false, "a\t@b": false,
	} {
		if got := Valid(id); got != want {
			t.Errorf("Valid(%q) = %v, want %v", id, got, want)
		}
	}
}
