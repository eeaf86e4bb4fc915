package server

import (
	"strings"
	"testing"

	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/server/internal/referee"
)

func TestResignationRecord(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	h.reply(alice, "d1-e1")
	h.reply(bob, "d3-f3")
	h.reply(alice, "d2-f2xf3")
	// the attackers resign while the defenders are to move
	sent := h.reply(alice, "resign")
	final := to(t, sent, bob).Text
	mustContain(t, "final mail", final, "the defenders win, the attackers resigned", `[Termination "resignation"]`)
	if strings.Contains(final, "to move\n") {
		t.Errorf("the board of a resigned game still names a side to move:\n%s", final)
	}
	rec := final[strings.Index(final, "[Event"):]
	rec = rec[:strings.Index(rec, "\n\n     a")+1]
	recs, err := grammar.ParseRecords("resigned.tafl", []byte(rec))
	if err != nil || len(recs) != 1 {
		t.Fatalf("record does not parse: %v\n%s", err, rec)
	}
	if strings.Contains(rec, "---") {
		t.Errorf("record marks a resignation by the side to move:\n%s", rec)
	}
}

// TestResignGerman: a German resignation; both players are told in German
// who resigned, and the board of the finished game names no side to move.
func TestResignGerman(t *testing.T) {
	h := newHarness(t)
	id := startGame(t, h, "brandubh", referee.German)
	sent := h.reply(bob, "aufgeben")
	if len(sent) != 2 {
		t.Fatalf("%d mails, want 2", len(sent))
	}
	g := h.state(id)
	if g.Status != "finished" || g.Result != "attackers" || g.Reason != "resignation" {
		t.Fatalf("after bob resigned: %v", g)
	}
	// each player reads the result as theirs (bob had the defenders), in
	// the subject and in the text
	mine := map[string][2]string{
		alice: {"Partie beendet, du hast gewonnen (die Angreifer gewinnen)", "Du hast gewonnen."},
		bob:   {"Partie beendet, du hast verloren (die Angreifer gewinnen)", "Du hast verloren."},
	}
	for _, m := range sent {
		mustContain(t, "subject to "+m.to, m.msg.Subject, mine[m.to][0])
		mustContain(t, "mail to "+m.to, m.msg.Text, "die Angreifer gewinnen, die Verteidiger haben aufgegeben ("+id+"). "+mine[m.to][1])
		if strings.Contains(m.msg.Text, "am Zug\n") {
			t.Errorf("the board of a resigned game names a side to move:\n%s", m.msg.Text)
		}
	}
	sent = h.reply(alice, "aufgeben")
	refusedOnly(t, h, id, g, sent, alice, referee.Tr(referee.German, "err.over", id, "die Angreifer gewinnen, die Verteidiger haben aufgegeben"))
}
