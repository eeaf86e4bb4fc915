package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/grammar"
)

// TestHistory: the history command answers with the game's record, which
// parses as a native record of the plies played.
func TestHistory(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.play(id, "d1-e1", "d3-f3", "d2-f2xf3")
	sent := h.reply(bob, "verlauf")
	if len(sent) != 1 || sent[0].to != bob {
		t.Fatalf("%d mails, want one to bob", len(sent))
	}
	text := sent[0].msg.Text
	mustContain(t, "history", text, `[Variant "brandubh"]`, "1. d1-e1 d3-f3 2. d2-f2xf3 *")
	rec := text[strings.Index(text, "[Event"):]
	rec = rec[:strings.Index(rec, "\n\n     a")+1]
	recs, err := grammar.ParseRecords("history.tafl", []byte(rec))
	if err != nil || len(recs) != 1 || len(recs[0].Plies()) != 3 {
		t.Fatalf("the history does not parse as one record of 3 plies: %v\n%s", err, rec)
	}
}
