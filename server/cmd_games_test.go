package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"strings"
	"testing"
)

func TestGames(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "x", "games", nil)
	mustContain(t, "no games", to(t, sent, alice).Text, referee.Tr(referee.English, "games.none"))
	id := startBrandubh(t, h)
	sent = h.deliver(alice, "x", "games", nil)
	mustContain(t, "games", to(t, sent, alice).Text, id, "brandubh", "bob@player.test", "your move (move 1)")
	sent = h.deliver(bob, "x", "games", nil)
	mustContain(t, "games", to(t, sent, bob).Text, "their move (move 1)")
	if s := h.last(bob).msg.Subject; s != "your mail to taflmail" {
		t.Errorf("reply subject %q, want the fixed one (never the player's own, see subject)", s)
	}
	// an invitation either way, a declined and a finished game, in German
	h.deliver(alice, "x", "new tablut with carol@player.test", nil)
	h.deliver("dave@player.test", "x", "new fetlar with bob@player.test", nil)
	h.deliver(bob, "x", "new brandubh with erin@player.test", nil)
	h.reply("erin@player.test", "decline")
	h.deliver(bob, "x", "new tablut with frank@player.test", nil)
	h.deliver(alice, "[taflmail "+id+" "+h.mailVars(alice, id)["{{KEY}}"]+"]", "resign", nil)
	text := to(t, h.deliver(bob, "x", "partien", nil), bob).Text
	mustContainWrapped(t, "German games", text, referee.Tr(referee.German, "games.header"),
		referee.Tr(referee.German, "games.invited.you"), referee.Tr(referee.German, "games.invited"), referee.Tr(referee.German, "games.declined"),
		referee.Tr(referee.German, "games.finished.won", referee.Tr(referee.German, "board.result.defenders")), "gegen alice@player.test")
	// issue 22 §8: the loser reads that they lost, in the sides' words too.
	text = to(t, h.deliver(alice, "x", "games", nil), alice).Text
	mustContain(t, "loser's games", text, "finished: you lost (defenders win)")
	if strings.Contains(text, "you won") {
		t.Errorf("the loser's list says they won:\n%s", text)
	}
}

// Issue 8 §5: the answer to "games" gives each running game a way back in.
// A reply to it that keeps one game's tag line plays in that game; one
// that quotes the tag lines of two games names none and is told how.
func TestGamesTagLeadsBack(t *testing.T) {
	h := newHarness(t)
	first := startBrandubh(t, h)
	h.deliver(alice, "x", "new tablut with carol@player.test", nil)
	second := referee.FindGame(h.last("carol@player.test").msg.Subject, "", nil).ID
	h.reply("carol@player.test", "accept")

	list := h.deliver(alice, "my games?", "games", nil)
	text := to(t, list, alice).Text
	key := h.mailVars(alice, first)["{{KEY}}"]
	mustContain(t, "games list", text, "[taflmail "+first+" "+key+"]", "[taflmail "+second+" ", referee.Tr(referee.English, "games.how"))

	// alice replies quoting the whole list: two games, so no game, and
	// the answer names both.
	sent := h.replyTo(alice, list[0], "d1-e1\n\n> "+strings.ReplaceAll(text, "\n", "\n> "))
	mustContain(t, "reply quoting two tags", to(t, sent, alice).Text, "Your mail names several games", first, second)
	if n := len(h.state(first).Plies); n != 0 {
		t.Fatalf("a reply naming two games played in one: %d plies", n)
	}
	// She keeps only the first game's tag line.
	sent = h.replyTo(alice, list[0], "d1-e1\n\n> [taflmail "+first+" "+key+"]")
	if len(sent) != 2 || len(h.state(first).Plies) != 1 {
		t.Fatalf("a reply keeping one game's tag line: %d replies, %d plies; want 2 and 1", len(sent), len(h.state(first).Plies))
	}
	if s := to(t, sent, alice).Subject; !strings.Contains(s, "[taflmail "+first+" "+key+"]") {
		t.Errorf("the answer's subject %q does not carry the game's tag", s)
	}
	// The tag without the key names the game but cannot move in it.
	sent = h.deliver(bob, "a move", "d3-e3\n[taflmail "+first+"]", nil)
	mustContain(t, "keyless tag", to(t, sent, bob).Text, referee.Tr(referee.English, "err.badkey", first, first))
}

// Issue 8 §5: "help" sent in a game's thread is answered in that thread,
// with its tag and board, so that replying to it with a move works.
func TestHelpInGameKeepsTag(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	sent := h.reply(alice, "help")
	m := to(t, sent, alice)
	mustContain(t, "help in a game's thread", m.Subject, "[taflmail "+id+" ")
	if sent := h.reply(alice, "d1-e1"); len(sent) != 2 || len(h.state(id).Plies) != 1 {
		t.Fatalf("a move in reply to the help answer: %d replies, %d plies; want 2 and 1", len(sent), len(h.state(id).Plies))
	}
}

// TestGamesLaidOutAlike: when one game's state does not fit at the end of
// its row, every game of the list has its state under its row, so that a
// short "finished: you drew" does not stand alone at a row's end while
// the others wrap; and no line of an entry is longer than the wrap width.
func TestGamesLaidOutAlike(t *testing.T) {
	h := newHarness(t)
	drawn := startBrandubh(t, h)
	h.reply(alice, "offer draw")
	h.reply(bob, "offer draw")
	if g := h.state(drawn); g.Result != "draw" {
		t.Fatalf("the game was not drawn: %v", g)
	}
	lost := startBrandubh(t, h)
	h.deliver(alice, "[taflmail "+lost+" "+h.mailVars(alice, lost)["{{KEY}}"]+"]", "resign", nil)
	running := startBrandubh(t, h)
	text := to(t, h.deliver(alice, "x", "games", nil), alice).Text
	mustContainWrapped(t, "games", text, referee.Tr(referee.English, "games.finished.drew"),
		referee.Tr(referee.English, "games.finished.lost", referee.Tr(referee.English, "board.result.defenders")))
	for _, line := range strings.Split(text, "\n") {
		if n := len([]rune(strings.TrimRight(line, " "))); strings.HasPrefix(line, "  ") && n > 76 { // the entries: prose is wrapped when sent
			t.Errorf("line of %d columns:\n%s", n, line)
		}
		for _, id := range []string{drawn, lost, running} {
			if strings.HasPrefix(line, "  "+id) && (strings.Contains(line, "finished") || strings.Contains(line, "move")) {
				t.Errorf("game %s has its state on its row while another's is under it:\n%s", id, text)
			}
		}
	}
}
