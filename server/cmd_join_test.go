package server

import (
	"testing"

	"github.com/taflmail/taflmail/archive"
)

// TestJoin: a player joins an event open for entry and is told when it
// starts and how to leave; joining twice, after the closing day, an event
// by invitation, one that has started, or an unknown id is refused, in
// the sender's language. A player who left before the start may join
// again.
func TestJoin(t *testing.T) {
	h := newHarness(t)
	open := func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	}
	h.createEvent("open", nil, open)
	h.createEvent("invited", []string{alice, bob, "carol@player.test"}, nil)

	text := to(t, h.deliver(alice, "x", "join open", nil), alice).Text
	mustContain(t, "joined", text, "You are entered in Cup open", "1 players so far", "withdraw open", "Time control: 30d+1d")
	text = to(t, h.deliver(bob, "x", "anmelden OPEN", nil), bob).Text
	mustContain(t, "German join", text, "Du bist bei Cup open angemeldet", "Bisher 2 Spieler")
	es, _ := h.store.Entries(h.ctx(), "open")
	if len(es) != 2 || es[0].Player != alice || es[1].Seq != 2 || len(es[0].Key) != 10 || es[0].Key == es[1].Key {
		t.Errorf("entries after two joins: %+v", es)
	}

	for _, tc := range []struct{ from, body, lang, want string }{
		{alice, "join open", english, tr(english, "err.join.twice", "Cup open", "open")},
		{alice, "join nope", english, tr(english, "err.tournament.unknown", "nope")},
		{"carol@player.test", "anmelden nope", german, tr(german, "err.tournament.unknown", "nope")},
		{"dave@player.test", "join invited", english, tr(english, "err.join.invitation", "Cup invited")},
	} {
		mustContain(t, tc.body, to(t, h.deliver(tc.from, "x", tc.body, nil), tc.from).Text, tc.want, tr(tc.lang, "err.nothing"))
	}

	// alice leaves before the start and joins again
	h.withdrawByMail("open", alice)
	mustContain(t, "rejoin", to(t, h.deliver(alice, "x", "join open", nil), alice).Text, "You are entered in Cup open")

	// the closing day ends at 24:00 UTC
	h.now = h.now.AddDate(0, 0, 5)
	mustContain(t, "on the closing day", to(t, h.deliver("erin@player.test", "x", "join open", nil), "erin@player.test").Text, "You are entered")
	h.now = h.now.AddDate(0, 0, 1)
	mustContain(t, "after the closing day", to(t, h.deliver("frank@player.test", "x", "join open", nil), "frank@player.test").Text,
		tr(english, "err.join.closed", "Cup open", dayText(h.now.AddDate(0, 0, -1))))

	// started: no more entries
	if _, err := h.srv.StartTournament(h.ctx(), "open"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	mustContain(t, "after the start", to(t, h.deliver("gina@player.test", "x", "join open", nil), "gina@player.test").Text,
		tr(english, "err.join.started", "Cup open"))
}
