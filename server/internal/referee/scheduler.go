package referee

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// The durable scheduler (docs/clock.md, "The scheduler"): the work of the
// feature modules that falls due by the clock rather than by a mail. Each
// module keeps its own due work in the archive (the games' timers,
// internal/gameclock; the players' daily digests, digest.go; the
// tournaments' start dates and the withdrawals to settle, tournament*.go)
// and does it through the one pipeline, so a process killed at any point
// sends no mail twice and loses no time-out. Run sleeps until the earlier
// of new mail and the next work a module says is due (DueTeller,
// UntilNextTimer), and RunTimers asks each module to do what is due
// (DueRunner), in the registry's order (assembly.go). What the scheduler
// keeps for all of them is Decision C4: a deadline or a digest is acted
// on only after the inbox has been read up to it, a deadline by a poll
// that began Options.ArrivalGrace after it (Ripe, InboxReadTo,
// ReadInbox), since a mail the IMAP server stamped before the deadline
// may show in the mailbox only later.

// TimerBatch is how many due timers (or digests) RunTimers reads at a
// time.
const TimerBatch = 100

// DefaultArrivalGrace is the default of Options.ArrivalGrace: how long
// past a deadline the referee waits for mail stamped before it to show in
// the mailbox. A minute covers an IMAP server that stores a mail a moment
// after it stamped it (Dovecot behind Postfix, a busy machine) and clocks
// a few seconds apart, and costs nothing in games counted in days.
const DefaultArrivalGrace = time.Minute

// RunTimers does the work of every module that is due at Options.Now
// (DueRunner), in the registry's order: the tournaments whose start date
// has come are started and the running games of players who withdrew are
// ended (the tournament module), then the games' due timers are fired,
// earliest first (the clock module, internal/gameclock: reminders,
// time-outs, invitations' expiry, the engine's turns handed to its
// runner), then the players' daily digests are sent (the digest module).
// It returns how many things they did (tournaments started, timers
// fired, digests sent). Before a deadline or a digest a module reads the
// inbox up to that instant (ReadInbox, unless a poll that began at or
// after it already did; without an Inbox the caller hands every mail to
// HandleMail and the inbox counts as read), so a move that arrived in
// time is played rather than forfeited or listed (Decision C4); a
// deadline waits Options.ArrivalGrace past its instant first, and the
// poll before it must begin after that grace (Ripe). It stops at the
// first failure and returns it: what was not done stays due and is done
// later.
func (s *Server) RunTimers(ctx context.Context) (int, error) {
	return s.RunDue(ctx)
}

// Ripe reports whether timer tm may act at now: any timer but a deadline
// at once, a deadline (a time-out, an invitation's expiry) only once
// Options.ArrivalGrace has passed since it, so that a mail the IMAP
// server stamped before the deadline and showed a little later is read
// first (Decision C4).
func (s *Server) Ripe(tm archive.Timer, now time.Time) bool {
	return tm.Kind != archive.TimerDeadline || !now.Before(tm.Due.Add(s.Opts.ArrivalGrace))
}

// InboxReadTo reports whether a Poll that began at or after at has read
// every mail it fetched (Decision C4).
func (s *Server) InboxReadTo(at time.Time) bool {
	return s.polled.Load() >= at.UnixNano()
}

// ReadInbox reads the inbox to now: Poll and send the replies. Without an
// Inbox (the caller hands mails to HandleMail itself) it counts as read.
func (s *Server) ReadInbox(ctx context.Context) error {
	if s.Opts.Inbox == nil {
		s.polled.Store(s.Opts.Now().UnixNano())
		return nil
	}
	if err := s.Poll(ctx, false); err != nil {
		return err
	}
	s.FlushOutbox(ctx)
	return nil
}

// UntilNextTimer returns how long Run may wait for mail before the next
// module's work is due (DueTeller; a failure to read it is logged and
// waits WaitCap): at most WaitCap; when work is due already, a second
// when RunTimers left some of it, else until what it waits for can go on
// (OverdueTeller: a deadline's grace), at most WaitCap; an engine turn
// under way wakes Run when it ends anyway (waitContext).
func (s *Server) UntilNextTimer(ctx context.Context) time.Duration {
	next, ok, err := s.NextDue(ctx)
	if err != nil {
		s.Log.Warn("reading the next timer failed", "err", err)
		return s.Opts.WaitCap
	}
	if !ok {
		return s.Opts.WaitCap
	}
	d := next.Sub(s.Opts.Now())
	if d <= 0 {
		d = s.Opts.WaitCap
		switch wait, left := s.Overdue(ctx, s.Opts.Now()); {
		case left:
			d = time.Second
		case wait > 0:
			d = wait
		}
	}
	return min(d, s.Opts.WaitCap)
}
