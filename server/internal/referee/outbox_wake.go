package referee

import (
	"context"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// The outbox watch (issue 22 §10). Another process may queue mail in the
// archive's outbox while Run waits for mail: `taflmail tournament start`
// and `tournament withdraw` do, and so does `taflmail outbox --retry`.
// The archive cannot tell a process of another's write, and Run used to
// send such mails only at its next wake, up to WaitCap (a minute) later.
// So while Run waits for mail it looks at the outbox every
// Options.OutboxPoll (DefaultOutboxPoll) and sends what is due, without
// breaking off the wait (an IDLE under way stays). A mail held back until
// later (one waiting for its retry, a reply held for the engine's answer,
// internal/opponent) is sent the same way once it is due.

// DefaultOutboxPoll is the default of Options.OutboxPoll: how often Run
// looks at the outbox while it waits for mail.
const DefaultOutboxPoll = 5 * time.Second

// watchOutbox looks at the outbox every Options.OutboxPoll until ctx ends
// or stop is called, and sends the mails that are due (FlushOutbox) when
// one of them is claimed by nobody (OutboxDue). stop returns once a
// flush under way has ended, so that only one FlushOutbox ever runs.
// With a negative OutboxPoll it does nothing.
func (s *Server) watchOutbox(ctx context.Context) (stop func()) {
	if s.Opts.OutboxPoll <= 0 {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.Opts.OutboxPoll)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if s.OutboxDue(ctx) {
				s.FlushOutbox(ctx)
			}
		}
	}()
	return func() { close(quit); <-done }
}

// OutboxDue reports whether a pending mail is due now (PendingOutbox) that
// nobody holds a live claim on: a mail another process is sending, or one
// this process sent but could not mark sent, would otherwise be tried at
// every look. A failed read is taken as nothing due: Run's next wake
// reads the outbox again and logs.
func (s *Server) OutboxDue(ctx context.Context) bool {
	now := s.Opts.Now()
	pending, err := s.outboxPort().PendingOutbox(ctx, now, 20)
	if err != nil {
		return false
	}
	for _, m := range pending {
		if m.ClaimedBy == "" || m.ClaimedAt.Before(now.Add(-archive.ClaimLease)) {
			return true
		}
	}
	return false
}
