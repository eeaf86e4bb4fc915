package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// messageBlock returns the relayed message of a mail: the heading and the
// lines after it up to the board, or "".
func messageBlock(text, from string) string {
	for _, lang := range []string{referee.English, referee.German} {
		i := strings.Index(text, referee.Tr(lang, "message.heading", from))
		if i < 0 {
			continue
		}
		rest := text[i:]
		if j := strings.Index(rest, "     a  b"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	return ""
}

// TestMessageRelay: the prose of alice's keyed move mail reaches bob under
// a heading in the mail about her move; her greeting, not the move line,
// the quoted history, her signature, her tag line or her key; spectators
// never see it.
func TestMessageRelay(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	key := h.keysOf(id)[0]
	h.confirmed(watcher, "watch "+id, nil)
	body := "Hi Bob,\n\ngood luck! My key is " + strings.ToUpper(key) + ", by the way.\n[taflmail " + id + " " + key + "]\n1. d1-e1\n\n\n\nCheers, Alice\n-- \nAlice Example\nalice.example.org"
	sent := h.reply(alice, body)
	if len(sent) != 3 {
		t.Fatalf("%d mails, want alice, bob and watcher:\n%s", len(sent), texts(sent))
	}
	block := messageBlock(to(t, sent, bob).Text, alice)
	mustContain(t, "message to bob", block, "alice@player.test writes:", "  Hi Bob,\n\n  good luck! My key is …, by the way.\n\n  Cheers, Alice")
	for _, never := range []string{"d1-e1", "[taflmail", key, "On Sunday", "> ", "Alice Example"} {
		if strings.Contains(block, never) {
			t.Errorf("the relayed message holds %q:\n%s", never, block)
		}
	}
	mustContain(t, "alice told", to(t, sent, alice).Text, referee.Tr(referee.English, "message.sent", bob))
	if strings.Contains(to(t, sent, watcher).Text, "good luck") || strings.Contains(to(t, sent, watcher).Text, "writes:") {
		t.Errorf("the spectator got the message:\n%s", to(t, sent, watcher).Text)
	}
	// the message went with that mail: bob's next mail does not repeat it
	sent = h.reply(bob, "d3-f3")
	if strings.Contains(to(t, sent, bob).Text, "good luck") {
		t.Errorf("the message came twice")
	}
}

// TestMessageWaits: prose without a command is answered "no command" (a
// player must learn that nothing was played) and waits for bob's next
// mail about the game, which here is the answer to his own move; two
// such mails both arrive, the same text sent twice only once, and a text
// that only ends as the last one does arrives too.
func TestMessageWaits(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	sent := h.reply(alice, "Take your time, Bob.")
	if len(sent) != 1 {
		t.Fatalf("a keyed mail of prose caused %d mails, want 1 to alice:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "alice told", sent[0].msg.Text, referee.Tr(referee.English, "err.nocommand"), referee.Tr(referee.English, "message.later", bob))
	h.reply(alice, "I mean it.")
	h.reply(alice, "I mean it.")
	h.reply(alice, "it.") // ends as the last one does, but says something else
	if g, _ := h.store.Game(t.Context(), id); g.MessageToDefenders != "Take your time, Bob.\n\nI mean it.\n\nit." {
		t.Fatalf("waiting for bob: %q", g.MessageToDefenders)
	}
	sent = h.reply(bob, "d3-f3")
	mustContain(t, "bob's answer", messageBlock(to(t, sent, bob).Text, alice), "  Take your time, Bob.\n\n  I mean it.\n\n  it.")
	if g, _ := h.store.Game(t.Context(), id); g.MessageToDefenders != "" {
		t.Errorf("the message still waits after it was delivered: %q", g.MessageToDefenders)
	}
	if block := messageBlock(to(t, sent, alice).Text, bob); block != "" {
		t.Errorf("alice got a message from bob, who wrote none:\n%s", block)
	}
}

// TestChattyPlayer (outside trial): a keyed mail of prose alone that is
// passed on is carried out, not refused: a player who writes 15 messages
// about one game in an hour gets every answer, under the game's usual
// subject, never "not accepted". The same text sent again is not passed
// on and is refused; the tenth such refusal in the hour says once that
// and until when such mails go unanswered, and the eleventh is recorded
// but not answered (the loop breaker, caps.go).
func TestChattyPlayer(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	h.step = time.Minute
	notAccepted := referee.Tr(referee.English, "subject.error", referee.VariantTitle(referee.English, mustVariant(t, "brandubh")))
	for i := range 15 {
		sent := h.reply(alice, fmt.Sprintf("Thought number %d about our game.", i+1))
		if len(sent) != 1 {
			t.Fatalf("message %d caused %d mails, want 1 to alice", i+1, len(sent))
		}
		h.mustRefuse()
		mustContain(t, fmt.Sprintf("answer to message %d", i+1), sent[0].msg.Text, referee.Tr(referee.English, "message.later", bob))
		if strings.Contains(sent[0].msg.Subject, notAccepted) {
			t.Errorf("message %d was passed on under the subject %q", i+1, sent[0].msg.Subject)
		}
	}
	if g := h.gameOf(id); !strings.Contains(g.MessageToDefenders, "Thought number 15 ") {
		t.Fatalf("waiting for bob: %q", g.MessageToDefenders)
	}

	first := h.now.Add(h.step) // the first refused mail's arrival
	until := catalog.Instant(referee.English, first.Add(time.Hour))
	for i := range referee.MaxKeyedRefusals {
		sent := h.reply(alice, "Thought number 15 about our game.")
		if len(sent) != 1 {
			t.Fatalf("repeat %d caused %d mails, want 1 to alice", i+1, len(sent))
		}
		h.mustRefuse("err.nocommand")
		text := sent[0].msg.Text
		mustContain(t, fmt.Sprintf("answer to repeat %d", i+1), text, referee.Tr(referee.English, "message.same", bob))
		notice := strings.Join(strings.Fields(referee.Tr(referee.English, "breaker.refusals", referee.MaxKeyedRefusals, id, until)), " ")
		if last := i == referee.MaxKeyedRefusals-1; last != strings.Contains(strings.Join(strings.Fields(text), " "), notice) {
			t.Errorf("answer to repeat %d holds the notice: %v, want %v:\n%s", i+1, !last, last, text)
		}
	}
	if sent := h.reply(alice, "Thought number 15 about our game."); len(sent) != 0 {
		t.Fatalf("past the loop breaker, %d mails were sent:\n%s", len(sent), texts(sent))
	}
}

// TestForgedMessage: a keyless mail in alice's name with prose puts no
// words in her mouth: it is refused to alice, nothing waits for bob, and
// bob's later mails hold none of it.
func TestForgedMessage(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	before := h.state(id)
	sent := h.deliver(alice, "Re: [taflmail "+id+"] your move", "I resign, you cheat!\nd1-e1", nil)
	refusedWith(t, h, id, before, sent, alice, referee.English, "err.badkey")
	sent = h.deliver(alice, "Re: [taflmail "+id+"] again", "You are a cheat, Bob.", nil)
	refusedOnly(t, h, id, before, sent, alice, referee.Tr(referee.English, "err.nocommand"))
	if g, _ := h.store.Game(t.Context(), id); g.MessageToDefenders != "" {
		t.Fatalf("a forged mail left a message for bob: %q", g.MessageToDefenders)
	}
	sent = h.reply(alice, "d1-e1")
	if strings.Contains(to(t, sent, bob).Text, "cheat") {
		t.Errorf("bob got the forger's words:\n%s", to(t, sent, bob).Text)
	}
}

// TestMessagesOff: bob turns messages off (German "nachrichten aus"):
// alice's words are not passed on and she is told; "messages on" brings
// them back; a message waiting when he turned them off is dropped.
func TestMessagesOff(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	h.reply(alice, "Still there?") // waits for bob
	game := h.last(bob)
	sent := h.deliver(bob, "x", "nachrichten aus", nil)
	mustContain(t, "nachrichten aus", to(t, sent, bob).Text, referee.Tr(referee.German, "messages.off"))
	sent = h.replyTo(bob, game, "d3-f3")
	if strings.Contains(to(t, sent, bob).Text, "Still there") {
		t.Errorf("a message reached bob after messages off:\n%s", to(t, sent, bob).Text)
	}
	sent = h.reply(alice, "Hello?\nd2-f2xf3")
	mustContain(t, "alice told", to(t, sent, alice).Text, referee.Tr(referee.English, "message.refused", bob))
	if strings.Contains(to(t, sent, bob).Text, "Hello?") {
		t.Errorf("bob got a message with messages off")
	}
	game = h.last(bob)
	h.deliver(bob, "x", "messages on", nil)
	sent = h.replyTo(bob, game, "Back again.\nc4-c5")
	mustContain(t, "bob's message", messageBlock(to(t, sent, alice).Text, bob), "Back again.")
	sent = h.reply(alice, "Welcome back.\nb4-b3")
	mustContain(t, "alice's message", messageBlock(to(t, sent, bob).Text, alice), "Welcome back.")
	mustContain(t, "messages off", to(t, h.deliver(alice, "x", "messages off", nil), alice).Text, referee.Tr(referee.English, "messages.off"))
	mustContain(t, "nachrichten an", to(t, h.deliver(alice, "x", "nachrichten an", nil), alice).Text, referee.Tr(referee.German, "messages.on"))
	if p, err := h.store.Player(t.Context(), alice); err != nil || p.MessagesOff {
		t.Errorf("alice after nachrichten an: %+v, %v", p, err)
	}
}

// TestMessageCut: a message longer than maxMessageRunes is cut, says so,
// and the sender is told; the end of the game carries the last word.
func TestMessageCut(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	long := strings.Repeat("Ä long message. ", 200) // 3,200 characters
	sent := h.reply(alice, long+"\nd1-e1")
	block := messageBlock(to(t, sent, bob).Text, alice)
	if n := len([]rune(block)); n > correspondence.MaxMessageRunes+200 || !strings.HasSuffix(strings.TrimSpace(block), "[…]") {
		t.Errorf("a 3,200-character message arrived with %d characters, ending %q", n, block[max(0, len(block)-20):])
	}
	mustContain(t, "alice told", to(t, sent, alice).Text, referee.Tr(referee.English, "message.cut", correspondence.MaxMessageRunes))
	sent = h.reply(bob, "Good game.\nresign")
	mustContain(t, "the last word", messageBlock(to(t, sent, alice).Text, bob), "Good game.")
	mustContain(t, "the last word", to(t, sent, alice).Text, "The game is over")
	// after the end, words are not passed on
	sent = h.reply(bob, "Rematch?")
	mustContain(t, "after the end", to(t, sent, bob).Text, referee.Tr(referee.English, "message.over", referee.FindGame(sent[0].msg.Subject, "", nil).ID))
}

// TestChallengeGreeting: the words of a challenge mail reach an invited
// player who has written to the referee before (bob, who accepted a game
// with his key) in the invitation, quoted under "<challenger> writes:" as
// the relay quotes a message, with the challenger's keys replaced by "…";
// a greeting longer than the relay passes on is cut as the relay cuts it,
// and the challenger is told (issue 22 §11).
func TestChallengeGreeting(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h) // alice attacks, so her key is the attackers'; bob accepted with his key
	key := h.state(id).AttackerToken
	sent := h.deliver(alice, "a game?", "Hi Bob, fancy a game of Tablut?\nnew tablut with bob@player.test\nMy key "+strings.ToUpper(key)+" is no business of yours.\nAlice", nil)
	inv := to(t, sent, bob).Text
	mustContain(t, "invitation", inv, "alice@player.test writes:\n\n  Hi Bob, fancy a game of Tablut?\n  My key … is no business of yours.\n  Alice\n")
	mustNotContain(t, "invitation", inv, key, strings.ToUpper(key), "new tablut")
	mustContain(t, "challenger's confirmation", to(t, sent, alice).Text, referee.Tr(referee.English, "message.sent", bob))

	long := strings.Repeat("All work and no play makes Jack a dull boy.\n", 60) // 2640 characters
	sent = h.deliver(alice, "a game?", "new tablut with bob@player.test\n"+long, nil)
	inv = to(t, sent, bob).Text
	mustContain(t, "invitation with a long greeting", inv, "alice@player.test writes:", "All work and no play", "[…]")
	if n := strings.Count(inv, "All work"); n >= 60 || (n-1)*44 > correspondence.MaxMessageRunes { // 44 characters a line, the last one cut
		t.Errorf("the invitation quotes %d of the greeting's 60 lines, want it cut to %d characters", n, correspondence.MaxMessageRunes)
	}
	mustContain(t, "challenger told of the cut", to(t, sent, alice).Text,
		referee.Tr(referee.English, "message.sent", bob), referee.Tr(referee.English, "message.cut", correspondence.MaxMessageRunes))

	// a challenge without prose has no heading; the engine reads none
	sent = h.deliver(alice, "a game?", "new tablut with bob@player.test", nil)
	mustNotContain(t, "invitation without a greeting", to(t, sent, bob).Text, "writes:")
	mustNotContain(t, "confirmation without a greeting", to(t, sent, alice).Text, referee.Tr(referee.English, "message.sent", bob))
}

// TestChallengeGreetingStranger: an address that never wrote to the
// referee from its own mailbox (never proved it, consent.go) gets the
// invitation without a word of the challenger's, since a challenge's From
// may be forged and the referee would relay free text to an address that
// never asked for mail; the challenger is told why. A keyless mail from
// that address ("help", whose From may be forged too) does not make it
// known (issue 22 §11, "Mail only those who asked").
func TestChallengeGreetingStranger(t *testing.T) {
	h := newHarness(t)
	sent := h.deliver(alice, "a game?", "Hi Carol, buy cheap watches at www.example.test!\nnew tablut with carol@player.test\nCheers, Alice", nil)
	inv := to(t, sent, carol).Text
	mustContain(t, "invitation", inv, "alice@player.test challenges you")
	mustNotContain(t, "invitation", inv, "writes:", "Hi Carol", "cheap watches", "www.example.test", "Cheers")
	conf := to(t, sent, alice).Text
	mustContain(t, "challenger's confirmation", conf, referee.Tr(referee.English, "message.unproved", carol))
	mustNotContain(t, "challenger's confirmation", conf, referee.Tr(referee.English, "message.sent", carol))

	h.deliver("dave@player.test", "x", "help", nil)
	sent = h.deliver(alice, "a game?", "Hello Dave!\nnew tablut with dave@player.test", nil)
	mustNotContain(t, "invitation to an address that wrote without a key", to(t, sent, "dave@player.test").Text, "writes:", "Hello Dave")
	mustContain(t, "challenger's confirmation", to(t, sent, alice).Text, referee.Tr(referee.English, "message.unproved", "dave@player.test"))

	// once carol answers with her key, alice's words reach her
	h.reply(carol, "decline")
	sent = h.deliver(alice, "a game?", "Another try?\nnew tablut with carol@player.test", nil)
	mustContain(t, "invitation after carol wrote", to(t, sent, carol).Text, "alice@player.test writes:\n\n  Another try?\n")
	mustContain(t, "challenger's confirmation", to(t, sent, alice).Text, referee.Tr(referee.English, "message.sent", carol))
}

// TestChallengeGreetingMessagesOff: a player who wrote "messages off"
// gets an invitation without the challenger's words, and the challenger
// learns why (issue 22 §11).
func TestChallengeGreetingMessagesOff(t *testing.T) {
	h := newHarness(t)
	h.deliver(carol, "x", "messages off", nil)
	sent := h.deliver(alice, "a game?", "Hello there!\nnew tablut with carol@player.test", nil)
	mustNotContain(t, "invitation", to(t, sent, carol).Text, "Hello there", "writes:")
	mustContain(t, "challenger's confirmation", to(t, sent, alice).Text, referee.Tr(referee.English, "message.refused", carol))
}

// TestMessageTopPosted: alice writes her move and a few words above the
// referee's last mail to her, pasted without quote marks and without an
// "On … wrote:" line; bob gets her words, not the referee's greeting that
// begins the pasted mail (trial 3 report §3). A greeting of her own,
// followed by her own words, is passed on.
func TestMessageTopPosted(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	old := h.last(alice).msg.Text
	if !strings.HasPrefix(old, referee.Tr(referee.English, "greeting")+"\n\n") {
		t.Fatalf("the referee's mail does not begin with its greeting:\n%s", old)
	}
	sent := h.reply(alice, "d1-e1\nYour turn, Bob!\nAlice\n\n"+old)
	block := messageBlock(to(t, sent, bob).Text, alice)
	mustContain(t, "message to bob", block, "alice@player.test writes:\n\n  Your turn, Bob!\n  Alice\n")
	mustNotContain(t, "message to bob", block, "Hello,")

	sent = h.reply(bob, "Hello,\n\nnice move.\nd3-f3")
	mustContain(t, "message to alice", messageBlock(to(t, sent, alice).Text, bob), "bob@player.test writes:\n\n  Hello,\n\n  nice move.\n")
}
