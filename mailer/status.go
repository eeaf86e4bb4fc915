package mailer

import "time"

// IMAPStatus is what an [Inbox] knows of its own health: enough for a
// health check to say whether the referee reads its mail (issue 21). Times
// are the machine's clock at the event; zero means "not yet".
type IMAPStatus struct {
	// LoggedIn reports a session that is logged in and not known to be
	// broken.
	LoggedIn bool
	// LastLogin is the end of the last successful log-in (DialInbox,
	// Reconnect).
	LastLogin time.Time
	// LastPoll is the end of the last successful Fetch: the mailbox was
	// read up to then.
	LastPoll time.Time
	// LastError is the last failure of a log-in or a command, "" when
	// none came since the last success; LastErrorAt is when.
	LastError   string
	LastErrorAt time.Time
	// LoginRejections counts the log-ins the server rejected (ErrAuth)
	// since the last successful one.
	LoginRejections int
	// Reconnects counts the successful log-ins after the first.
	Reconnects int
}

// SMTPStatus is what a [Sender] knows of its relay's health (issue 21).
// Times are the machine's clock at the event; zero means "not yet".
type SMTPStatus struct {
	// LastDelivery is when the relay last took a mail (Send).
	LastDelivery time.Time
	// LastContact is when the relay last answered EHLO and, if one is
	// configured, accepted the log-in: it was reachable and took the
	// credentials (Send or Check).
	LastContact time.Time
	// LastError is the last failure of Send or Check, "" when none came
	// since the last success; LastErrorAt is when.
	LastError   string
	LastErrorAt time.Time
	// LastFailedDelivery is when a Send last failed for a reason that
	// may pass (a temporary *SendError: the relay away, the log-in
	// rejected, 4xx, a Send held back by the pause after rejected
	// log-ins). FailingSince is the first such failure since the relay
	// last took a mail; it is zero while the last Send that ended
	// delivered, and only a delivery sets it back to zero: Check, and a
	// relay that accepts the log-in but defers the mail, do not.
	LastFailedDelivery time.Time
	FailingSince       time.Time
	// AuthRejections counts the log-ins (AUTH) the relay rejected since
	// the last accepted one; while it is above 0, Send makes no new
	// attempt before NextAuth (see [SMTPConfig].AuthRetryMinDelay).
	AuthRejections int
	NextAuth       time.Time
}

// Defaults of the pause after rejected log-ins ([SMTPConfig]
// AuthRetryMinDelay and AuthRetryMaxDelay): a minute after the first
// rejection, doubling up to half an hour, so that a wrong password or a
// revoked token costs the provider's account at most about fifty failed
// log-ins a day (issue 21: a mailbox gets locked by providers that count
// them).
const (
	DefaultAuthRetryMinDelay = time.Minute
	DefaultAuthRetryMaxDelay = 30 * time.Minute
)

// AuthRetryDelay is the pause before the next log-in after n rejected
// ones in a row (n ≥ 1): minDelay·2ⁿ⁻¹, at most maxDelay. It has no
// jitter: one daemon per account, nothing to spread.
func AuthRetryDelay(n int, minDelay, maxDelay time.Duration) time.Duration {
	if n < 1 {
		return 0
	}
	d := maxDelay
	if n <= 62 {
		if e := minDelay << (n - 1); e > 0 && e < maxDelay {
			d = e
		}
	}
	return d
}
