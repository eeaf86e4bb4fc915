package server

import (
	"github.com/taflmail/taflmail/server/internal/referee"
	"testing"
)

// TestBoard: the board command answers the sender alone with whose move it
// is and the board, changing nothing; a stranger gets no board.
func TestBoard(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.play(id, "d1-e1")
	before := h.state(id)
	sent := h.reply(bob, "board")
	if len(sent) != 1 || sent[0].to != bob {
		t.Fatalf("%d mails, want one to bob", len(sent))
	}
	mustContain(t, "board", sent[0].msg.Text, referee.Tr(referee.English, "move.yours", 1, "defenders"), "a  b  c  d  e  f  g",
		"  last ply d1-e1: () from, [] to\n  defenders to move\n", "   1. d1-e1\n")
	h.unchanged("board", id, before)
	sent = h.reply(alice, "brett")
	mustContain(t, "German board", sent[0].msg.Text, referee.Tr(referee.German, "move.theirs", 1, "Verteidiger"),
		"  letzter Halbzug d1-e1: () Start, [] Ziel\n  Verteidiger am Zug\n", referee.Tr(referee.German, "move.list"))
}

// TestBoardForSpectator: a spectator's "board" in reply to a spectator's
// mail gets the position as spectators see it, with no key anywhere and
// nothing that says it is their move; a stranger who does not watch the
// game, replying to a spectator's mail forwarded to them, is refused, and
// so is the spectator once the game is private (its spectators removed).
func TestBoardForSpectator(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	keys := h.keysOf(id)
	h.confirmed(watcher, "watch "+id, nil)
	h.play(id, "d1-e1")
	spec := h.last(watcher)
	before := h.state(id)
	sent := h.replyTo(watcher, spec, "board")
	h.mustRefuse()
	m := to(t, sent, watcher)
	mustContain(t, "spectator's board", m.Text, referee.Tr(referee.English, "watch.tomove", 1, "defenders"), "a  b  c  d  e  f  g",
		"  last ply d1-e1: () from, [] to\n", "   1. d1-e1\n", referee.Tr(referee.English, "watch.how", id))
	mustContain(t, "spectator's board subject", m.Subject, "[taflmail "+id+"] ")
	mustNotContain(t, "spectator's board", m.Text, referee.Tr(referee.English, "move.yours", 1, "defenders"))
	noKeys(t, "the spectator's board", *sentTo(sent, watcher), keys)
	h.unchanged("spectator's board", id, before)

	h.refusal(h.replyTo(viewer, spec, "board"), viewer, referee.English, "err.notplayer")

	h.reply(bob, "private")
	h.refusal(h.replyTo(watcher, spec, "board"), watcher, referee.English, "err.notplayer")
}
