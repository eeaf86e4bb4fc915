package server

import (
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// TestJoin: a player joins an event open for entry, confirming from the
// address, and is told when it starts and how to leave; joining twice, after the closing day, an event
// by invitation, one that has started, or an unknown id is refused, in
// the sender's language. A player who left before the start may join
// again.
func TestJoin(t *testing.T) {
	h := newHarness(t)
	open := func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	}
	ev := h.createEvent("open", nil, open)
	h.createEvent("invited", []string{alice, bob, "carol@player.test"}, nil)

	text := to(t, h.joinByMail("open", alice, "join"), alice).Text
	mustContain(t, "joined", text, "You are entered in Cup open", "1 player so far", "withdraw open", "Time control: 30d+1d")
	text = to(t, h.joinByMail("OPEN", bob, "anmelden"), bob).Text
	mustContain(t, "German join", text, "Du bist bei Cup open angemeldet", "Bisher 2 Spieler")
	es, _ := h.store.Entries(h.ctx(), "open")
	if len(es) != 2 || es[0].Player != alice || es[1].Seq != 2 || len(es[0].Key) != 10 || es[0].Key == es[1].Key {
		t.Errorf("entries after two joins: %+v", es)
	}

	for _, tc := range []struct{ from, body, lang, key string }{
		{alice, "join open", referee.English, "err.join.twice"},
		{alice, "join nope", referee.English, "err.tournament.unknown"},
		{"carol@player.test", "anmelden nope", referee.German, "err.tournament.unknown"},
		{"dave@player.test", "join invited", referee.English, "err.join.invitation"},
	} {
		h.refusal(h.deliver(tc.from, "x", tc.body, nil), tc.from, tc.lang, tc.key)
	}

	// alice leaves before the start and joins again
	h.withdrawByMail("open", alice)
	mustContain(t, "rejoin", to(t, h.joinByMail("open", alice, "join"), alice).Text, "You are entered in Cup open")

	// the closing day ends at 24:00 UTC
	h.now = ev.EntryCloses.Add(12 * time.Hour)
	mustContain(t, "on the closing day", to(t, h.joinByMail("open", "erin@player.test", "join"), "erin@player.test").Text, "You are entered")
	// a request made on the closing day cannot be confirmed after it
	h.deliver("frank@player.test", "x", "join open", nil)
	late := joinConfirmLine.FindString(h.last("frank@player.test").msg.Text)
	h.now = ev.EntryCloses.AddDate(0, 0, 1)
	h.refusal(h.deliver("frank@player.test", "x", "join open", nil), "frank@player.test", referee.English, "err.join.closed")
	h.refusal(h.deliver("frank@player.test", "x", late, nil), "frank@player.test", referee.English, "err.join.closed") // confirmed after the closing day

	// started: no more entries
	if _, err := StartTournament(h.srv, h.ctx(), "open"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	h.refusal(h.deliver("gina@player.test", "x", "join open", nil), "gina@player.test", referee.English, "err.join.started")
}

// TestJoinForgedFrom: "join" under a forged From enters nobody. The
// victim gets the request to confirm, and unless a mail from the victim's
// address brings back its key, they are not a player: the event starts
// without them and they have no game to lose on time. A forger who
// repeats the request, or guesses a key, gets nowhere; the real player's
// confirmation still works after a forger's repeat, in English and
// German. Before the fix a single forged "join" made the victim a player.
func TestJoinForgedFrom(t *testing.T) {
	h := newHarness(t)
	ev := h.createEvent("open", nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 20), t.StartDate.AddDate(0, 0, 21)
	})
	ask := func(lang string) string {
		return referee.Tr(lang, "join.ask", "Cup open", catalog.Day(lang, ev.StartDate), catalog.Day(lang, ev.EntryCloses))
	}
	victim, opfer := "victim@player.test", "opfer@player.test"
	entered := func(addr string) bool {
		es, err := h.store.Entries(h.ctx(), "open")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Player == addr && !e.Withdrawn() {
				return true
			}
		}
		return false
	}

	// the forged request: the reply goes to the victim and asks to confirm
	sent := h.deliver(victim, "x", "join open", nil)
	text := to(t, sent, victim).Text
	mustContain(t, "the request", text, ask(referee.English))
	first := joinConfirmLine.FindStringSubmatch(text)
	if first == nil || contains(text, "You are entered in") || entered(victim) {
		t.Fatalf("a join without confirmation entered %s:\n%s", victim, text)
	}
	// repeated, and with made-up keys
	h.deliver(victim, "x", "join open", nil)
	if again := joinConfirmLine.FindStringSubmatch(h.last(victim).msg.Text); again == nil || again[4] != first[4] {
		t.Errorf("a repeated request changed the key: %v, first %v", again, first[4])
	}
	for _, c := range []struct{ line, lang string }{
		{"join open confirm 0000000000", referee.English}, {"join open confirm " + first[4] + "x", referee.English}, {"anmelden open bestätigen abc", referee.German},
	} {
		h.refusal(h.deliver(victim, "x", c.line, nil), victim, c.lang, "err.join.key")
	}
	// the key from another address is worth nothing
	h.refusal(h.deliver("forger@evil.test", "x", first[0], nil), "forger@evil.test", referee.English, "err.join.key") // a key from a stranger
	if entered(victim) || entered("forger@evil.test") {
		t.Fatal("a forged or guessed confirmation entered someone")
	}

	// German: the request and the confirmation
	text = to(t, h.deliver(opfer, "x", "anmelden open", nil), opfer).Text
	mustContain(t, "German request", text, ask(referee.German))
	m := joinConfirmLine.FindStringSubmatch(text)
	if m == nil || m[1] != "anmelden" || entered(opfer) {
		t.Fatalf("German request:\n%s", text)
	}
	mustContain(t, "German confirmation", to(t, h.deliver(opfer, "x", m[0], nil), opfer).Text, "Du bist bei Cup open angemeldet")

	// the event starts without the victim, who has no game
	h.joinByMail("open", alice, "join")
	h.joinByMail("open", bob, "join")
	h.now = ev.StartDate
	if _, err := StartTournament(h.srv, h.ctx(), "open"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	for _, g := range h.eventGames("open") {
		if g.Attackers == victim || g.Defenders == victim {
			t.Fatalf("the victim of a forged join plays game %s", g.ID)
		}
	}
	if n := len(h.eventGames("open")); n != 6 {
		t.Errorf("%d games, want 6 (3 players, matches of two)", n)
	}
	// the victim's own confirmation comes too late: the event started
	h.refusal(h.deliver(victim, "x", first[0], nil), victim, referee.English, "err.join.started")
}

// TestJoinFull: an event open for entry takes at most
// Options.MaxTournamentPlayers players (issue 18 §4: whatever is
// entered can start). A request beyond it is refused and gets no key; a
// key asked for while there was room cannot be used once the event is
// full; a place freed by a withdrawal can be taken, in either language.
func TestJoinFull(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.MaxTournamentPlayers = 3
	h.createEvent("open", nil, func(t *archive.Tournament) {
		t.OpenEntry, t.EntryCloses, t.StartDate = true, t.StartDate.AddDate(0, 0, 5), t.StartDate.AddDate(0, 0, 7)
	})
	h.joinByMail("open", alice, "join")
	h.joinByMail("open", bob, "join")
	// dave asks while there is room, carol takes the last place
	h.deliver("dave@player.test", "x", "join open", nil)
	early := joinConfirmLine.FindString(h.last("dave@player.test").msg.Text)
	if early == "" {
		t.Fatal("dave's request got no confirmation line")
	}
	h.joinByMail("open", "carol@player.test", "join")
	text := h.refusal(h.deliver("erin@player.test", "x", "join open", nil), "erin@player.test", referee.English, "err.join.full").Text
	if joinConfirmLine.MatchString(text) {
		t.Errorf("the refused request got a confirmation line:\n%s", text)
	}
	h.refusal(h.deliver("dave@player.test", "x", early, nil), "dave@player.test", referee.English, "err.join.full") // a confirmation when full
	h.refusal(h.deliver("frank@player.test", "x", "anmelden open", nil), "frank@player.test", referee.German, "err.join.full")
	if es, _ := h.store.Entries(h.ctx(), "open"); len(es) != 3 {
		t.Errorf("%d entries, want 3: %+v", len(es), es)
	}
	h.withdrawByMail("open", bob)
	mustContain(t, "after a withdrawal", to(t, h.joinByMail("open", "erin@player.test", "join"), "erin@player.test").Text,
		"You are entered in Cup open", "3 players so far")
}
