package referee

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

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
// ends (internal/opponent).
func (s *Server) Run(ctx context.Context) error {
	if s.Opts.Inbox == nil || s.Opts.Sender == nil {
		return errors.New("server: Run needs Options.Inbox and Options.Sender")
	}
	// on the way out, wait for the modules' work beside the loop (the
	// engine's searches, WorkWaiter)
	defer s.WaitWork()
	rescan := true // the first poll reads the whole inbox: mails handled but not yet moved are finished off
	backoff := time.Second
	var down time.Time // the first failure since the mailbox last worked; zero while it works
	for ctx.Err() == nil {
		s.Held.Report(s.Log, s.Opts.Now()) // what the caps held back, once a minute (held.go)
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
			err = s.Opts.Inbox.Wait(wctx)
			stopWatch()
			woke := errors.Is(context.Cause(wctx), errWoken)
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
			down = s.Opts.Now()
		}
		s.Log.Warn("mail loop", "err", err, "retry_in", backoff)
		sleep(ctx, backoff+time.Duration(rand.Int64N(int64(backoff/4)+1)))
		backoff = min(backoff*2, time.Minute)
		if r, ok := s.Opts.Inbox.(reconnecter); ok && errors.Is(err, mailer.ErrConnection) {
			s.reconnect(ctx, r, down)
		}
	}
	return nil
}

// errWoken is the cause that ends Run's wait for mail when Run is woken:
// an engine turn ended, or Wake was called.
var errWoken = errors.New("server: Run was woken")

// waitContext returns the context Run waits for mail under: it ends at
// the next module's due work (UntilNextTimer), or with the cause errWoken
// as soon as Run is woken (Wake: an engine turn ended, or the SMTP relay
// is back), so that the engine's reply, or what Wake made due,
// goes out at once.
func (s *Server) waitContext(ctx context.Context) (context.Context, context.CancelFunc) {
	tctx, cancelTimeout := context.WithTimeout(ctx, s.UntilNextTimer(ctx))
	wctx, cancel := context.WithCancelCause(tctx)
	stop := make(chan struct{})
	go func() {
		select {
		case <-s.wake:
			cancel(errWoken)
		case <-stop:
		case <-wctx.Done():
		}
	}()
	return wctx, func() { close(stop); cancel(nil); cancelTimeout() }
}

// reconnecter is an Inbox that can dial its server again, as
// *mailer.Inbox does.
type reconnecter interface {
	// Reconnect closes the connection and dials the server again; an
	// error is the dial's or the login's.
	Reconnect(ctx context.Context) error
}

// maxReconnectQuiet is the longest Run stays silent while the mailbox is
// unreachable: an operator watching the log sees that it is still down.
const maxReconnectQuiet = 30 * time.Second

// AuthPause bounds the pause after the IMAP server rejects the log-in
// (mailer.ErrAuth): mailer.AuthRetryDelay of the rejections in a row, a
// minute doubling up to half an hour. A variable for tests.
var AuthPause = struct{ Min, Max time.Duration }{mailer.DefaultAuthRetryMinDelay, mailer.DefaultAuthRetryMaxDelay}

// reconnect dials the mailbox again until it succeeds or ctx ends. While
// the server stays unreachable it logs a warning at least every
// maxReconnectQuiet (or WaitCap, when shorter) with how long it has been
// down and the last error, and once connected again how long it was
// down (trial report §9.1: Reconnect retried silently for as long as the
// server was away, and said so only at shutdown). A rejected log-in (a
// wrong password, a revoked token) is logged as an error and tried again
// after a pause that doubles with each rejection, from a minute up to
// half an hour (AuthPause; issue 21: retried at once, a wrong password
// gets the account locked by the provider). Another refusal Reconnect
// does not retry is logged and returned to Run, which tries again after
// its backoff. The end of ctx is not logged: that is the daemon stopping.
// down is when the mailbox was first found broken: "down_for" counts from
// then, the pause before the first attempt included (issue 21 §7: it used
// to count from the first attempt only).
func (s *Server) reconnect(ctx context.Context, r reconnecter, down time.Time) {
	quiet := min(maxReconnectQuiet, s.Opts.WaitCap)
	rejected := 0
	for {
		rctx, cancel := context.WithTimeout(ctx, quiet)
		err := r.Reconnect(rctx)
		cancel()
		switch {
		case err == nil:
			s.Log.Info("IMAP reconnected", "down_for", s.Opts.Now().Sub(down).Round(time.Second))
			return
		case ctx.Err() != nil:
			return
		case errors.Is(err, mailer.ErrAuth):
			rejected++
			pause := mailer.AuthRetryDelay(rejected, AuthPause.Min, AuthPause.Max)
			s.Log.Error("IMAP login rejected, waiting before the next attempt", "rejections", rejected, "retry_in", pause,
				"down_for", s.Opts.Now().Sub(down).Round(time.Second), "err", err)
			sleep(ctx, pause)
		case errors.Is(err, context.DeadlineExceeded):
			s.Log.Warn("IMAP still unreachable, retrying", "down_for", s.Opts.Now().Sub(down).Round(time.Second), "err", err)
		default:
			s.Log.Warn("reconnect failed", "err", err)
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
