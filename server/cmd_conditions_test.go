package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// checkMoves plays moves from the start of variant through the engine and
// fails unless each is legal and captures nothing, so that a test's moves
// are what the test says they are. It returns the position after them.
func checkMoves(t *testing.T, variant string, moves ...string) *engine.Position {
	t.Helper()
	v, _ := engine.Lookup(variant)
	pos, err := engine.NewPosition(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		m, err := grammar.ParseMove("test", []byte(mv))
		if err != nil {
			t.Fatal(err)
		}
		r, err := pos.Play(referee.EngineMove(m))
		if err != nil || len(r.Captures) > 0 || r.Outcome.Over() {
			t.Fatalf("setting up: %s is not a quiet move there: %v, captures %v, %v", mv, err, r.Captures, r.Outcome)
		}
	}
	return pos
}

// conds returns the stored conditional moves of side in game id.
func (h *harness) conds(id, side string) archive.Conditions {
	h.t.Helper()
	g, err := h.store.Game(h.t.Context(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return *correspondence.ConditionsOf(g, side)
}

// TestConditionalMove: alice sends her move with "if d3-f3 then d2-f2xf3";
// nobody else sees the line; when bob plays d3-f3, the referee plays
// d2-f2xf3 for her at once (the same instant: an instant reply) and both
// get the board, the spectator too.
func TestConditionalMove(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.confirmed(watcher, "watch "+id, nil)
	sent := h.reply(alice, "1. d1-e1\nif d3-f3 then d2-f2xf3")
	mustContain(t, "alice's answer", to(t, sent, alice).Text, referee.Trn(referee.English, "cond.set", 1, "if d3-f3 then d2-f2xf3", 1))
	for _, m := range sent {
		if m.to != alice && strings.Contains(m.msg.Text, "d2-f2") {
			t.Errorf("the mail to %s shows alice's conditional move:\n%s", m.to, m.msg.Text)
		}
	}
	mustContain(t, "conditions", to(t, h.reply(alice, "conditions"), alice).Text,
		referee.Tr(referee.English, "cond.list", id)+"\n  if d3-f3 then d2-f2xf3")
	mustContain(t, "bob's conditions", to(t, h.reply(bob, "conditions"), bob).Text, referee.Tr(referee.English, "cond.none", id))

	sent = h.reply(bob, "d3-f3")
	if len(sent) != 3 {
		t.Fatalf("bob's move with alice's answer caused %d mails, want alice, bob, watcher:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "bob's mail", to(t, sent, bob).Text, "You played d3-f3.", "alice@player.test played d2-f2xf3. Captured: f3.",
		referee.Tr(referee.English, "move.yours", 2, "defenders"), "2. d2-f2xf3")
	mustContain(t, "alice's mail", to(t, sent, alice).Text, referee.Tr(referee.English, "cond.played", "d2-f2xf3", bob, "d3-f3"), "Captured: f3.",
		referee.Tr(referee.English, "move.theirs", 2, "defenders"))
	mustContain(t, "watcher's mail", to(t, sent, watcher).Text, "bob@player.test played d3-f3.", "alice@player.test played d2-f2xf3.")
	g, err := h.store.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Plies) != 3 || g.Plies[2].Move != "d2-f2xf3" || !g.Plies[2].At.Equal(g.Plies[1].At) || g.Plies[2].MessageID != "" {
		t.Fatalf("plies after the conditional move: %+v; want d2-f2xf3 at the instant of d3-f3, carried by no mail", g.Plies)
	}
	if !g.AttackersConditions.Empty() {
		t.Errorf("the line stays set after it was played: %+v", g.AttackersConditions)
	}
}

// TestConditionalChain: a chain and an alternative; the referee follows
// the chain after the first answer; the opponent's next reply breaks it,
// which cancels what is left and tells its owner.
func TestConditionalChain(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	sent := h.reply(alice, "if d3-f3 then d2-f2xf3 if c4-c3 then g4-g3\nif e4-e3 then a4-a3")
	mustContain(t, "two lines", to(t, sent, alice).Text, referee.Tr(referee.English, "cond.set", "if e4-e3 then a4-a3", 2))
	sent = h.reply(alice, "wenn c4-c3 dann b4-b3")
	checkGerman(t, "a third line", to(t, sent, alice).Text, alice, bob, "Brandubh 7×7 (Federation Brandubh)")
	if c := h.conds(id, "attackers"); len(c.Lines) != 3 || c.AtPly != 1 {
		t.Fatalf("alice's conditions: %+v, want 3 lines at ply 1", c)
	}

	sent = h.reply(bob, "d3-f3")
	mustContain(t, "alice's mail", to(t, sent, alice).Text, referee.Tr(referee.German, "cond.played", "d2-f2xf3", bob, "d3-f3"),
		referee.Trn(referee.German, "cond.left", 1, 1)+"\n  wenn c4-c3 dann g4-g3")
	if c := h.conds(id, "attackers"); len(c.Lines) != 1 || c.AtPly != 3 || strings.Join(c.Lines[0], " ") != "c4-c3 g4-g3" {
		t.Fatalf("after the first answer: %+v, want the chain's rest at ply 3", c)
	}
	// bob answers otherwise: the chain is broken
	sent = h.reply(bob, "e4-e3")
	mustContain(t, "broken chain", to(t, sent, alice).Text, referee.Trn(referee.German, "cond.cancelled", 1, 1, "e4-e3"))
	if strings.Contains(to(t, sent, bob).Text, "g4-g3") || len(h.state(id).Plies) != 4 {
		t.Fatalf("after the broken chain: %v", h.state(id).Plies)
	}
	if c := h.conds(id, "attackers"); !c.Empty() {
		t.Errorf("conditions after the chain broke: %+v", c)
	}
}

// TestConditionalRefusals: each line is checked when it arrives; an
// illegal move is refused at its column, the lines around it are kept; a
// line conflicting with one already set, one sent on the player's own
// move and one without the key are refused; a repeated line changes
// nothing; "cancel conditions" drops them.
func TestConditionalRefusals(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.refusal(h.reply(alice, "if d3-f3 then d2-f2xf3"), alice, referee.English, "err.cond.yourmove") // on her own move
	h.reply(alice, "d1-e1")
	sent := h.reply(alice, "if d3-f3 then d2-f2xf3\nif d3-d1 then a4-a3\nif e1-e2 then a4-a3\nif c4-c3 then d2-f2xf4\nif e4-e3 then a4-a3")
	text := to(t, sent, alice).Text
	// lines 2 to 4 refused, each at its column (the caret)
	h.mustRefuse("err.cond.at", "err.cond.illegal.theirs", "err.cond.at", "err.cond.illegal.theirs", "err.cond.at", "err.captures")
	mustContain(t, "first move illegal", text, "In your line 2:\n> if d3-d1 then a4-a3\n     ^\n", "path blocked at d2")
	mustContain(t, "own piece first", text, "In your line 3:\n> if e1-e2 then a4-a3\n     ^\n",
		referee.Tr(referee.English, "illegal.notyourpiece", "attacker", "e1"), referee.Tr(referee.English, "hint.cond.order"))
	mustContain(t, "wrong capture mark", text, "In your line 4:\n> if c4-c3 then d2-f2xf4\n                ^\n")
	if c := h.conds(id, "attackers"); len(c.Lines) != 2 {
		t.Fatalf("of five lines, two legal: %d kept: %+v", len(c.Lines), c)
	}
	h.refusal(h.reply(alice, "if d3-f3 then a4-a3"), alice, referee.English, "err.cond.at", "err.cond.conflict")
	sent = h.reply(alice, "if e4-e3 then a4-a3")
	mustContain(t, "duplicate", to(t, sent, alice).Text, referee.Tr(referee.English, "cond.duplicate", "if e4-e3 then a4-a3"))
	before := h.state(id)
	refusedWith(t, h, id, before, h.deliver(alice, "[taflmail "+id+"] x", "if c4-c3 then a4-a3", nil), alice, referee.English, "err.badkey")
	if c := h.conds(id, "attackers"); len(c.Lines) != 2 {
		t.Fatalf("refused lines changed the conditions: %+v", c)
	}
	sent = h.reply(alice, "bedingungen")
	mustContain(t, "bedingungen", to(t, sent, alice).Text, referee.Tr(referee.German, "cond.list", id)+"\n  wenn d3-f3 dann d2-f2xf3\n  wenn e4-e3 dann a4-a3")
	sent = h.reply(alice, "bedingungen löschen")
	mustContain(t, "cancel", to(t, sent, alice).Text, referee.Tr(referee.German, "cond.cancelled.you", 2))
	if c := h.conds(id, "attackers"); !c.Empty() {
		t.Errorf("after cancel: %+v", c)
	}
	sent = h.reply(alice, "cancel conditions")
	mustContain(t, "cancel with none", to(t, sent, alice).Text, referee.Tr(referee.German, "cond.none", id))
}

// Repetition in Brandubh (the attackers win a third repetition): a4-a3
// leads to Q; then c4-c3 g4-g3 c3-c4 g3-g4 returns to Q, and the same again
// brings Q a third time with the attackers' g3-g4.
var repetition = []string{"a4-a3", "c4-c3", "g4-g3", "c3-c4", "g3-g4", "c4-c3", "g4-g3"}

// TestConditionalRepetition: a conditional answer that repeats a position
// a third time is played with what the rules make of it (here the
// attackers win), and nothing may follow it in a line; a line whose first
// move ends the game is refused; a set whose owner's opponent ends the
// game is dropped.
func TestConditionalRepetition(t *testing.T) {
	checkMoves(t, "brandubh", repetition...)
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.play(id, repetition[:6]...)
	sent := h.reply(alice, "g4-g3\nif c3-c4 then g3-g4 if c4-c3 then g4-g3\nif c3-c4 then g3-g4")
	h.mustRefuse("err.cond.at", "err.cond.over.mine") // a line going on after the end
	mustContain(t, "a line on after the end", to(t, sent, alice).Text, referee.Trn(referee.English, "cond.set", 1, "if c3-c4 then g3-g4", 1))
	sent = h.reply(bob, "c3-c4")
	g := h.state(id)
	if g.Status != archive.Finished || g.Result != "attackers" || g.Reason != "repetition" || len(g.Plies) != 9 {
		t.Fatalf("after the repeating answer: %v; want the attackers' win by repetition at ply 9", g)
	}
	mustContain(t, "bob's mail", to(t, sent, bob).Text, "alice@player.test played g3-g4.", "The game is over: the attackers win")

	// the cycle from the start: bob's c3-c4 at ply 8 repeats the start a
	// third time
	h2 := newHarness(t)
	id2 := startBrandubh(t, h2)
	cycle := []string{"g4-g3", "c4-c3", "g3-g4", "c3-c4", "g4-g3", "c4-c3"}
	checkMoves(t, "brandubh", cycle...)
	h2.play(id2, cycle...)
	sent = h2.reply(alice, "g3-g4\nif c3-c4 then a4-a3\nif e4-e3 then a4-a3")
	h2.mustRefuse("err.cond.at", "err.cond.over.theirs") // the line's first move ends the game
	mustContain(t, "first move ends the game", to(t, sent, alice).Text, referee.Trn(referee.English, "cond.set", 1, "if e4-e3 then a4-a3", 1))
	sent = h2.reply(bob, "c3-c4")
	if g := h2.state(id2); g.Status != archive.Finished || g.Reason != "repetition" || len(g.Plies) != 8 {
		t.Fatalf("after bob's repeating move: %v", g)
	}
	if c := h2.conds(id2, "attackers"); !c.Empty() {
		t.Errorf("conditions after the game ended: %+v", c)
	}
	if strings.Contains(to(t, sent, alice).Text, referee.Trn(referee.English, "cond.cancelled", 1, 1, "c3-c4")) {
		t.Errorf("alice is told her lines were cancelled by the move that ended the game")
	}
}

// TestConditionalDrawOffer: a draw offer bob sends below his move stands
// after alice's conditional answer; one sent above it lapses with the
// move, as any offer does.
func TestConditionalDrawOffer(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(alice, "d1-e1\nif d3-f3 then d2-f2xf3")
	sent := h.reply(bob, "d3-f3\noffer draw")
	if g := h.state(id); g.DrawOfferBy != "defenders" || len(g.Plies) != 3 {
		t.Fatalf("after move and offer: %v", g)
	}
	mustContain(t, "alice's mail", to(t, sent, alice).Text, referee.Tr(referee.English, "cond.played", "d2-f2xf3", bob, "d3-f3"), referee.Tr(referee.English, "draw.offered", bob))

	h2 := newHarness(t)
	id2 := startBrandubh(t, h2)
	h2.reply(alice, "d1-e1\nif d3-f3 then d2-f2xf3")
	h2.reply(bob, "offer draw\nd3-f3")
	if g := h2.state(id2); g.DrawOfferBy != "" || len(g.Plies) != 3 {
		t.Fatalf("after offer and move: %v", g)
	}
}

// TestConditionalRecheck: the answer is checked again when it is played;
// one that has become illegal (here set in the archive directly, as
// lines checked on arrival cannot be) cancels the set and tells its
// owner, and only the opponent's ply is played.
func TestConditionalRecheck(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	h.setGame(id, func(g *archive.Game) {
		g.AttackersConditions = archive.Conditions{AtPly: 1, Lines: [][]string{{"d3-f3", "d2-d4"}}}
	})
	sent := h.reply(bob, "d3-f3")
	mustContain(t, "alice told", to(t, sent, alice).Text, referee.Tr(referee.English, "cond.failed", "d2-d4", "d4 is occupied"))
	if g := h.state(id); len(g.Plies) != 2 {
		t.Fatalf("plies %v, want bob's only", g.Plies)
	}
	if c := h.conds(id, "attackers"); !c.Empty() {
		t.Errorf("conditions after the failed answer: %+v", c)
	}
}
