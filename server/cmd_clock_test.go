package server

import (
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
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
		"The attackers must move no later than "+catalog.Instant(referee.English, start.Add(4*day-time.Second)))
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

// TestClockCommandShortGame: for a game shorter than every reminder
// threshold, "clock" says when it is reminded (a quarter of its time),
// or that it is not; a longer game's reply says nothing of it.
func TestClockCommandShortGame(t *testing.T) {
	for _, tc := range []struct {
		control, want string
	}{
		{"10m+0d", referee.Tr(referee.English, "clock.reminder.short", "2min")},
		{"90m/move", referee.Tr(referee.English, "clock.reminder.short", "22min")},
		{"3m+0d", referee.Tr(referee.English, "clock.reminder.none")},
		{"1d+0d", ""},
	} {
		h := newHarness(t)
		startTimed(t, h, tc.control)
		text := h.reply(alice, "clock")[0].msg.Text
		if tc.want == "" {
			mustNotContain(t, tc.control, text, "A game this short", "In a game this short")
			continue
		}
		mustContain(t, tc.control, text, "Time control: ", tc.want)
	}
	h := newHarness(t)
	startTimed(t, h, "10m+0d")
	sent := h.reply(bob, "uhr")
	mustContain(t, "German", sent[0].msg.Text, referee.Tr(referee.German, "clock.reminder.short", "2 Minuten"))
}
