package referee

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
	if s.Opts.Inbox == nil || s.Opts.Sender == nil {
		return errors.New("server: Run needs Options.Inbox and Options.Sender")
	}
	defer s.Engine.Wait()
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
// as soon as Run is woken (the engine runner's Woken: an engine turn
// ended, or Wake), so that the engine's reply, or what Wake made due,
// goes out at once.
func (s *Server) waitContext(ctx context.Context) (context.Context, context.CancelFunc) {
	tctx, cancelTimeout := context.WithTimeout(ctx, s.UntilNextTimer(ctx))
	wctx, cancel := context.WithCancelCause(tctx)
	stop := make(chan struct{})
	go func() {
		select {
		case <-s.Engine.Woken():
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

// Poll fetches the mails after the remembered UID (all of them when rescan
// is set or UIDVALIDITY changed) and handles them in UID order, in chunks
// of up to pollChunk (handleChunk): decide and commit each, send the
// outbox, mark each mail done. It stops at the first mail that cannot be
// committed, leaving it unread for the next poll.
func (s *Server) Poll(ctx context.Context, rescan bool) error {
	start := s.Opts.Now() // every mail that arrived before is fetched below
	validity, last, err := s.recordPort().MailboxState(ctx, s.Opts.Mailbox)
	if err != nil && !errors.Is(err, archive.ErrNotFound) {
		return err
	}
	if rescan {
		last = 0
	}
	msgs, current, err := s.Opts.Inbox.Fetch(ctx, validity, last, s.Opts.MaxMailBytes)
	if err != nil {
		return err
	}
	if current != validity && validity != 0 {
		s.Log.Warn("UIDVALIDITY changed: rescanning the mailbox", "old", validity, "new", current)
	}
	for len(msgs) > 0 {
		n := min(len(msgs), pollChunk)
		if err := s.handleChunk(ctx, msgs[:n]); err != nil {
			return err
		}
		msgs = msgs[n:]
	}
	s.polled.Store(start.UnixNano()) // the inbox is read up to start (Decision C4)
	return nil
}

// pollChunk is how many fetched mails Poll decides before it sends
// their replies and marks them done: the outbox's transactions are then
// shared by the chunk's mails (FlushOutbox claims and records a round of
// replies in one transaction each), while the first mail's replies wait
// for at most pollChunk-1 decisions.
const pollChunk = 20

// handleChunk handles the mails ms in order: each is decided and
// committed (HandleMail, one transaction each, a later mail seeing what
// an earlier one wrote); then the outbox is sent, with the replies of
// all of them (FlushOutbox); then each committed mail is marked done, in
// order. A mail that cannot be committed ends the chunk: those before it
// are still sent and marked done, it and those after it stay in the
// inbox for the next poll, and its error is returned. So a mail is marked
// done only once its decision is committed and its replies were handed
// to SMTP, deferred or failed, each recorded in the archive.
func (s *Server) handleChunk(ctx context.Context, ms []*mailer.Message) error {
	var handleErr error
	handled := 0
	for _, m := range ms {
		if handleErr = s.HandleMail(ctx, m); handleErr != nil {
			break
		}
		handled++
	}
	if handled > 0 {
		s.FlushOutbox(ctx)
	}
	for _, m := range ms[:handled] {
		if err := s.Opts.Inbox.Done(ctx, m.UID); err != nil {
			return err
		}
	}
	return handleErr
}

// FlushOutbox sends every pending mail that is due, in order per game.
// A temporary SMTP failure (4xx, network) schedules a retry with doubling
// delay; a permanent one (5xx), or too many attempts, marks the mail failed
// and logs it for the operator (`taflmail outbox`).
//
// It works in rounds of up to roundMails mails, each with two archive
// transactions whatever its size: one claims the round's mails
// (archive.Store.ClaimOutboxes) before any goes to SMTP, one records
// those sent and drops the claims of those not tried
// (archive.Store.MarkSentAll) after the last; only a deferral or a
// failure is recorded on its own, at once. A crash between the two sends
// the round's sent mails again after restart, with the same bytes and
// Message-IDs (docs/architecture.md, "The mail loop's transactions").
//
// A mail is sent and its result recorded even when ctx ends meanwhile (the
// Sender's own timeout bounds it): abandoning an SMTP transaction after
// DATA could deliver the mail without recording it, and the restarted
// daemon would send it twice. ctx is looked at only between mails.
func (s *Server) FlushOutbox(ctx context.Context) {
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	for round := 0; round < 100 && stop.Err() == nil; round++ {
		progress, ok := s.flushRound(ctx, stop)
		if !ok || !progress {
			return
		}
	}
}

// roundMails is the number of outbox mails FlushOutbox reads, claims
// and records in one round: at least the replies of a poll's batch of
// mails (two or three a mail), few enough that their raw bytes are no
// burden and that a claim taken at the round's start is far from
// archive.ClaimLease when the last is sent.
const roundMails = 50

// flushRound reads, claims, sends and records one round of due outbox
// mails (FlushOutbox). progress says whether a mail was sent; ok is
// false when FlushOutbox must stop: nothing was due, an archive call
// failed (a sent mail that could not be recorded included: every further
// round would send it again), or stop ended.
func (s *Server) flushRound(ctx, stop context.Context) (progress, ok bool) {
	now := s.Opts.Now()
	pending, err := s.outboxPort().PendingOutbox(ctx, now, roundMails)
	if err != nil {
		s.Log.Error("reading the outbox failed", "err", err)
		return false, false
	}
	if len(pending) == 0 {
		return false, false
	}
	ids := make([]int64, len(pending))
	for i, m := range pending {
		ids[i] = m.ID
	}
	// Claim the mails first: a second process on this archive (one that
	// slipped past the daemon's lock) then never sends them too.
	claims, err := s.outboxPort().ClaimOutboxes(ctx, ids, s.owner, now)
	if err != nil {
		s.Log.Error("claiming outbox mails failed", "ids", len(ids), "err", err)
		return false, false
	}
	claimedAt := now
	var sent, release []int64
	held := map[string]bool{} // game and recipients of a mail deferred in this round
	ok = true
	for i, m := range pending {
		if claims[i] != archive.ClaimTaken {
			if claims[i] == archive.ClaimRefused {
				s.Log.Warn("outbox mail claimed by another process: not sent here", "id", m.ID)
				held[m.GameID+"\x00"+strings.Join(m.To, ",")] = true
			} // ClaimGone: the engine's reply took its place meanwhile (engine_hold.go)
			continue
		}
		key := m.GameID + "\x00" + strings.Join(m.To, ",")
		if held[key] || stop.Err() != nil || !ok {
			release = append(release, m.ID) // a later mail must not overtake a deferred one
			continue
		}
		if s.Opts.Now().Sub(claimedAt) > archive.ClaimLease/2 {
			// A slow SMTP server: renew the claims not yet used before
			// they lapse and another sender may take them.
			claimedAt = s.Opts.Now()
			if !s.renewClaims(ctx, pending[i:], claims[i:], claimedAt) {
				ok = false
			}
			if !ok || claims[i] != archive.ClaimTaken {
				if claims[i] == archive.ClaimTaken {
					release = append(release, m.ID)
				} else {
					held[key] = true
				}
				continue
			}
		}
		err := s.Opts.Sender.Send(ctx, m.From, m.To, m.Raw)
		if err == nil {
			progress = true
			sent = append(sent, m.ID)
			s.Opts.Observer.ReplySent()
			if m.Attempts > 0 {
				s.Log.Info("sending succeeded after a retry", "id", m.ID, "to", m.To, "attempts", m.Attempts+1,
					"waited", s.Opts.Now().Sub(m.CreatedAt).Round(time.Second), "last_err", m.LastError)
			}
			continue
		}
		held[key] = true
		s.sendFailed(ctx, m, now, err)
	}
	if err := s.outboxPort().MarkSentAll(ctx, sent, s.Opts.Now(), s.owner, release); err != nil {
		// the mails went out but are still pending: stop, or every
		// round would send them again
		s.Log.Error("recording sent mails failed", "ids", sent, "err", err)
		return progress, false
	}
	return progress, ok
}

// renewClaims claims again, at at, the mails of pending whose claims
// (the same index) are held, and writes the outcome into claims: a claim
// that lapsed meanwhile may have been taken by another sender. It
// reports false, the claims unchanged, when the archive failed.
func (s *Server) renewClaims(ctx context.Context, pending []archive.OutboxMail, claims []archive.ClaimState, at time.Time) bool {
	var ids []int64
	var idx []int
	for j, m := range pending {
		if claims[j] == archive.ClaimTaken {
			ids, idx = append(ids, m.ID), append(idx, j)
		}
	}
	renewed, err := s.outboxPort().ClaimOutboxes(ctx, ids, s.owner, at)
	if err != nil {
		s.Log.Error("claiming outbox mails failed", "ids", len(ids), "err", err)
		return false
	}
	for k, j := range idx {
		claims[j] = renewed[k]
	}
	return true
}

// sendFailed records that sending outbox mail m failed with err at now:
// a temporary failure is retried after a doubling delay (MarkRetry), a
// permanent one, or the last attempt, marks it failed (MarkFailed) and
// tells a challenger whose invitation it was.
func (s *Server) sendFailed(ctx context.Context, m archive.OutboxMail, now time.Time, err error) {
	var se *mailer.SendError
	temporary := !errors.As(err, &se) || se.Temporary
	if temporary && m.Attempts+1 < s.Opts.MaxAttempts {
		delay := s.Opts.RetryAfter << min(m.Attempts, 16)
		delay = min(delay, 6*time.Hour)
		s.Log.Warn("sending deferred", "id", m.ID, "to", m.To, "err", err, "retry_in", delay)
		s.Opts.Observer.ReplyDeferred()
		if err := s.outboxPort().MarkRetry(ctx, m.ID, now.Add(delay), err.Error()); err != nil {
			s.Log.Error("recording a retry failed", "id", m.ID, "err", err)
		}
		return
	}
	s.Log.Error("sending failed for good", "id", m.ID, "to", m.To, "err", err)
	s.Opts.Observer.ReplyFailed()
	if err := s.outboxPort().MarkFailed(ctx, m.ID, err.Error()); err != nil {
		s.Log.Error("recording a failed mail failed", "id", m.ID, "err", err)
	} else {
		s.invitationFailed(ctx, m) // the challenger learns of it (invitations.go)
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
