package referee

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

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
// A round's mails go over one SMTP connection when the Sender is a
// SessionSender (a session opened for the round, closed after its record),
// else one connection each through Send; either way each mail is marked
// sent only after its own DATA was accepted.
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
	send := s.Opts.Sender.Send
	if ss, ok := s.Opts.Sender.(SessionSender); ok {
		// One connection for the round; it connects at its first Send,
		// so a round with nothing to send opens none. Closed after the
		// round is recorded: a QUIT that hangs delays no record.
		session := ss.Session()
		defer func() {
			if err := session.Close(); err != nil {
				s.Log.Debug("closing the SMTP session failed", "err", err)
			}
		}()
		send = session.Send
	}
	var sent, release []int64
	held := map[string]bool{} // game and recipients of a mail deferred in this round
	ok = true
	for i, m := range pending {
		if claims[i] != archive.ClaimTaken {
			if claims[i] == archive.ClaimRefused {
				s.Log.Warn("outbox mail claimed by another process: not sent here", "id", m.ID)
				held[m.GameID+"\x00"+strings.Join(m.To, ",")] = true
			} // ClaimGone: the engine's reply took its place meanwhile (internal/opponent)
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
		err := send(ctx, m.From, m.To, m.Raw)
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
