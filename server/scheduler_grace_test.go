package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// showingInbox is an arrivingInbox whose mails become visible to Fetch
// only once the harness's clock has reached their showing instant: the
// IMAP server stamped a mail's INTERNALDATE when it took the mail, and
// shows it in the mailbox a little later (it still parses and stores it;
// a busy machine, a slow disk, Postfix handing it to Dovecot over LMTP),
// or its clock runs a little behind the referee's.
type showingInbox struct {
	*arrivingInbox
	h *harness

	mu    sync.Mutex
	shows map[uint32]time.Time // UID → when Fetch first returns it
}

func (s *showingInbox) Fetch(ctx context.Context, validity, after uint32, max int64) ([]*mailer.Message, uint32, error) {
	ms, v, err := s.arrivingInbox.Fetch(ctx, validity, after, max)
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*mailer.Message
	for _, m := range ms {
		if at, ok := s.shows[m.UID]; ok && s.h.now.Before(at) {
			continue // stamped, not yet in the mailbox
		}
		out = append(out, m)
	}
	return out, v, err
}

// TestDeadlineWaitsForMailStampedBefore (Decision C4): alice's move was
// stamped by the IMAP server a second before her deadline but shows in
// the mailbox only 1.5 s later. The referee comes back just after the
// deadline (a restart: the first poll, then the timers). The time-out
// must wait for the arrival grace (Options.ArrivalGrace) so that the poll
// that counts as reading the inbox up to the deadline finds the move; the
// move is then played and the game goes on.
//
// Fixed bug (issue 18 §6, server/scheduler.go): a poll that began at the
// deadline counted as having read the inbox up to it, so the deadline
// timer fired at once. A mail stamped before the deadline but not yet
// shown by that poll then lost the game on time, and when it showed it
// was refused as a move in a finished game.
func TestDeadlineWaitsForMailStampedBefore(t *testing.T) {
	h := newHarness(t)
	id, _ := startTimed(t, h, "2d+0d")
	deadline := h.deadlineOf(id)
	in := &showingInbox{arrivingInbox: &arrivingInbox{fakeInbox: newFakeInbox(), arrived: map[uint32]time.Time{}},
		h: h, shows: map[uint32]time.Time{}}
	in.addAt(h, deadline.Add(-time.Second), alice, id, openings[0])
	in.shows[in.nextUID-1] = deadline.Add(500 * time.Millisecond)

	ctx := context.Background()
	h.now = deadline.Add(100 * time.Millisecond) // back just after the deadline
	srv := h.restart(h.store, in)
	if err := srv.Poll(ctx, true); err != nil { // Run's first step after a start
		t.Fatal(err)
	}
	sent := h.runTimers(srv)
	if g := h.state(id); g.Status != archive.Active {
		t.Fatalf("at the deadline + 0.1 s, with a move stamped before it not yet shown: game %v\n%s", g, subjects(sent))
	}
	if len(sent) != 0 {
		t.Errorf("at the deadline + 0.1 s: mails sent:\n%s", subjects(sent))
	}
	if d := srv.UntilNextTimer(ctx); d <= 0 || d > srv.Opts.ArrivalGrace {
		t.Errorf("Run waits %v for the deadline, want the rest of the grace (at most %v)", d, srv.Opts.ArrivalGrace)
	}

	h.now = deadline.Add(srv.Opts.ArrivalGrace)
	sent = h.runTimers(srv)
	g := h.state(id)
	if g.Status != archive.Active || len(g.Plies) != 1 {
		t.Fatalf("after the grace: game %v, want alice's move played and the game going on\n%s", g, subjects(sent))
	}
	if len(sent) != 2 || strings.Contains(subjects(sent), "game over") {
		t.Errorf("after the grace: want the move's two mails, got:\n%s", subjects(sent))
	}
	if in.left() != 0 {
		t.Errorf("%d mails left in the inbox", in.left())
	}
}

// TestDeadlineAfterGraceStillTimesOut: a move stamped at the deadline is
// late whatever the grace, and with no move at all the game is lost on
// time once the grace has passed, the result mailed once.
func TestDeadlineAfterGraceStillTimesOut(t *testing.T) {
	for _, late := range []bool{true, false} {
		h := newHarness(t)
		id, _ := startTimed(t, h, "2d+0d")
		deadline := h.deadlineOf(id)
		in := &arrivingInbox{fakeInbox: newFakeInbox(), arrived: map[uint32]time.Time{}}
		if late {
			in.addAt(h, deadline, alice, id, openings[0])
		}
		h.now = deadline.Add(h.srv.Opts.ArrivalGrace)
		srv := h.restart(h.store, in)
		sent := h.runTimers(srv)
		g := h.state(id)
		if g.Status != archive.Finished || g.Reason != "timeout" || len(g.Plies) != 0 {
			t.Fatalf("late move %v: game %v, want lost on time with no ply\n%s", late, g, subjects(sent))
		}
		results := 0
		for _, m := range sent {
			if strings.Contains(m.msg.Subject, "game over") {
				results++
			}
		}
		if results != 2 {
			t.Errorf("late move %v: %d result mails, want one to each player:\n%s", late, results, subjects(sent))
		}
		if more := h.runTimers(h.restart(h.store, in)); len(more) != 0 {
			t.Errorf("late move %v: a second run sends:\n%s", late, subjects(more))
		}
	}
}
