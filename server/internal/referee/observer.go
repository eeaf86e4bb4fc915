package referee

import "time"

// Observer is told of the referee's events as they happen, for counters
// such as those of /metrics (issue 21); the health package implements it
// with Prometheus counters, so server links no metrics library. Its
// methods are called from the mail loop, the outbox and the engine's
// goroutines and must be safe for concurrent use and quick.
type Observer interface {
	// MailHandled is called once per mail committed, with its
	// disposition: "applied", "refused", "ignored" or "error".
	MailHandled(disposition string)
	// ReplySent is called when the relay took an outbox mail.
	ReplySent()
	// ReplyDeferred is called when the relay refused an outbox mail for
	// now and a retry is booked.
	ReplyDeferred()
	// ReplyFailed is called when an outbox mail was given up for good.
	ReplyFailed()
	// EngineThought is called after each engine search with the time it
	// took.
	EngineThought(d time.Duration)
}

// noObserver is the Observer when Options.Observer is nil.
type noObserver struct{}

func (noObserver) MailHandled(string)          {}
func (noObserver) ReplySent()                  {}
func (noObserver) ReplyDeferred()              {}
func (noObserver) ReplyFailed()                {}
func (noObserver) EngineThought(time.Duration) {}
