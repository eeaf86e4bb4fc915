package server

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// Run is the daemon: it fetches new mail, handles each mail (HandleMail),
// sends the outbox, marks the mail done, fires the timers that are due
// (RunTimers: reminders, time-outs), and waits until the earlier of new
// mail (IDLE or polling) and the next timer (scheduler.go), until ctx
// ends; while it waits it sends what falls due in the outbox
// (outbox_wake.go). Connection trouble is retried with capped backoff;
// Run returns nil when ctx ends, once the engine's searches have
// stopped. An engine search runs beside the loop and wakes it when it
// ends (engine.go).
func (s *Server) Run(ctx context.Context) error {
	if s.opts.Inbox == nil || s.opts.Sender == nil {
		return errors.New("server: Run needs Options.Inbox and Options.Sender")
	}
	defer s.engine.Wait()
	rescan := true // the first poll reads the whole inbox: mails handled but not yet moved are finished off
	backoff := time.Second
	var down time.Time // the first failure since the mailbox last worked; zero while it works
	for ctx.Err() == nil {
		s.held.report(s.log, s.opts.Now()) // what the caps held back, once a minute (held.go)
		err := s.Poll(ctx, rescan)
		if err == nil {
			rescan = false
			backoff = time.Second
			down = time.Time{}
			s.FlushOutbox(ctx)
			_, err = s.RunTimers(ctx)
			s.FlushOutbox(ctx)
		}
		if err == nil {
			wctx, cancel := s.waitContext(ctx)
			stopWatch := s.watchOutbox(ctx) // mail queued by another process (outbox_wake.go)
			err = s.opts.Inbox.Wait(wctx)
			stopWatch()
			woke := errors.Is(context.Cause(wctx), errEngineDone)
			cancel()
			if err == nil || errors.Is(err, context.DeadlineExceeded) || woke {
				continue
			}
		}
		if ctx.Err() != nil {
			break
		}
		// After any failure read the whole inbox again: a mail whose Done
		// failed is below the remembered UID, and only a rescan finds it
		// (HandleMail then sees it processed and just marks it done).
		rescan = true
		if down.IsZero() {
			down = s.opts.Now()
		}
		s.log.Warn("mail loop", "err", err, "retry_in", backoff)
		sleep(ctx, backoff+time.Duration(rand.Int64N(int64(backoff/4)+1)))
		backoff = min(backoff*2, time.Minute)
		if r, ok := s.opts.Inbox.(reconnecter); ok && errors.Is(err, mailer.ErrConnection) {
			s.reconnect(ctx, r, down)
		}
	}
	return nil
}

// reconnecter is an Inbox that can dial its server again, as
// *mailer.Inbox does.
type reconnecter interface {
	Reconnect(ctx context.Context) error
}

// maxReconnectQuiet is the longest Run stays silent while the mailbox is
// unreachable: an operator watching the log sees that it is still down.
const maxReconnectQuiet = 30 * time.Second

// authPause bounds the pause after the IMAP server rejects the log-in
// (mailer.ErrAuth): mailer.AuthRetryDelay of the rejections in a row, a
// minute doubling up to half an hour. A variable for tests.
var authPause = struct{ min, max time.Duration }{mailer.DefaultAuthRetryMinDelay, mailer.DefaultAuthRetryMaxDelay}

// reconnect dials the mailbox again until it succeeds or ctx ends. While
// the server stays unreachable it logs a warning at least every
// maxReconnectQuiet (or WaitCap, when shorter) with how long it has been
// down and the last error, and once connected again how long it was
// down (trial report §9.1: Reconnect retried silently for as long as the
// server was away, and said so only at shutdown). A rejected log-in (a
// wrong password, a revoked token) is logged as an error and tried again
// after a pause that doubles with each rejection, from a minute up to
// half an hour (authPause; issue 21: retried at once, a wrong password
// gets the account locked by the provider). Another refusal Reconnect
// does not retry is logged and returned to Run, which tries again after
// its backoff. The end of ctx is not logged: that is the daemon stopping.
// down is when the mailbox was first found broken: "down_for" counts from
// then, the pause before the first attempt included (issue 21 §7: it used
// to count from the first attempt only).
func (s *Server) reconnect(ctx context.Context, r reconnecter, down time.Time) {
	quiet := min(maxReconnectQuiet, s.opts.WaitCap)
	rejected := 0
	for {
		rctx, cancel := context.WithTimeout(ctx, quiet)
		err := r.Reconnect(rctx)
		cancel()
		switch {
		case err == nil:
			s.log.Info("IMAP reconnected", "down_for", s.opts.Now().Sub(down).Round(time.Second))
			return
		case ctx.Err() != nil:
			return
		case errors.Is(err, mailer.ErrAuth):
			rejected++
			pause := mailer.AuthRetryDelay(rejected, authPause.min, authPause.max)
			s.log.Error("IMAP login rejected, waiting before the next attempt", "rejections", rejected, "retry_in", pause,
				"down_for", s.opts.Now().Sub(down).Round(time.Second), "err", err)
			sleep(ctx, pause)
		case errors.Is(err, context.DeadlineExceeded):
			s.log.Warn("IMAP still unreachable, retrying", "down_for", s.opts.Now().Sub(down).Round(time.Second), "err", err)
		default:
			s.log.Warn("reconnect failed", "err", err)
			return
		}
	}
}

// Poll fetches the mails after the remembered UID (all of them when rescan
// is set or UIDVALIDITY changed) and handles them in UID order: decide and
// commit, send the outbox, mark the mail done. It stops at the first mail
// that cannot be committed, leaving it unread for the next poll.
func (s *Server) Poll(ctx context.Context, rescan bool) error {
	start := s.opts.Now() // every mail that arrived before is fetched below
	validity, last, err := s.store.MailboxState(ctx, s.opts.Mailbox)
	if err != nil && !errors.Is(err, archive.ErrNotFound) {
		return err
	}
	if rescan {
		last = 0
	}
	msgs, current, err := s.opts.Inbox.Fetch(ctx, validity, last, s.opts.MaxMailBytes)
	if err != nil {
		return err
	}
	if current != validity && validity != 0 {
		s.log.Warn("UIDVALIDITY changed: rescanning the mailbox", "old", validity, "new", current)
	}
	for _, m := range msgs {
		if err := s.HandleMail(ctx, m); err != nil {
			return err
		}
		s.FlushOutbox(ctx)
		if err := s.opts.Inbox.Done(ctx, m.UID); err != nil {
			return err
		}
	}
	s.polled.Store(start.UnixNano()) // the inbox is read up to start (Decision C4)
	return nil
}

// FlushOutbox sends every pending mail that is due, in order per game.
// A temporary SMTP failure (4xx, network) schedules a retry with doubling
// delay; a permanent one (5xx), or too many attempts, marks the mail failed
// and logs it for the operator (`taflmail outbox`).
//
// A mail is sent and its result recorded even when ctx ends meanwhile (the
// Sender's own timeout bounds it): abandoning an SMTP transaction after
// DATA could deliver the mail without recording it, and the restarted
// daemon would send it twice. ctx is looked at only between mails.
func (s *Server) FlushOutbox(ctx context.Context) {
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	for round := 0; round < 100 && stop.Err() == nil; round++ {
		now := s.opts.Now()
		pending, err := s.store.PendingOutbox(ctx, now, 20)
		if err != nil {
			s.log.Error("reading the outbox failed", "err", err)
			return
		}
		if len(pending) == 0 {
			return
		}
		progress, markFailed := false, false
		held := map[string]bool{} // game and recipients of a mail deferred in this round
		for _, m := range pending {
			if stop.Err() != nil {
				return
			}
			key := m.GameID + "\x00" + strings.Join(m.To, ",")
			if held[key] {
				continue // a later mail must not overtake a deferred one
			}
			// Claim the mail first: a second process on this archive (one
			// that slipped past the daemon's lock) then never sends it too.
			claimed, err := s.store.ClaimOutbox(ctx, m.ID, s.owner, s.opts.Now())
			if errors.Is(err, archive.ErrNotFound) {
				continue // the engine's reply took its place meanwhile (engine_hold.go)
			}
			if err != nil {
				s.log.Error("claiming an outbox mail failed", "id", m.ID, "err", err)
				return
			}
			if !claimed {
				s.log.Warn("outbox mail claimed by another process: not sent here", "id", m.ID)
				held[key] = true
				continue
			}
			err = s.opts.Sender.Send(ctx, m.From, m.To, m.Raw)
			if err == nil {
				progress = true
				s.opts.Observer.ReplySent()
				if m.Attempts > 0 {
					s.log.Info("sending succeeded after a retry", "id", m.ID, "to", m.To, "attempts", m.Attempts+1,
						"waited", s.opts.Now().Sub(m.CreatedAt).Round(time.Second), "last_err", m.LastError)
				}
				if err := s.store.MarkSent(ctx, m.ID, s.opts.Now()); err != nil {
					// the mail went out but is still pending: finish this
					// batch, then stop, or every round would send it again
					s.log.Error("recording a sent mail failed", "id", m.ID, "err", err)
					markFailed = true
				}
				continue
			}
			held[key] = true
			var se *mailer.SendError
			temporary := !errors.As(err, &se) || se.Temporary
			if temporary && m.Attempts+1 < s.opts.MaxAttempts {
				delay := s.opts.RetryAfter << min(m.Attempts, 16)
				delay = min(delay, 6*time.Hour)
				s.log.Warn("sending deferred", "id", m.ID, "to", m.To, "err", err, "retry_in", delay)
				s.opts.Observer.ReplyDeferred()
				if err := s.store.MarkRetry(ctx, m.ID, now.Add(delay), err.Error()); err != nil {
					s.log.Error("recording a retry failed", "id", m.ID, "err", err)
				}
				continue
			}
			s.log.Error("sending failed for good", "id", m.ID, "to", m.To, "err", err)
			s.opts.Observer.ReplyFailed()
			if err := s.store.MarkFailed(ctx, m.ID, err.Error()); err != nil {
				s.log.Error("recording a failed mail failed", "id", m.ID, "err", err)
			} else {
				s.invitationFailed(ctx, m) // the challenger learns of it (invitations.go)
			}
		}
		if !progress || markFailed {
			return
		}
	}
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
