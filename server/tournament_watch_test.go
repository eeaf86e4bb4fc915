package server

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/correspondence"
	"github.com/taflmail/taflmail/server/internal/referee"
	"github.com/taflmail/taflmail/server/internal/tournaments"
)

// onlyMail returns the one mail among sent to addr; the test stops when
// there is none or more.
func onlyMail(t *testing.T, sent []sentMail, addr string) sentMail {
	t.Helper()
	ms := mailsTo(sent, addr)
	if len(ms) != 1 {
		t.Fatalf("%d mails to %s, want 1:\n%s", len(ms), addr, subjects(sent))
	}
	return ms[0]
}

// gameLines counts the lines of a spectator's start mail that list a game:
// its id, its round tag, then who plays whom.
func gameLines(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 && correspondence.GameIDShaped(f[0]) && strings.Contains(f[1], ".") {
			n++
		}
	}
	return n
}

// TestTournamentStartTellsSpectators: when cup-27 starts, each of its
// spectators who follow every move gets exactly one mail, in their
// language and heading the event's thread of its own (trial 3), naming
// the event, listing every game with its id, round and players, with the way to stop following (also
// as List-Unsubscribe) and no player's key; a bare "unwatch" in reply
// to it stops following. A results-only spectator gets none, nor does
// the spectator of another event; a player who follows the event gets
// only their start list. Before the change no spectator got anything.
func TestTournamentStartTellsSpectators(t *testing.T) {
	h := newHarness(t)
	const erika, far = "erika@watch.test", "far@watch.test"
	players := []string{alice, bob, "carol@player.test", "dave@player.test"}
	h.createEvent("cup-27", players, nil)
	h.createEvent("other-27", []string{"x@player.test", "y@player.test", "z@player.test"}, nil)
	watchMail := h.confirmed(watcher, "watch cup-27", nil) // not the spectator's thread: the event has its own
	h.confirmed(erika, "sprache de\nzuschauen cup-27", nil)
	h.confirmed(viewer, "watch cup-27 results", nil)
	h.confirmed(far, "watch other-27", nil)
	h.confirmed(alice, "watch cup-27", nil)
	if len(watchMail) != 1 {
		t.Fatalf("watch answered with %d mails", len(watchMail))
	}

	before := len(h.sender.sent)
	started, err := StartTournamentCounted(h.srv, h.ctx(), "cup-27")
	if err != nil {
		t.Fatal(err)
	}
	if started.Players != 4 || started.PlayerMails != 4 || started.SpectatorMails != 2 || started.Games != 12 {
		t.Errorf("StartTournamentCounted = %+v, want 4 players, 4 player mails, 2 spectator mails, 12 games", started)
	}
	h.srv.FlushOutbox(h.ctx())
	sent := h.sender.sent[before:]
	for addr, want := range map[string]int{watcher: 1, erika: 1, viewer: 0, far: 0, alice: 1, bob: 1} {
		if got := len(mailsTo(sent, addr)); got != want {
			t.Errorf("%d mails to %s at the start, want %d:\n%s", got, addr, want, subjects(sent))
		}
	}
	if len(sent) != len(players)+2 {
		t.Errorf("%d mails at the start, want %d (players and spectators):\n%s", len(sent), len(players)+2, subjects(sent))
	}
	mustContain(t, "alice's mail", to(t, sent, alice).Subject, referee.Tr(referee.English, "subject.start", "Cup cup-27"))

	games := h.eventGames("cup-27")
	m := onlyMail(t, sent, watcher)
	mustContain(t, "the spectator's subject", m.msg.Subject, referee.Tr(referee.English, "subject.start.watch", "Cup cup-27"))
	mustContain(t, "the spectator's start mail", m.msg.Text, referee.Tr(referee.English, "start.intro", "Cup cup-27", "cup-27", "4 players", "12 games"),
		referee.Tr(referee.English, "start.watch.list", 12), referee.Tr(referee.English, "watch.how", "cup-27"))
	for _, g := range games {
		line := fmt.Sprintf("  %s  %-7s  %s vs %s", g.ID, g.Event.RoundTag(), g.Attackers, g.Defenders)
		mustContain(t, "the spectator's start mail", m.msg.Text, line)
		noKeys(t, "the start mail", m, h.keysOf(g.ID))
	}
	if n := gameLines(m.msg.Text); n != len(games) {
		t.Errorf("the start mail lists %d games, want %d:\n%s", n, len(games), m.msg.Text)
	}
	if strings.Contains(m.msg.Text, "more games") {
		t.Errorf("the start mail of 12 games says there are more:\n%s", m.msg.Text)
	}
	if u := m.msg.Header["List-Unsubscribe"]; len(u) != 1 || !strings.Contains(u[0], "unwatch%20cup-27") {
		t.Errorf("List-Unsubscribe of the start mail = %q, want unwatch cup-27", u)
	}
	// the event's own thread, not the confirmation of watch (trial 3,
	// finding 10): the start mail heads it
	if m.msg.InReplyTo != "" || !strings.HasPrefix(m.msg.MessageID, "tm.event.cup-27.") {
		t.Errorf("the start mail %q answers %q, want the head of the event's thread (not the confirmation of watch %q)", m.msg.MessageID, m.msg.InReplyTo, watchMail[0].msg.InReplyTo)
	}
	de := onlyMail(t, sent, erika)
	mustContain(t, "the German start mail", de.msg.Subject, referee.Tr(referee.German, "subject.start.watch", "Cup cup-27"))
	mustContain(t, "the German start mail", de.msg.Text, referee.Tr(referee.German, "start.watch.list", 12), referee.Tr(referee.German, "watch.how", "cup-27"),
		games[0].ID+"  "+games[0].Event.RoundTag())

	// a bare "unwatch" in reply to the start mail, which names no game,
	// stops following the event
	mustContain(t, "unwatch reply", to(t, h.replyTo(watcher, m, "unwatch"), watcher).Text, referee.Tr(referee.English, "watch.event.stopped", "cup-27"))
	specs, err := h.store.TournamentSpectators(h.ctx(), "cup-27")
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range specs {
		if sp.Address == watcher {
			t.Errorf("%s still follows cup-27 after unwatch", watcher)
		}
	}
	if len(specs) != 3 {
		t.Errorf("%d spectators left, want 3 (the German, the results-only, alice): %+v", len(specs), specs)
	}
	// again: the thread still names the event, which the sender no longer
	// follows; its id can be no game's, so the line is refused as about a
	// tournament not followed (event trial §6)
	h.replyTo(watcher, m, "unwatch")
	h.mustRefuse("err.unwatch.event.not")
}

// TestTournamentStartSpectatorMailBounded: a spectator's start mail of
// an event of 132 games in two groups lists the first MaxStartGames
// under their group, then counts the rest and says how to see them.
func TestTournamentStartSpectatorMailBounded(t *testing.T) {
	h := newHarness(t)
	var players []string
	for i := range 24 {
		players = append(players, fmt.Sprintf("p%02d@player.test", i))
	}
	h.createEvent("big-27", players, func(t *archive.Tournament) { t.Groups, t.GamesPerPairing = 2, 1 })
	h.confirmed(watcher, "watch big-27", nil)
	before := len(h.sender.sent)
	ids, err := StartTournament(h.srv, h.ctx(), "big-27")
	if err != nil || len(ids) != 132 {
		t.Fatalf("StartTournament = %d games, %v; want 132", len(ids), err)
	}
	h.srv.FlushOutbox(h.ctx())
	text := onlyMail(t, h.sender.sent[before:], watcher).msg.Text
	if n := gameLines(text); n != tournaments.MaxStartGames {
		t.Errorf("the start mail lists %d games, want %d:\n%s", n, tournaments.MaxStartGames, text)
	}
	mustContain(t, "the bounded start mail", text, referee.Tr(referee.English, "start.watch.group", 1), referee.Tr(referee.English, "start.watch.more", 132-tournaments.MaxStartGames, "big-27"), ids[0], ids[tournaments.MaxStartGames-1])
	if strings.Contains(text, ids[tournaments.MaxStartGames]) {
		t.Errorf("the start mail lists game %d of 132:\n%s", tournaments.MaxStartGames+1, text)
	}
}

// TestTournamentStartSpectatorOneTransaction: the spectators' start mails
// are written with the games or not at all (the start's one archive
// batch, WriteBatch). A commit that fails, or a
// failed read of the spectators, starts nothing and queues no mail; the
// start tried again sends each one mail. A commit that took effect
// although its caller heard an error is not repeated: the spectator's
// mail goes once.
func TestTournamentStartSpectatorOneTransaction(t *testing.T) {
	for _, tc := range []struct {
		name  string
		op    string
		fault fault
	}{
		{"commit-unavailable", "WriteBatch", fault{err: errUnavailable}},
		{"spectators-unavailable", "TournamentSpectators", fault{err: errUnavailable}},
		{"commit-lost-ack", "WriteBatch", fault{err: errUnavailable, after: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.createEvent("cup-28", []string{alice, bob, "carol@player.test"}, nil)
			h.confirmed(watcher, "watch cup-28", nil)
			before, out := len(h.sender.sent), len(h.outbox())
			fs := h.withFaults()
			fs.inject(tc.op, tc.fault)
			_, err := StartTournament(h.srv, h.ctx(), "cup-28")
			if !errors.Is(err, archive.ErrUnavailable) {
				t.Fatalf("StartTournament with %s failing = %v, want ErrUnavailable", tc.op, err)
			}
			if fs.count(tc.op) == 0 {
				t.Fatalf("%s was never called: the fault was not hit", tc.op)
			}
			if !tc.fault.after {
				if n := len(h.outbox()) - out; n != 0 {
					t.Errorf("the failed start queued %d mails", n)
				}
				if gs := h.eventGames("cup-28"); len(gs) != 0 {
					t.Errorf("the failed start left %d games", len(gs))
				}
				if _, err := StartTournament(h.srv, h.ctx(), "cup-28"); err != nil {
					t.Fatalf("the start tried again: %v", err)
				}
			} else if _, err := StartTournament(h.srv, h.ctx(), "cup-28"); !errors.Is(err, ErrTournamentState) {
				t.Fatalf("the start after a lost ack = %v, want ErrTournamentState", err)
			}
			h.srv.FlushOutbox(h.ctx())
			sent := h.sender.sent[before:]
			if n := len(mailsTo(sent, watcher)); n != 1 {
				t.Errorf("%d start mails to the spectator, want 1:\n%s", n, subjects(sent))
			}
			if len(sent) != 4 || len(h.eventGames("cup-28")) != 6 {
				t.Errorf("%d mails and %d games after the start, want 4 and 6:\n%s", len(sent), len(h.eventGames("cup-28")), subjects(sent))
			}
		})
	}
}

// TestTournamentEndTellsSpectators: when the last game of an event ends,
// its spectators get the final standings too, those who follow only the
// results included, once each and without a way to stop following; the
// spectator of another event gets nothing, and a player who follows the
// event gets one final mail, as a player.
func TestTournamentEndTellsSpectators(t *testing.T) {
	h := newHarness(t)
	const far = "far@watch.test"
	h.createEvent("cup-28", []string{alice, bob, "carol@player.test"}, func(t *archive.Tournament) { t.GamesPerPairing = 1 })
	h.createEvent("other-28", []string{"x@player.test", "y@player.test", "z@player.test"}, nil)
	h.confirmed(watcher, "watch cup-28", nil)
	h.confirmed(viewer, "language de\nwatch cup-28 results", nil)
	h.confirmed(far, "watch other-28", nil)
	h.confirmed(alice, "watch cup-28", nil)
	if _, err := StartTournament(h.srv, h.ctx(), "cup-28"); err != nil {
		t.Fatal(err)
	}
	h.srv.FlushOutbox(h.ctx())
	var sent []sentMail
	for _, g := range h.eventGames("cup-28") {
		sent = append(sent, h.inGame(g.ID, g.Attackers, "resign")...)
	}
	finals := func(addr string) []sentMail {
		var out []sentMail
		for _, m := range mailsTo(sent, addr) {
			if strings.Contains(m.msg.Subject, referee.Tr(referee.English, "subject.final", "Cup cup-28")) || strings.Contains(m.msg.Subject, referee.Tr(referee.German, "subject.final", "Cup cup-28")) {
				out = append(out, m)
			}
		}
		return out
	}
	for addr, want := range map[string]int{watcher: 1, viewer: 1, far: 0, alice: 1, bob: 1} {
		if got := len(finals(addr)); got != want {
			t.Errorf("%d final mails to %s, want %d:\n%s", got, addr, want, subjects(sent))
		}
	}
	if len(finals(watcher)) == 1 {
		m := finals(watcher)[0]
		mustContain(t, "the spectator's final mail", m.msg.Text, referee.Tr(referee.English, "tournament.final", "Cup cup-28", 3), "alice@player.test", referee.Tr(referee.English, "tournament.records.attached", 3, "cup-28.tafl"))
		if u := m.msg.Header["List-Unsubscribe"]; len(u) != 0 {
			t.Errorf("the final mail of an event that is over has List-Unsubscribe %q", u)
		}
	}
	if len(finals(viewer)) == 1 {
		mustContain(t, "the German final mail", finals(viewer)[0].msg.Text, referee.Tr(referee.German, "tournament.final", "Cup cup-28", 3))
	}
}

// TestTournamentCancelTellsSpectators: an event cancelled on its start
// date for lack of players tells its spectators as it tells its players.
func TestTournamentCancelTellsSpectators(t *testing.T) {
	h := newHarness(t)
	h.createEvent("tiny-27", []string{alice, bob}, func(t *archive.Tournament) { t.StartDate = t.StartDate.AddDate(0, 0, 2) })
	h.confirmed(watcher, "watch tiny-27 results", nil)
	h.now = h.now.AddDate(0, 0, 2)
	before := len(h.sender.sent)
	if n, err := h.srv.RunTimers(h.ctx()); err != nil || n != 1 {
		t.Fatalf("RunTimers on the start date = %d, %v; want 1", n, err)
	}
	h.srv.FlushOutbox(h.ctx())
	sent := h.sender.sent[before:]
	if ms := mailsTo(sent, watcher); len(ms) != 1 {
		t.Fatalf("%d mails to the spectator of a cancelled event, want 1:\n%s", len(ms), subjects(sent))
	}
	mustContain(t, "the spectator's notice", to(t, sent, watcher).Text, referee.Tr(referee.English, "tournament.cancelled", "Cup tiny-27", 2, MinPlayers))
	if len(sent) != 3 {
		t.Errorf("%d mails at the cancellation, want 3:\n%s", len(sent), subjects(sent))
	}
}
