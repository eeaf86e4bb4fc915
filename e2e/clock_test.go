package e2e

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestTimedGameArrivalWhileDown: a timed game through real IMAP and SMTP.
// While the daemon is down alice sends her move with a Date: header a day
// in the past. When the daemon is back, the move is timed by its
// INTERNALDATE, set by the receiving server at delivery (Decision C2):
// not by the backdated Date:, and not by the later processing; both
// players' mails show the clocks with alice's seconds charged.
func TestTimedGameArrivalWhileDown(t *testing.T) {
	eachSystem(t, func(t *testing.T, sys *mailSystem) {
		m := newMatch(t, sys)
		m.ref.start()
		m.toReferee = append(m.toReferee, m.alice.send(t, m.ref.addr, "a game?", "new brandubh with "+m.bob.addr+" as attackers time 2d+0d", nil))
		m.both("challenge", "Time control: 2d+0d")
		m.id = gameTag.FindStringSubmatch(m.last[m.bob].Subject)[1]
		m.toReferee = append(m.toReferee, m.bob.send(t, m.ref.addr, "", "accept", m.last[m.bob]))
		m.both("accept", "Clocks (2d+0d): attackers 2d left, defenders 2d left.")
		m.idle()
		m.ref.stop()
		time.Sleep(2 * time.Second) // alice thinks, her clock runs

		m.alice.date = time.Now().Add(-24 * time.Hour)
		sentAt := time.Now().Truncate(time.Second)
		m.sendPly(0)
		time.Sleep(sys.settle + 2*time.Second) // the daemon stays down for a while
		restart := time.Now()
		m.ref.start()
		m.both("ply d1-e1", "d1-e1", "Clocks (2d+0d):")

		g, err := m.ref.archive().Game(context.Background(), m.id)
		if err != nil {
			t.Fatal(err)
		}
		at := g.Plies[0].At
		if at.Before(sentAt) || !at.Before(restart.Truncate(time.Second)) {
			t.Errorf("the ply is timed at %v; want its arrival, after it was sent (%v) and before the daemon was back (%v)", at, sentAt, restart)
		}
		// charged the seconds she thought: not nothing (a Date: before the
		// start would make it so), not a day
		for _, p := range []*player{m.alice, m.bob} {
			if !strings.Contains(m.last[p].Text, "Clocks (2d+0d): attackers 1d23h59min left") {
				t.Errorf("%s's mail does not show alice's clock charged by the arrival:\n%s", p.name, m.last[p].Text)
			}
		}
		m.idle()
		m.ref.stop()
	})
}
