// Package msgid writes the Message-IDs of the referee's mails and reads
// its own back (docs/security.md, "Keys"). Every id is derived from its
// inputs: the seed of the cause the mail answers (the incoming mail's
// Message-ID, or a string the referee makes of a timer, a digest, a
// start), the recipient and what the mail is about. Deciding the same
// cause again after a crash therefore writes the same ids, and the outbox
// recognises the repeat. The ids are never changed once shipped: players'
// mail programs keep them in In-Reply-To and References.
//
// Three shapes, all "tm.…@domain":
//
//   - a reply to a player about a game, "tm.<game>.<key>.<nonce>@domain",
//     carries that player's key, so that a plain reply proves who answers
//     (Reply; Thread reads it back);
//   - a mail to a game's spectator, "tm.<game>.watch.<nonce>@domain", and
//     one about a tournament to its spectator,
//     "tm.event.<tournament>.<nonce>@domain", carry no key: Thread finds
//     none in them (the head of a spectator's thread of an event,
//     EventThread, has the event's shape too);
//   - any other mail, "tm.<nonce>@domain".
//
// The nonce is the first 8 bytes of a SHA-256 of the inputs, in hex.
package msgid

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Reply returns the Message-ID (without brackets) of the i-th mail
// (0 to 9) sent in answer to the cause of seed, to address to, about game
// gameID (may be ""). A mail to a player of the game carries that
// player's key token: "tm.<gameID>.<token>.<nonce>@domain"; without a
// game or a token it is "tm.<nonce>@domain".
func Reply(seed string, i int, to string, gameID, token, domain string) string {
	h := sha256.Sum256([]byte(seed + "\x00" + to + "\x00" + string(rune('0'+i))))
	nonce := hex.EncodeToString(h[:8])
	if gameID != "" && token != "" {
		return "tm." + gameID + "." + token + "." + nonce + "@" + domain
	}
	return "tm." + nonce + "@" + domain
}

// Spectator returns the Message-ID of the mail to spectator addr about
// game, caused by seed: "tm.<game>.watch.<nonce>@domain". It holds no key
// (Thread finds none in it).
func Spectator(seed, addr, game, domain string) string {
	h := sha256.Sum256([]byte(seed + "\x00" + addr + "\x00" + game + "\x00watch"))
	return "tm." + game + ".watch." + hex.EncodeToString(h[:8]) + "@" + domain
}

// Event returns the Message-ID of the mail about tournament event to its
// spectator addr, caused by seed (the change's own seed):
// "tm.event.<event>.<nonce>@domain". It holds no key; the referee reads
// the tournament back with the rule of tournament ids (server's
// eventThreadID).
func Event(seed, addr, event, domain string) string {
	h := sha256.Sum256([]byte(seed + "\x00" + addr + "\x00" + event + "\x00event"))
	return "tm.event." + event + "." + hex.EncodeToString(h[:8]) + "@" + domain
}

// EventThread returns the Message-ID that heads the thread of
// tournament event for its spectator addr: "tm.event.<event>.<nonce>@domain",
// the same for every mail about the event to that address, whatever
// caused it. The event's first mail to the spectator (its start, or its
// cancellation) carries it as its own id, and every later one (a game's
// news, the final standings) answers it, so that the event's mails are
// one thread of their own and not one under the mail that confirmed
// "watch". It holds no key; the event is read back as from Event's ids.
func EventThread(addr, event, domain string) string {
	h := sha256.Sum256([]byte(addr + "\x00" + event + "\x00thread"))
	return "tm.event." + event + "." + hex.EncodeToString(h[:8]) + "@" + domain
}

// threadID matches the ids Reply writes with a game and a key:
// "tm.K7QX2M.3f9k2m7q4d.<nonce>@domain".
var threadID = regexp.MustCompile(`^tm\.([0-9A-Z]{6})\.([0-9a-z]{10})\.[0-9a-f]+@`)

// Thread reads the game id and the key of a reply's Message-ID as Reply
// writes them (without brackets): six characters of upper-case letters
// and digits, then ten of lower-case ones. It reports false for any other
// id, a spectator's or an event's among them.
func Thread(id string) (gameID, token string, ok bool) {
	m := threadID.FindStringSubmatch(id)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// Valid reports whether a message id (without brackets) can be written
// into a reply's In-Reply-To or References: no white space, no brackets,
// no quote, an "@".
func Valid(id string) bool {
	return id != "" && strings.Contains(id, "@") && !strings.ContainsAny(id, " \t\r\n<>\"")
}
