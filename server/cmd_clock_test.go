package server

import (
	"strings"
	"testing"
	"time"
)

// TestClockCommand: "clock" shows the control in words, both clocks, the
// deadline of the side to move and both players' leave; for an untimed
// game that it is untimed; without the key it is refused.
func TestClockCommand(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "3d/move iccf")
	h.reply(bob, "leave 2026-12-20 to 2026-12-21")
	sent := h.replyAt(start.Add(time.Hour), alice, "clock")
	if len(sent) != 1 {
		t.Fatalf("%d mails:\n%s", len(sent), texts(sent))
	}
	mustContain(t, "clock", sent[0].msg.Text,
		"Time control: 3d/move iccf: 3d for each move; time not used is not carried over (time charged in whole days",
		"Leave of the attackers: none.", "Leave of the defenders: 2026-12-20 to 2026-12-21 (2 days).",
		"Clocks (3d/move iccf): attackers 3d left, defenders 3d left.",
		// ICCF: the third whole day is the last that 3 days pay for
		"The attackers must move no later than "+stamp(start.Add(4*day-time.Second)))
	mustContain(t, "subject", sent[0].msg.Subject, "[taflmail "+id)

	u := newHarness(t)
	startTimed(t, u, "")
	sent = u.reply(bob, "uhr")
	mustContain(t, "untimed", sent[0].msg.Text, "Bedenkzeit: keine (die Partie hat keine Uhr")
	if strings.Contains(sent[0].msg.Text, "Uhren (") {
		t.Errorf("an untimed game shows clocks:\n%s", sent[0].msg.Text)
	}
	sent = u.deliver(bob, "x", "clock", nil)
	mustContain(t, "keyless", sent[0].msg.Text, "Dieser Befehl braucht eine Partie")
}
