package mailer

import (
	"context"
	"errors"

	"github.com/emersion/go-smtp"
)

// Session hands several messages to the relay over one SMTP connection,
// so that a round of replies costs one dial, greeting, STARTTLS and AUTH
// instead of one per message (issue 19 §8). [Sender.Session] returns one;
// the referee's outbox opens one per round of mails
// (server/internal/referee, SessionSender). It is an interface so that
// the referee's tests can hand in a fake; *Sender's is the only one the
// program uses.
type Session interface {
	// Send hands raw, from the envelope sender from, to the relay for the
	// recipients to, as [Sender.Send] does: with the same errors (every
	// one a [*SendError], temporary or permanent, wrapping ErrSMTPAuth
	// for a rejected log-in), the same notes in [Sender.Status] and the
	// same bound, SMTPConfig.Timeout, on the call. A nil error means the
	// relay accepted this message's DATA; an error, that it did not (or,
	// for a connection lost after the message's last line, that it is not
	// known), and the next Send may go on: the session sends RSET after a
	// rejected message and connects anew when the connection broke.
	Send(ctx context.Context, from string, to []string, raw []byte) error
	// Close says QUIT and closes the connection, if one is open. Its
	// error changes nothing of the messages sent: each had its outcome
	// from its own Send. After Close, Send fails with a temporary
	// *SendError wrapping ErrSessionClosed.
	Close() error
}

// ErrSessionClosed is wrapped by the error of a [Session]'s Send after its
// Close.
var ErrSessionClosed = errors.New("SMTP session closed")

// Session returns a [Session] of the Sender. It does not connect: its first
// Send does, with the Sender's settings and the pause after rejected
// log-ins ([SMTPConfig] AuthRetryMinDelay) as [Sender.Send], and so does
// the first Send after the connection broke. The Session is for one
// goroutine; the Sender stays safe for concurrent use beside it.
//
// Relays limit the messages of one connection, and drop connections left
// idle: a reused connection whose Send fails with a temporary reply (4xx:
// 421 "closing", 451 or 452 "too many messages") or breaks before the
// message's last line was written is closed, and the message is sent
// once more on a fresh connection, whose outcome is final. A message is
// not tried again when its last line was written and no reply came (the
// relay may hold it; the outbox retries it later, as after Send), nor for
// a permanent reply (5xx: the message's own fault), nor when ctx ended.
func (s *Sender) Session() Session { return &session{s: s} }

// session is the Sender's [Session].
type session struct {
	s      *Sender
	c      *smtp.Client // nil until connected, and after it broke
	closed bool
}

var _ Session = (*session)(nil)

// Send implements [Session].
func (ss *session) Send(ctx context.Context, from string, to []string, raw []byte) (err error) {
	s := ss.s
	if len(to) == 0 {
		return &SendError{Err: errors.New("no recipients")}
	}
	if ss.closed {
		return &SendError{Temporary: true, Err: ErrSessionClosed}
	}
	defer func() {
		if err != nil {
			s.deliveryFailed(err)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	for {
		fresh := ss.c == nil
		if fresh {
			if err := s.held(); err != nil {
				return err
			}
			c, stop, err := s.connect(ctx)
			if err != nil {
				return err
			}
			stop() // the connection outlives this Send; the watch below guards it
			ss.c = c
		}
		c := ss.c
		watch := context.AfterFunc(ctx, func() { c.Close() })
		dotSent, err := transact(c, from, to, raw)
		if !watch() { // ctx ended: the connection is closed under the client
			ss.drop()
		}
		if err == nil {
			s.note(nil, true, true)
			return nil
		}
		se := classify(ctx, err)
		replied := isReply(err)
		if !fresh && ctx.Err() == nil && (replied && se.Temporary || !replied && !dotSent) {
			// perhaps the relay's limit of the connection: try once
			// more on a fresh one
			ss.drop()
			continue
		}
		if replied && se.Code != 421 && ss.c != nil {
			if ss.c.Reset() != nil { // RSET, so that the next message can go
				ss.drop()
			}
		} else {
			ss.drop()
		}
		s.note(se, fresh || replied, false)
		return se
	}
}

// drop closes the session's connection, if any, without QUIT.
func (ss *session) drop() {
	if ss.c != nil {
		ss.c.Close()
		ss.c = nil
	}
}

// Close implements [Session].
func (ss *session) Close() error {
	ss.closed = true
	c := ss.c
	if c == nil {
		return nil
	}
	ss.c = nil
	err := c.Quit() // bounded by the client's CommandTimeout, SMTPConfig.Timeout
	c.Close()
	if err != nil {
		return &SendError{Temporary: true, Err: err}
	}
	return nil
}
