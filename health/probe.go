package health

import (
	"context"
	"log/slog"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

// DefaultProbeInterval is how often [ProbeSMTP] checks a relay that is
// away when ProbeOptions.Interval is 0: a relay back is noticed within a
// minute, and one that stays away costs one connection attempt a minute.
const DefaultProbeInterval = time.Minute

// ProbeOptions configure [ProbeSMTP]. Status and Check are required.
type ProbeOptions struct {
	// Status is the relay's status (mailer.Sender.Status).
	Status func() mailer.SMTPStatus
	// Check connects and logs in without sending anything
	// (mailer.Sender.Check, as `taflmail config check --connect` does);
	// it notes its outcome in Status.
	Check func(ctx context.Context) error
	// Recovered is called once the relay is back (a check succeeded, or
	// a mail went out meanwhile): it makes the deferred mails due now and
	// wakes the sender, and returns how many mails it made due. Nil does
	// nothing.
	Recovered func(ctx context.Context) (int, error)
	// Interval is the time between two looks at Status, and so between
	// two checks, default DefaultProbeInterval.
	Interval time.Duration
	// Logger receives the probe's two lines per outage (info): when it
	// starts probing and when the relay is back. Nil discards them.
	Logger *slog.Logger
	// Now is the clock, default time.Now.
	Now func() time.Time
}

// unreachable reports whether the relay's last attempt failed before the
// relay answered: the connection, TLS or the log-in failed
// (SMTPStatus.LastErrorAt after LastContact). A relay that answered and
// took the log-in but deferred or refused the mail is not unreachable: a
// check would succeed and tell nothing new.
func unreachable(st mailer.SMTPStatus) bool {
	return st.LastError != "" && st.LastContact.Before(st.LastErrorAt)
}

// NeedsProbe reports whether [ProbeSMTP] checks the relay at now: it is
// unreachable (its last attempt, a Send or a Check, failed before the
// relay answered and took the log-in), and, after rejected log-ins, the
// pause before the next log-in (SMTPStatus.NextAuth) is over, so that
// probing costs the account no more log-ins than sending would (issue
// 21). A relay that takes the log-in and defers the mail (a full
// mailbox) is not probed: the outbox's back-off retries the mail.
func NeedsProbe(st mailer.SMTPStatus, now time.Time) bool {
	return unreachable(st) && (st.AuthRejections == 0 || !now.Before(st.NextAuth))
}

// ProbeSMTP watches the relay until ctx ends (issue 21 §1: "SMTP
// delivered or was reachable recently"). Every Interval it looks at
// Status; while [NeedsProbe] holds it calls Check. Once the relay
// answers again, by a check of its own or a mail that went out
// meanwhile, it calls Recovered, so that the replies the relay deferred
// are retried at once rather than at the end of their back-off. A
// successful check makes the relay "reachable" for [Monitor.Check], not
// delivering: its failing time runs on until a mail goes out. It logs
// only the changes: "probing the SMTP relay" when the relay is first
// found away, "SMTP relay reachable again" when it is back.
func ProbeSMTP(ctx context.Context, o ProbeOptions) {
	if o.Interval <= 0 {
		o.Interval = DefaultProbeInterval
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	tick := time.NewTicker(o.Interval)
	defer tick.Stop()
	var away time.Time // the failure that found the relay away; zero while it is not
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		st := o.Status()
		if away.IsZero() {
			if !unreachable(st) {
				continue
			}
			away = st.LastErrorAt
			logger.Info("probing the SMTP relay until it answers", "interval", o.Interval, "err", st.LastError)
		}
		checked := false
		if NeedsProbe(st, o.Now()) {
			if o.Check(ctx) != nil {
				continue // still away; Status has the error
			}
			checked = true
			st = o.Status()
		}
		if unreachable(st) {
			continue // the pause after rejected log-ins lasts
		}
		// Back: checked just now, or a Send reached the relay meanwhile.
		// A Send that reached it but had its mail deferred proves no
		// delivery, so its mails keep their back-off.
		down := o.Now().Sub(away).Round(time.Second)
		due := 0
		if (checked || st.LastDelivery.After(away)) && o.Recovered != nil {
			n, err := o.Recovered(ctx)
			if err != nil {
				logger.Warn("SMTP relay reachable again; making the deferred replies due failed", "err", err)
			}
			due = n
		}
		logger.Info("SMTP relay reachable again", "down_for", down, "replies_due_now", due)
		away = time.Time{}
	}
}
