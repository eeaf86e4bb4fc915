package server

import (
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The features of issue 12 with the clocks of the clock stream.

// TestSpectatorClocksAndTimeout: a spectator of a timed game sees the
// clocks the players see; when the game is lost on time without a mail
// (the scheduler), the spectators get the result, also one who watches
// for results only, and never a key.
func TestSpectatorClocksAndTimeout(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "10d+0d")
	h.confirmed(watcher, "watch "+id, nil)
	h.confirmed(viewer, "watch "+id+" results", nil)
	sent := h.replyAt(start.Add(time.Hour), alice, openings[0])
	spec := to(t, sent, watcher)
	mustContain(t, "spectator's mail", spec.Text, "Clocks (10d+0d): attackers 9d23h left, defenders 10d left.",
		"The defenders must move no later than "+catalog.Instant(referee.English, start.Add(time.Hour+10*day)))
	h.now = start.Add(time.Hour + 10*day + time.Second + referee.DefaultArrivalGrace) // the deadline and its grace (scheduler.go)
	sent = h.runTimers(nil)
	if len(sent) != 4 {
		t.Fatalf("the time-out sent %d mails, want both players and both spectators:\n%s", len(sent), subjects(sent))
	}
	for _, who := range []string{watcher, viewer} {
		m := to(t, sent, who)
		mustContain(t, who, m.Text, "The game is over: the attackers win, the defenders ran out of time", `[Termination "timeout"]`)
		for _, m := range sent {
			if m.to == who {
				noKeys(t, "the time-out to a spectator", m, h.keysOf(id))
			}
		}
	}
}

// TestConditionalInstantReply: in a timed game a conditional answer is an
// instant reply: it carries the opponent's ply's arrival, so the owner's
// clock loses nothing, and the opponent's clock runs from then.
func TestConditionalInstantReply(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "10d+0d")
	h.replyAt(start.Add(time.Hour), alice, openings[0]+"\nif "+openings[1]+" then "+openings[2])
	sent := h.replyAt(start.Add(3*day), bob, openings[1])
	g := h.state(id)
	if len(g.Plies) != 3 || g.Plies[2] != openings[2] {
		t.Fatalf("plies %v, want alice's answer %s played", g.Plies, openings[2])
	}
	// alice used one hour; bob three days less one hour; the answer nothing
	mustContain(t, "clocks", to(t, sent, bob).Text, "Clocks (10d+0d): attackers 9d23h left, defenders 7d1h left.")
	if !strings.Contains(to(t, sent, alice).Text, referee.Tr(referee.English, "cond.played", openings[2], bob, openings[1])) {
		t.Errorf("alice not told of her answer:\n%s", to(t, sent, alice).Text)
	}
}
