package server

import (
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
	mustContain(t, "board", sent[0].msg.Text, tr(english, "move.yours", 1, "defenders"), "a  b  c  d  e  f  g",
		"  last ply d1-e1: () from, [] to\n  defenders to move\n", "   1. d1-e1\n")
	h.unchanged("board", id, before)
	sent = h.reply(alice, "brett")
	mustContain(t, "German board", sent[0].msg.Text, tr(german, "move.theirs", 1, "Verteidiger"),
		"  letzter Halbzug d1-e1: () Start, [] Ziel\n  Verteidiger am Zug\n", tr(german, "move.list"))
}
