package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/clock"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/notation"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/gameclock"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The clocks through the real referee (CORRESPONDENCE.md §1–§5), on a fake
// clock: every mail is handed in at an instant the test chooses, its
// INTERNALDATE that instant unless the test says otherwise.

// startTimed has alice challenge bob to Copenhagen with the time control
// (alice attacks and moves first; "" challenges without "time") and bob
// accept. The clock moves one second per mail from now on; it returns the
// game id and the game's start.
func startTimed(t *testing.T, h *harness, control string) (string, time.Time) {
	t.Helper()
	h.step = time.Second
	line := "new copenhagen with bob@player.test"
	if control != "" {
		line += " time " + control
	}
	sent := h.deliver(alice, "a game?", line, nil)
	id := referee.FindGame(to(t, sent, bob).Subject, "", nil).ID
	if id == "" {
		t.Fatalf("no invitation:\n%s", texts(sent))
	}
	if sent = h.reply(bob, "accept"); len(sent) != 2 {
		t.Fatalf("accept sent %d mails:\n%s", len(sent), texts(sent))
	}
	return id, h.now
}

// replyAt answers the last mail to addr with body, the mail arriving and
// being handled at instant at.
func (h *harness) replyAt(at time.Time, addr, body string) []sentMail {
	h.t.Helper()
	h.now = at.Add(-h.step)
	return h.reply(addr, body)
}

// stateOf returns the clocks of game id as the referee computes them.
func (h *harness) stateOf(id string) *clock.State {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	tb, err := referee.Load(g)
	if err != nil {
		h.t.Fatal(err)
	}
	st, err := gameclock.State(tb)
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// timersOf returns game id's timers, "key@due" with due as an offset from
// start, pending first.
func (h *harness) timersOf(id string) []archive.Timer {
	h.t.Helper()
	ts, err := h.store.GameTimers(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return ts
}

// deadlineOf returns the due time of game id's pending deadline timer.
func (h *harness) deadlineOf(id string) time.Time {
	h.t.Helper()
	for _, tm := range h.timersOf(id) {
		if tm.Kind == archive.TimerDeadline && tm.Done.IsZero() {
			return tm.Due
		}
	}
	h.t.Fatalf("game %s has no pending deadline: %+v", id, h.timersOf(id))
	return time.Time{}
}

const day = 24 * time.Hour

// openings are the first plies of a Copenhagen game that goes on.
var openings = []string{"h1-h3", "d6-d9", "k5-i5", "e6-c6", "i5-i3", "c6-c8", "a8-a9", "f6-c6"}

// TestTimeControlForms: each form of CORRESPONDENCE.md §1 through the
// referee: the invitation states it, the archive keeps it in canonical
// form, and after two plies both clocks in both players' mails are what
// §2 charges (Fischer with and without a cap, per move, ICCF days).
func TestTimeControlForms(t *testing.T) {
	cases := []struct {
		control, canonical string
		alice, bob         time.Duration // each ply's time after the previous one (alice's after the start)
		invite             string        // in bob's invitation
		clocks             string        // in both mails after bob's ply
	}{
		{"30d+1d", "30d+1d", time.Hour, day, "30d+1d: each side has 30d, and 1d more after each of its moves",
			"Clocks (30d+1d): attackers 30d23h left, defenders 30d left."},
		{"6D12H + 10H", "6d12h+10h", 12 * time.Hour, 20 * time.Hour, "6d12h+10h: each side has 6d12h, and 10h more",
			"Clocks (6d12h+10h): attackers 6d10h left, defenders 6d2h left."},
		{"10d+2d max 11d", "10d+2d max 11d", time.Hour, day, "(never more than 11d)",
			"Clocks (10d+2d max 11d): attackers 11d left, defenders 11d left."},
		{"7d+0d", "7d+0d", 2 * day, 3 * day, "7d+0d: each side has 7d for the whole game.", // nothing of a zero increment
			"Clocks (7d+0d): attackers 5d left, defenders 4d left."},
		{"3d/move", "3d/move", day, 2*day + 23*time.Hour, "3d/move: 3d for each move",
			"Clocks (3d/move): attackers 3d left, defenders 3d left."},
		{"3d+0d iccf", "3d+0d iccf", 23*time.Hour + 59*time.Minute, day, "(time charged in whole days",
			"Clocks (3d+0d iccf): attackers 3d left, defenders 2d left."},
		{"3d/move ICCF", "3d/move iccf", 3*day + 23*time.Hour, time.Minute, "3d/move iccf: 3d for each move",
			"Clocks (3d/move iccf): attackers 3d left, defenders 3d left."},
	}
	for _, tc := range cases {
		t.Run(tc.canonical, func(t *testing.T) {
			h := newHarness(t)
			inv := h.deliver(alice, "a game?", "new copenhagen with bob@player.test time "+tc.control, nil)
			if strings.Contains(tc.canonical, "+0d") {
				mustNotContain(t, "invitation", to(t, inv, bob).Text, "0d more")
			}
			mustContain(t, "invitation", to(t, inv, bob).Text, "Time control: "+tc.canonical+": ", tc.invite, "30 days a year")
			mustContain(t, "confirmation", to(t, inv, alice).Text, "Time control: "+tc.canonical+": ", tc.invite)
			h.step = time.Second
			h.reply(bob, "accept")
			start := h.now
			id := referee.FindGame(to(t, inv, bob).Subject, "", nil).ID
			g, err := h.store.Game(context.Background(), id)
			if err != nil || g.TimeControl != tc.canonical || !g.StartedAt.Equal(start) {
				t.Fatalf("stored game: %v, control %q, start %v; want %q, %v", err, g.TimeControl, g.StartedAt, tc.canonical, start)
			}
			h.replyAt(start.Add(tc.alice), alice, openings[0])
			sent := h.replyAt(start.Add(tc.alice+tc.bob), bob, openings[1])
			if n := len(h.state(id).Plies); n != 2 {
				t.Fatalf("%d plies played, want 2:\n%s", n, texts(sent))
			}
			for _, who := range []string{alice, bob} {
				mustContain(t, who+"'s mail", to(t, sent, who).Text, tc.clocks, "The attackers must move no later than")
			}
		})
	}
}

// TestUntimedByDefault: a challenge without "time", or with "time none",
// is untimed (Decision C1): no clocks in the mails, no deadline, only
// reminders.
func TestUntimedByDefault(t *testing.T) {
	for _, control := range []string{"", "none"} {
		h := newHarness(t)
		id, _ := startTimed(t, h, control)
		g, _ := h.store.Game(context.Background(), id)
		if g.TimeControl != "" {
			t.Errorf("time %q: stored control %q, want untimed", control, g.TimeControl)
		}
		sent := h.reply(alice, openings[0])
		if text := to(t, sent, bob).Text; strings.Contains(text, "Clocks") || strings.Contains(text, "must move no later than") {
			t.Errorf("time %q: an untimed game's mail shows clocks:\n%s", control, text)
		}
		for _, tm := range h.timersOf(id) {
			if tm.Kind != archive.TimerReminder {
				t.Errorf("time %q: untimed game has a %s timer", control, tm.Kind)
			}
		}
		if len(h.timersOf(id)) != 3 {
			t.Errorf("time %q: %d timers, want the 3 untimed reminders", control, len(h.timersOf(id)))
		}
	}
}

// TestBadTimeControl: a control the grammar does not accept is refused
// with the accepted forms, in the sender's language, and nothing is
// created.
func TestBadTimeControl(t *testing.T) {
	for _, tc := range []struct{ line, lang, want string }{
		{"new copenhagen with bob@player.test time 30 days", referee.English, "A time control is written in one of these forms:"},
		{"new copenhagen with bob@player.test time", referee.English, "Expected a time control such as 30d+1d, found end of input."},
		{"new copenhagen with bob@player.test time 0d+1d as defenders", referee.English, "the time must be more than 0"},
		{"neu copenhagen mit bob@player.test zeit 3d/zug", referee.German, "Eine Bedenkzeit schreibt man in einer dieser Formen:"},
		{"neu copenhagen mit bob@player.test zeit 0d+1d", referee.German, "die Zeit muss mehr als 0 sein"},
	} {
		h := newHarness(t)
		sent := h.deliver(alice, "x", tc.line, nil)
		if len(sent) != 1 || sent[0].to != alice {
			t.Fatalf("%q: %d mails:\n%s", tc.line, len(sent), texts(sent))
		}
		mustContain(t, tc.line, sent[0].msg.Text, tc.want, "<base>+<inc> max <cap>  10d+2d max 20d", "3d/move")
		if gs, _ := h.store.GamesOf(context.Background(), alice); len(gs) != 0 {
			t.Errorf("%q created %d games", tc.line, len(gs))
		}
	}
	// a bare duration is no control (CORRESPONDENCE.md §1): the reply
	// offers it with no increment, reads units written out as letters,
	// and no row of the table is a duration alone
	for _, tc := range []struct{ line, lang, meant string }{
		{"new copenhagen with bob@player.test as defenders time 10d", referee.English, referee.Tr(referee.English, "hint.timecontrol.noinc", "10d+0d")},
		{"new copenhagen with bob@player.test time 30 days", referee.English, referee.Tr(referee.English, "hint.timecontrol.noinc", "30d+0d")},
		{"new copenhagen with bob@player.test time 2d12h iccf as attackers", referee.English, referee.Tr(referee.English, "hint.timecontrol.noinc", "2d12h+0d iccf")},
		{"new copenhagen with bob@player.test time 30 days+1 day", referee.English, referee.Tr(referee.English, "hint.timecontrol.meant", "30d+1d")},
		{"neu copenhagen mit bob@player.test zeit 10 Tage", referee.German, referee.Tr(referee.German, "hint.timecontrol.noinc", "10d+0d")},
	} {
		h := newHarness(t)
		text := to(t, h.deliver(alice, "x", tc.line, nil), alice).Text
		mustContain(t, tc.line, text, tc.meant, referee.Tr(tc.lang, "hint.timecontrol"), referee.Tr(tc.lang, "err.nothing"))
		mustContainWrapped(t, tc.line, text, referee.Tr(tc.lang, "hint.timecontrol.duration"))
		mustNotContain(t, tc.line, text, "<n>d <n>h <n>m          2d12h")
	}
	// no guess where none fits
	h := newHarness(t)
	text := to(t, h.deliver(alice, "x", "new copenhagen with bob@player.test time 3d/zug", nil), alice).Text
	mustNotContain(t, "3d/zug", text, "Did you mean")
	// the forms belong to the time control only
	h = newHarness(t)
	sent := h.deliver(alice, "x", "new copenhagen with bobplayer.test time 30d+1d", nil)
	if strings.Contains(sent[0].msg.Text, "these forms") {
		t.Errorf("a bad address got the time control forms:\n%s", sent[0].msg.Text)
	}
}

// TestICCFAccounting: whole days, the 24-hour boundary, and the ICCF
// doubling beyond 20 days (23 days used are charged 26, §2.3): with 26
// days on the clock 23 days 23 hours are in time, 24 days are not.
func TestICCFAccounting(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "30d+0d iccf")
	sent := h.replyAt(start.Add(23*day), alice, openings[0])
	mustContain(t, "bob's mail", to(t, sent, bob).Text, "attackers 4d left")
	if c := h.stateOf(id).Clock[engine.Attackers]; c != 4*day {
		t.Errorf("after 23 days under ICCF the attackers have %v, want 4 days (26 charged)", c)
	}
	// the 24-hour boundary: 23h59m costs nothing, 24h a day
	at := start.Add(23 * day)
	h.replyAt(at.Add(23*time.Hour+59*time.Minute), bob, openings[1])
	h.replyAt(at.Add(23*time.Hour+59*time.Minute+day), alice, openings[2])
	st := h.stateOf(id)
	if st.Clock[engine.Defenders] != 30*day || st.Clock[engine.Attackers] != 3*day {
		t.Errorf("clocks %v; want defenders 30d (23h59m free), attackers 3d (24h = 1 day)", st.Clock)
	}

	for _, tc := range []struct {
		after time.Duration
		lost  bool
	}{{23*day + 23*time.Hour, false}, {24 * day, true}} {
		h := newHarness(t)
		id, start := startTimed(t, h, "26d+0d iccf")
		sent := h.replyAt(start.Add(tc.after), alice, openings[0])
		g := h.state(id)
		if lost := g.Reason == "timeout"; lost != tc.lost {
			t.Errorf("26 days, move after %v: lost on time %v, want %v:\n%s", tc.after, lost, tc.lost, texts(sent))
		}
	}
}

// TestExactlyZero: a move that leaves exactly nothing is in time
// (CORRESPONDENCE.md §2.6); the next then has to be instant, and one
// second later is lost on time: not played, both told, the record ends
// "timeout".
func TestExactlyZero(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "1d+0d")
	sent := h.replyAt(start.Add(day), alice, openings[0])
	mustContain(t, "bob's mail", to(t, sent, bob).Text, "alice@player.test played h1-h3", "attackers 0s left")
	at := start.Add(day + time.Hour)
	h.replyAt(at, bob, openings[1])
	sent = h.replyAt(at.Add(time.Second), alice, openings[2])
	g := h.state(id)
	if g.Status != archive.Finished || g.Result != "defenders" || g.Reason != "timeout" || len(g.Plies) != 2 {
		t.Fatalf("after a move one second late: %v; want the defenders winning on time after 2 plies", g)
	}
	mustContain(t, "alice's mail", to(t, sent, alice).Text,
		"Your mail reached me at "+catalog.Instant(referee.English, at.Add(time.Second))+", but your move had to reach me no later than "+catalog.Instant(referee.English, at)+":",
		"it came too late, and the game is lost on time",
		"The game is over: the defenders win, the attackers ran out of time", `[Termination "timeout"]`)
	mustContain(t, "bob's mail", to(t, sent, bob).Text, "The attackers ran out of time", `[Result "defenders"]`, `[Termination "timeout"]`, "timeout {[%ts ")
	if ts := h.timersOf(id); len(ts) != 0 {
		t.Errorf("a finished game keeps timers: %+v", ts)
	}
}

// TestArrivalNotDate (Decision C2): a move is timed by when it reached
// the mailbox; a Date: header written before the deadline does not save
// a move that arrived after it, and one written later costs nothing.
func TestArrivalNotDate(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "2d+0d")
	// bob's ply arrives an hour in, its Date: claims three days later
	h.replyAt(start.Add(time.Hour), alice, openings[0])
	h.now = start.Add(2 * time.Hour)
	h.deliver(bob, "Re: "+h.last(bob).msg.Subject, openings[1], map[string]string{
		"In-Reply-To": "<" + h.last(bob).msg.MessageID + ">",
		"Date":        start.Add(3 * day).Format(time.RFC1123Z),
	})
	if c := h.stateOf(id).Clock[engine.Defenders]; c != 2*day-time.Hour-time.Second {
		t.Errorf("defenders' clock %v, want 2d − 1h1s: charged by arrival, not by the Date: header", c)
	}
	// alice's ply arrives after her deadline, its Date: claims an hour in
	deadline := h.deadlineOf(id)
	h.now = deadline.Add(time.Minute - time.Second)
	h.arrival = deadline.Add(time.Minute)
	sent := h.deliver(alice, "Re: "+h.last(alice).msg.Subject, openings[2], map[string]string{
		"In-Reply-To": "<" + h.last(alice).msg.MessageID + ">",
		"Date":        start.Add(3 * time.Hour).Format(time.RFC1123Z),
	})
	if g := h.state(id); g.Reason != "timeout" || len(g.Plies) != 2 {
		t.Fatalf("a late move with a backdated Date: header: %v; want it lost on time:\n%s", g, texts(sent))
	}
	mustContain(t, "alice's mail", to(t, sent, alice).Text, "reached me at "+catalog.Instant(referee.English, deadline.Add(time.Minute)))
}

// TestClocksInEveryMail (§4.3): a move, a refusal with the board and the
// board command all show both clocks and the deadline; the record carries
// the clock data; German mails show them in German.
func TestClocksInEveryMail(t *testing.T) {
	h := newHarness(t)
	_, start := startTimed(t, h, "10d+1d")
	sent := h.replyAt(start.Add(time.Hour), alice, openings[0])
	for _, who := range []string{alice, bob} {
		mustContain(t, who, to(t, sent, who).Text, "Clocks (10d+1d): attackers 10d23h left, defenders 10d left.",
			"The defenders must move no later than "+catalog.Instant(referee.English, start.Add(time.Hour+10*day)))
	}
	sent = h.replyAt(start.Add(2*time.Hour), alice, "board")
	mustContain(t, "board", sent[0].msg.Text, "attackers 10d23h left, defenders 9d23h left")
	sent = h.replyAt(start.Add(3*time.Hour), bob, "d6-d6")
	mustContain(t, "refusal", sent[0].msg.Text, "is not a legal move", "defenders 9d22h left")
	sent = h.replyAt(start.Add(4*time.Hour), bob, "uhr")
	mustContain(t, "German clock", sent[0].msg.Text, "Bedenkzeit: 10d+1d: jede Seite hat 10 Tage und nach jedem eigenen Zug 1 Tag mehr", "Uhren (10d+1d): Angreifer noch 10 Tage 23 Stunden, Verteidiger noch 9 Tage 21 Stunden.",
		"Die Verteidiger müssen spätestens", "Urlaub der Angreifer: keiner.")
	sent = h.replyAt(start.Add(5*time.Hour), alice, "history")
	mustContain(t, "history", sent[0].msg.Text, `[TimeControl "10d+1d"]`, `[Start "`+notation.FormatInstant(start)+`"]`,
		"1. h1-h3 {[%ts "+notation.FormatInstant(start.Add(time.Hour))+"]}")
}

// TestCommitLaterThanArrival (§2.1): a ply handled long after it arrived
// (the daemon was down) is timed at its arrival, and the opponent's clock
// starts at the commit, which the record notes as %avail.
func TestCommitLaterThanArrival(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "5d+0d")
	h.arrival = start.Add(time.Hour)
	h.replyAt(start.Add(day), alice, openings[0])
	g, _ := h.store.Game(context.Background(), id)
	p := g.Plies[0]
	if !p.At.Equal(start.Add(time.Hour)) || !p.Avail.Equal(start.Add(day)) {
		t.Fatalf("ply at %v avail %v; want the arrival start+1h and the commit start+1d", p.At, p.Avail)
	}
	st := h.stateOf(id)
	if st.Clock[engine.Attackers] != 5*day-time.Hour || !st.Since.Equal(start.Add(day)) {
		t.Errorf("attackers %v, defenders' clock from %v; want 5d−1h and the commit", st.Clock[engine.Attackers], st.Since)
	}
	sent := h.replyAt(start.Add(day+time.Hour), alice, "history")
	mustContain(t, "record", sent[0].msg.Text, "[%avail "+notation.FormatInstant(start.Add(day))+"]")
	// a ply handled within a minute has no %avail
	h.arrival = start.Add(day + 2*time.Hour)
	h.replyAt(start.Add(day+2*time.Hour+30*time.Second), bob, openings[1])
	g, _ = h.store.Game(context.Background(), id)
	if !g.Plies[1].Avail.IsZero() {
		t.Errorf("a ply committed 30 s after it arrived has avail %v", g.Plies[1].Avail)
	}
}

// TestNothingAfterTheDeadline: once the side to move's deadline has
// passed, no mail that arrives later saves the game, whoever sends it and
// whatever it asks (the scheduler reads such mails before it declares the
// time-out, Decision C4): accepting a standing draw offer, taking leave
// from today, resigning, offering a draw as the winner. The game is lost
// on time instead, once.
func TestNothingAfterTheDeadline(t *testing.T) {
	for _, tc := range []struct {
		name, who, line string
		setup           func(h *harness)
	}{
		{"accept draw", alice, "accept draw", func(h *harness) { h.reply(bob, "offer draw") }},
		{"leave today", alice, "leave 2026-12-01", nil},
		{"opponent's leave today", bob, "leave 2026-12-01", nil},
		{"resign", alice, "resign", nil},
		{"winner offers a draw", bob, "offer draw", nil},
		{"late move", alice, openings[0], nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			id, _ := startTimed(t, h, "2d+0d")
			if tc.setup != nil {
				tc.setup(h)
			}
			deadline := h.deadlineOf(id)
			h.replyAt(deadline.Add(2*time.Hour), tc.who, tc.line)
			g := h.state(id)
			if g.Status != archive.Finished || g.Result != "defenders" || g.Reason != "timeout" || g.DrawOfferBy != "" {
				t.Fatalf("after %q from %s past alice's deadline: %v; want the defenders winning on time", tc.line, tc.who, g)
			}
			if sent := h.runTimers(nil); len(sent) != 0 {
				t.Errorf("the scheduler ended the game again:\n%s", subjects(sent))
			}
			results := 0
			for _, m := range h.sender.sent {
				if strings.Contains(m.msg.Text, "The game is over: the defenders win, the attackers ran out of time") {
					results++
				}
			}
			if results != 2 {
				t.Errorf("%d result mails, want one to each player", results)
			}
		})
	}
}

// TestClocksToTheSecond (issue 22 §3): an 8-minute game. A fresh clock
// reads 8m, not 7m, though the reply is written two seconds after the
// mail that started it arrived; the mover's clock reads to the second; a
// reminder below 2m gives the seconds; the time-out mail reads 0s, not
// "0d".
func TestClocksToTheSecond(t *testing.T) {
	h := newHarness(t)
	h.srv.Opts.Reminders = []time.Duration{2 * time.Minute}
	h.step = 5 * time.Second
	sent := h.deliver(alice, "a game?", "new copenhagen with bob@player.test time 8m+0d", nil)
	if referee.FindGame(to(t, sent, bob).Subject, "", nil).ID == "" {
		t.Fatalf("no invitation:\n%s", texts(sent))
	}
	h.arrival = h.now.Add(h.step - 2*time.Second) // handled two seconds after it arrived
	sent = h.reply(bob, "accept")
	start := h.now // the accept's handling: the game starts, alice's clock runs
	for _, who := range []string{alice, bob} {
		mustContain(t, who+" at the start", to(t, sent, who).Text, "Clocks (8m+0d): attackers 8min left, defenders 8min left.")
	}
	// alice moves 30 seconds in; the mail is handled two seconds later
	h.now = start.Add(30*time.Second - h.step)
	h.arrival = start.Add(28 * time.Second)
	sent = h.reply(alice, openings[0])
	for _, who := range []string{alice, bob} {
		mustContain(t, who+" after alice's move", to(t, sent, who).Text, "Clocks (8m+0d): attackers 7min32s left, defenders 8min left.")
	}
	turn := start.Add(28 * time.Second) // bob's clock runs from the arrival
	// the reminder below 2m: due the first second bob has less
	h.now = turn.Add(6*time.Minute + time.Second)
	sent = h.runTimers(nil)
	if len(sent) != 1 || sent[0].to != bob {
		t.Fatalf("below 2m: mails\n%s\nwant one reminder to bob", subjects(sent))
	}
	mustContain(t, "reminder", sent[0].msg.Text, "has fallen below 2min: 1min59s left.", "defenders 1min59s left")
	// the deadline, 8m and a second after the turn began, once its grace
	// for mail stamped before it has passed
	h.now = turn.Add(8*time.Minute + time.Second + referee.DefaultArrivalGrace)
	sent = h.runTimers(nil)
	if len(sent) != 2 {
		t.Fatalf("at the deadline: %s; want the result to both", subjects(sent))
	}
	for _, who := range []string{alice, bob} {
		mustContain(t, who+" time-out", to(t, sent, who).Text, "Clocks (8m+0d): attackers 7min32s left, defenders 0s left.")
	}
}
