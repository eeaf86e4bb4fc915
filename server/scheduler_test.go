package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// The scheduler through the real referee on a fake clock (CORRESPONDENCE.md
// §4, Decision C4).

// runTimers fires the due timers at the harness's now and sends the
// outbox; it returns the mails sent.
func (h *harness) runTimers(srv *referee.Server) []sentMail {
	h.t.Helper()
	if srv == nil {
		srv = h.srv
	}
	before := len(h.sender.sent)
	if _, err := srv.RunTimers(context.Background()); err != nil {
		h.t.Fatalf("RunTimers: %v", err)
	}
	srv.FlushOutbox(context.Background())
	return h.sender.sent[before:]
}

// subjects lists the recipients and subjects of mails.
func subjects(ms []sentMail) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.to+": "+m.msg.Subject)
	}
	return strings.Join(s, "\n")
}

// TestRemindersAndTimeout (§4.1, §4.2): in a 10d+0d game the side to move
// is reminded when its time falls below 7 days, 2 days and 12 hours, each
// once, also after a restart, in the game's thread with the key, the
// board and the clocks; at the deadline the game is lost on time and both
// players get the result and the complete record.
func TestRemindersAndTimeout(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "10d+0d")
	key := h.mailVars(alice, id)["{{KEY}}"]
	for _, step := range []struct {
		at     time.Duration // after the start
		want   string        // in the one mail to alice, "" for none
		remain string
	}{
		{3 * day, "", ""},
		{3*day + time.Second, "has fallen below 7d", "6d23h59min left"},
		{4 * day, "", ""},
		{8*day + time.Second, "has fallen below 2d", "1d23h59min left"},
		{9*day + 12*time.Hour + time.Second, "has fallen below 12h", "11h59min left"},
		{10 * day, "", ""},
	} {
		h.now = start.Add(step.at)
		sent := h.runTimers(nil)
		// a restarted daemon finds nothing more to do
		sent = append(sent, h.runTimers(h.restart(h.store, nil))...)
		if step.want == "" {
			if len(sent) != 0 {
				t.Fatalf("at start+%v: %d mails, want none:\n%s", step.at, len(sent), subjects(sent))
			}
			continue
		}
		if len(sent) != 1 || sent[0].to != alice {
			t.Fatalf("at start+%v: mails\n%s\nwant one reminder to alice", step.at, subjects(sent))
		}
		m := sent[0].msg
		mustContain(t, "reminder", m.Subject, "[taflmail "+id+" "+key+"]", "reminder, move 1")
		mustContain(t, "reminder", m.Text, step.want, step.remain, "Your move must reach me no later than "+catalog.Instant(referee.English, start.Add(10*day)),
			"Move 1: it is your move", "Clocks (10d+0d)", "Moves so far:", "Your key for this game is "+key)
		if m.InReplyTo == "" || !strings.Contains(m.MessageID, id+"."+key) {
			t.Errorf("reminder not in alice's thread: In-Reply-To %q, Message-ID %q", m.InReplyTo, m.MessageID)
		}
	}
	// the deadline, once its grace for mail stamped before it has passed
	h.now = start.Add(10*day + time.Second)
	if sent := h.runTimers(nil); len(sent) != 0 {
		t.Fatalf("at the deadline, within its grace: %d mails, want none yet:\n%s", len(sent), subjects(sent))
	}
	h.now = start.Add(10*day + time.Second + referee.DefaultArrivalGrace)
	sent := h.runTimers(nil)
	if len(sent) != 2 {
		t.Fatalf("at the deadline: %d mails, want the result to both:\n%s", len(sent), subjects(sent))
	}
	// each player reads the result as theirs: alice had the attackers
	for who, res := range map[string][2]string{alice: {"you lost (the defenders win)", "You lost."}, bob: {"you won (the defenders win)", "You won."}} {
		m := to(t, sent, who)
		mustContain(t, who, m.Subject, "game over, "+res[0])
		mustContain(t, who, m.Text, "The attackers ran out of time: their move had to reach me no later than "+catalog.Instant(referee.English, start.Add(10*day)),
			"The game is over: the defenders win, the attackers ran out of time ("+id+"). "+res[1], `[Termination "timeout"]`,
			"timeout {[%ts "+strings.Replace(strings.TrimSuffix(catalog.Instant(referee.English, h.now), " UTC"), " ", "T", 1)+"Z]}")
	}
	if g := h.state(id); g.Status != archive.Finished || g.Result != "defenders" || g.Reason != "timeout" {
		t.Errorf("game %v, want finished: defenders win on time", g)
	}
	if ts := h.timersOf(id); len(ts) != 0 {
		t.Errorf("timers left after the time-out: %+v", ts)
	}
	if more := h.runTimers(h.restart(h.store, nil)); len(more) != 0 {
		t.Errorf("after the time-out a restarted daemon sends:\n%s", subjects(more))
	}
	// a move after the time-out is refused as a move in a finished game
	sent = h.reply(alice, openings[0])
	mustContain(t, "late move", sent[0].msg.Text, "is over: the defenders win, the attackers ran out of time")
}

// TestShortGameReminder: a 10-minute game, shorter than every default
// threshold (7d, 2d, 12h), reminds the side to move once, when a quarter
// of its time is left, rounded down to a minute (clock.TimedThresholds):
// below 2m, 8m + 1s into the turn; once only, also after a restart; then
// the time-out.
func TestShortGameReminder(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "10m+0d")
	for _, step := range []struct {
		at   time.Duration // after the start
		want string        // in the one mail to alice, "" for none
	}{
		{8 * time.Minute, ""},
		{8*time.Minute + time.Second, "has fallen below 2min: 1min59s left"},
		{9 * time.Minute, ""},
	} {
		h.now = start.Add(step.at)
		sent := append(h.runTimers(nil), h.runTimers(h.restart(h.store, nil))...)
		if step.want == "" {
			if len(sent) != 0 {
				t.Fatalf("at start+%v: %d mails, want none:\n%s", step.at, len(sent), subjects(sent))
			}
			continue
		}
		if len(sent) != 1 || sent[0].to != alice {
			t.Fatalf("at start+%v: mails\n%s\nwant one reminder to alice", step.at, subjects(sent))
		}
		mustContain(t, "reminder", sent[0].msg.Subject, "[taflmail "+id+" ", "reminder, move 1")
		mustContain(t, "reminder", sent[0].msg.Text, step.want, "no later than "+catalog.Instant(referee.English, start.Add(10*time.Minute)))
	}
	h.now = start.Add(10*time.Minute + time.Second + referee.DefaultArrivalGrace)
	if sent := h.runTimers(nil); len(sent) != 2 {
		t.Fatalf("at the deadline: %d mails, want the result to both:\n%s", len(sent), subjects(sent))
	}
}

// TestUntimedReminders (§4.1): an untimed game reminds after 7, 14 and 21
// days without a ply, leave not counted, and never ends on time; a ply
// starts the count again.
func TestUntimedReminders(t *testing.T) {
	h := newHarness(t)
	id, start := startTimed(t, h, "")
	h.reply(bob, "leave 2026-12-08 to 2026-12-09") // two days inside the second week
	var got []string
	for at := start; at.Before(start.Add(40 * day)); at = at.Add(time.Hour) {
		h.now = at
		for _, m := range h.runTimers(nil) {
			got = append(got, fmt.Sprintf("%s %s", m.to, at.Sub(start)))
			mustContain(t, "nag", m.msg.Text, "it has been your move for", "cannot lose on time")
		}
	}
	// due at start + 7d, + 14d + 2d (the leave), + 21d + 2d; each found at the next full hour
	want := []string{alice + " 168h0m0s", alice + " 384h0m0s", alice + " 552h0m0s"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reminders %v, want %v", got, want)
	}
	if g := h.state(id); g.Status != archive.Active {
		t.Errorf("an untimed game is %v after 40 days", g)
	}
	// a ply: bob's count begins
	h.now = start.Add(40*day - h.step)
	h.reply(alice, openings[0])
	h.now = start.Add(47*day + time.Second)
	if sent := h.runTimers(nil); len(sent) != 1 || sent[0].to != bob {
		t.Errorf("7 days after alice's ply: %s; want one reminder to bob", subjects(sent))
	}
}

// arrivingInbox is a fakeInbox whose mails carry an INTERNALDATE.
type arrivingInbox struct {
	*fakeInbox
	arrived map[uint32]time.Time
}

func (a *arrivingInbox) Fetch(ctx context.Context, validity, after uint32, max int64) ([]*mailer.Message, uint32, error) {
	ms, v, err := a.fakeInbox.Fetch(ctx, validity, after, max)
	for _, m := range ms {
		m.Arrived = a.arrived[m.UID]
	}
	return ms, v, err
}

// addAt puts a reply of addr in game id with body into the inbox, as
// arrived at instant at.
func (a *arrivingInbox) addAt(h *harness, at time.Time, addr, id, body string) {
	h.t.Helper()
	key := h.mailVars(addr, id)["{{KEY}}"]
	h.seq++
	raw := fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: Re: [taflmail %s %s] your move\r\nMessage-ID: <down-%d@player.test>\r\nDate: %s\r\n\r\n%s\r\n",
		addr, id, key, h.seq, at.Format(time.RFC1123Z), body)
	a.arrived[a.add([]byte(raw))] = at
}

// TestDeadlineReadsInboxFirst (Decision C4): the daemon was down over a
// deadline. A move that reached the mailbox before the deadline is
// played when the deadline timer comes due; one that reached it after
// the deadline loses the game on time, once; and when the inbox cannot
// be read, nothing is forfeited.
func TestDeadlineReadsInboxFirst(t *testing.T) {
	for _, tc := range []struct {
		name    string
		arrival time.Duration // of alice's move, after the start; 0: none
		lost    bool
	}{
		{"in-time", 2*day - time.Hour, false},
		// the second the mails name ("no later than start+2d": 2d
		// charged leaves exactly zero, which still plays, §2.6) is in
		// time; the next one is the deadline and late
		{"last-second-named", 2 * day, false},
		{"exactly-at-deadline", 2*day + time.Second, true},
		{"after", 3 * day, true},
		{"no-move", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			id, start := startTimed(t, h, "2d+0d")
			in := &arrivingInbox{fakeInbox: newFakeInbox(), arrived: map[uint32]time.Time{}}
			if tc.arrival > 0 {
				in.addAt(h, start.Add(tc.arrival), alice, id, openings[0])
			}
			// the daemon comes back five days in: first the timers are due
			h.now = start.Add(5 * day)
			srv := h.restart(h.store, in)
			sent := h.runTimers(srv)
			g := h.state(id)
			if lost := g.Reason == "timeout"; lost != tc.lost || tc.lost && g.Result != "defenders" {
				t.Fatalf("game %v after the deadline timer; lost on time: want %v\n%s", g, tc.lost, subjects(sent))
			}
			if !tc.lost {
				if len(g.Plies) != 1 {
					t.Fatalf("the move that arrived in time was not played: %v", g)
				}
				// bob's clock starts at the commit, not at the arrival
				if d := h.deadlineOf(id); !d.Equal(h.now.Add(2*day + time.Second)) {
					t.Errorf("bob's deadline %v, want the commit + 2d + 1s", d)
				}
			}
			results := 0
			for _, m := range sent {
				if strings.Contains(m.msg.Subject, "game over") {
					results++
				}
			}
			if tc.lost && results != 2 {
				t.Errorf("%d result mails, want one to each player:\n%s", results, subjects(sent))
			}
			if in.left() != 0 {
				t.Errorf("%d mails left in the inbox", in.left())
			}
			if more := h.runTimers(h.restart(h.store, in)); len(more) != 0 {
				t.Errorf("a second run sends:\n%s", subjects(more))
			}
		})
	}

	// the inbox cannot be read: no forfeit, the timer stays pending
	h := newHarness(t)
	id, start := startTimed(t, h, "2d+0d")
	in := &arrivingInbox{fakeInbox: newFakeInbox(), arrived: map[uint32]time.Time{}}
	in.fetchErr = []error{fmt.Errorf("mailer: fetch: %w: connection reset", mailer.ErrConnection)}
	h.now = start.Add(5 * day)
	srv := h.restart(h.store, in)
	if _, err := srv.RunTimers(context.Background()); !errors.Is(err, mailer.ErrConnection) {
		t.Fatalf("RunTimers with an unreadable inbox = %v, want the fetch error", err)
	}
	if g := h.state(id); g.Status != archive.Active {
		t.Fatalf("game forfeited without reading the inbox: %v", g)
	}
	if sent := h.runTimers(srv); len(sent) != 2 {
		t.Errorf("the next run, with the inbox readable: %d mails, want the two results", len(sent))
	}
}

// TestTimerMailsAreNoStrangerReplies (issue 8): reminders and time-outs
// record no processed mail, so they never count against the hourly reply
// budgets, and they go out even when no keyless mail is answered at all.
func TestTimerMailsAreNoStrangerReplies(t *testing.T) {
	h := newHarness(t)
	start := h.now
	var ids []string
	for i := 0; i < 3; i++ {
		sent := h.deliver(alice, "x", "new copenhagen with bob@player.test time 1d+0d", nil)
		ids = append(ids, referee.FindGame(to(t, sent, bob).Subject, "", nil).ID)
		h.reply(bob, "accept")
	}
	h.srv.Opts.JunkReplies = 0 // from now on no keyless mail is answered
	h.srv.Opts.ErrorRepliesPerHour = 0
	count := func(f archive.MailFilter) int {
		f.Since = start.Add(-time.Hour)
		n, err := h.store.CountMails(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	strangers := archive.MailFilter{Auth: archive.OnlyUnauthenticated, AnsweredOnly: true}
	before, beforeAll := count(strangers), count(archive.MailFilter{})
	h.now = h.now.Add(3 * day)
	sent := h.runTimers(nil)
	if len(sent) != 3*2 {
		t.Fatalf("%d mails, want a result to both players of %d games:\n%s", len(sent), len(ids), subjects(sent))
	}
	if after, afterAll := count(strangers), count(archive.MailFilter{}); after != before || afterAll != beforeAll {
		t.Errorf("timers recorded processed mails: %d → %d keyless answered, %d → %d in all", before, after, beforeAll, afterAll)
	}
}

// TestUntilNextTimer: Run waits for mail at most until the next timer,
// never longer than WaitCap, and a second when timers are overdue.
func TestUntilNextTimer(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if d := h.srv.UntilNextTimer(ctx); d != time.Minute {
		t.Errorf("no timers: wait %v, want WaitCap", d)
	}
	_, start := startTimed(t, h, "10d+0d") // the 7-day reminder is due at start + 3d + 1s
	h.now = start.Add(3*day + time.Second - 20*time.Second)
	if d := h.srv.UntilNextTimer(ctx); d != 20*time.Second {
		t.Errorf("timer in 20 s: wait %v", d)
	}
	h.now = start.Add(4 * day)
	if d := h.srv.UntilNextTimer(ctx); d != time.Second {
		t.Errorf("timer overdue: wait %v, want 1s", d)
	}
}

// TestRunWakesForTimer: Run, with nothing in the mailbox and a WaitCap of
// an hour, still fires a timer due a second from now, on the real clock.
func TestRunWakesForTimer(t *testing.T) {
	h := newHarness(t)
	h.now = time.Now().UTC().Truncate(time.Second)
	h.srv.Opts.Reminders = []time.Duration{day - time.Second} // due 2 s into 1d+0d
	startTimed(t, h, "1d+0d")
	in := newFakeInbox()
	srv := h.restart(h.store, in)
	srv.Opts.Now = time.Now
	srv.Opts.WaitCap = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	sentBefore, _ := h.store.Outbox(context.Background(), archive.Sent)
	go func() { done <- srv.Run(ctx) }()
	for ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		if n, _ := h.store.Outbox(context.Background(), archive.Sent); len(n) > len(sentBefore) {
			break
		}
	}
	cancel()
	<-done
	out, _ := h.store.Outbox(context.Background(), archive.Sent)
	found := false
	for _, m := range out {
		found = found || strings.Contains(string(m.Raw), "reminder, move 1")
	}
	if !found {
		t.Fatal("Run did not fire the reminder within 30 s")
	}
}
