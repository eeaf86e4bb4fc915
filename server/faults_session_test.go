package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// sessionSender is the fake Sender with the SessionSender add-on. Its
// sessions hand each mail to the harness's fakeSender (the same list of
// sent mails); fail, when set, decides the outcome of Send number i (from
// 1) of session number n (from 1) before that. It counts the sessions
// opened and closed and the mails sent through them, and a Send straight
// to the fakeSender is counted apart (direct).
type sessionSender struct {
	fake           *fakeSender
	fail           func(n, i int) error
	opened, closed int
	viaSession     int
	direct         int
}

var _ referee.SessionSender = (*sessionSender)(nil)

func (s *sessionSender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	s.direct++
	return s.fake.Send(ctx, from, to, raw)
}

func (s *sessionSender) Session() mailer.Session {
	s.opened++
	return &fakeSession{s: s, n: s.opened}
}

// fakeSession is one session of a sessionSender.
type fakeSession struct {
	s      *sessionSender
	n, i   int
	closed bool
}

func (f *fakeSession) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if f.closed {
		return &mailer.SendError{Temporary: true, Err: mailer.ErrSessionClosed}
	}
	f.i++
	if f.s.fail != nil {
		if err := f.s.fail(f.n, f.i); err != nil {
			return err
		}
	}
	f.s.viaSession++
	return f.s.fake.Send(ctx, from, to, raw)
}

// Close fails, as a QUIT to a relay that hung up: that changes no mail's
// outcome.
func (f *fakeSession) Close() error {
	f.closed = true
	f.s.closed++
	return &mailer.SendError{Temporary: true, Err: errors.New("connection reset by peer")}
}

// TestFaultSMTPSessionHalfWay: the round of a move's two replies goes
// over one session; its connection breaks on the second after the first
// was taken. The first is recorded sent, the second deferred (and not
// sent twice); the next flush sends it over a new session. Every session
// is closed, and no mail went past the sessions through Send.
func TestFaultSMTPSessionHalfWay(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	ss := &sessionSender{fake: h.sender}
	h.srv.Opts.Sender = ss
	lost := &mailer.SendError{Temporary: true, Err: errors.New("connection lost after the message's last line")}
	ss.fail = func(n, i int) error {
		if n == 1 && i == 2 {
			return lost
		}
		return nil
	}
	sent := h.reply(alice, "d1-e1")
	if ss.opened != 1 || ss.closed != 1 || len(sent) != 1 || ss.viaSession != 1 {
		t.Fatalf("the move's round: %d sessions opened, %d closed, %d mails sent (%d through a session); want 1, 1, 1, 1",
			ss.opened, ss.closed, len(sent), ss.viaSession)
	}
	byStatus := map[archive.OutboxStatus][]archive.OutboxMail{}
	for _, o := range h.outbox() {
		byStatus[o.Status] = append(byStatus[o.Status], o)
	}
	pending := byStatus[archive.Pending]
	if len(pending) != 1 || pending[0].Attempts != 1 || pending[0].LastError != lost.Error() || pending[0].To[0] == sent[0].to {
		t.Fatalf("pending after the round: %+v; want the other player's reply, deferred once with %q", pending, lost)
	}
	h.now = h.now.Add(time.Hour)
	before := len(h.sender.sent)
	h.srv.FlushOutbox(context.Background())
	if ss.opened != 2 || ss.closed != 2 || len(h.sender.sent) != before+1 || h.sender.sent[before].msg.MessageID != pending[0].MessageID {
		t.Fatalf("the retry: %d sessions opened, %d closed, %d mails sent; want 2, 2 and the deferred one",
			ss.opened, ss.closed, len(h.sender.sent)-before)
	}
	times := map[string]int{}
	for _, s := range h.sender.sent {
		times[s.msg.MessageID]++
	}
	for _, o := range h.outbox() {
		if o.Status != archive.Sent || times[o.MessageID] != 1 {
			t.Errorf("outbox mail %s: %s, delivered %d times; want sent, once", o.MessageID, o.Status, times[o.MessageID])
		}
	}
	if ss.direct != 0 {
		t.Errorf("%d mails went through Send beside the sessions", ss.direct)
	}
	// A flush with nothing due opens no session.
	h.srv.FlushOutbox(context.Background())
	if ss.opened != 2 {
		t.Errorf("a flush with nothing due opened a session (%d in all)", ss.opened)
	}
}
