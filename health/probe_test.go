package health

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
)

// fakeRelay is a sender's status with a Check that fails until it is
// told the relay is back.
type fakeRelay struct {
	mu      sync.Mutex
	st      mailer.SMTPStatus
	back    bool
	checks  int
	retried int
	looks   int // calls of status
}

func (f *fakeRelay) status() mailer.SMTPStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.looks++
	return f.st
}

func (f *fakeRelay) check(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checks++
	now := time.Now()
	if !f.back {
		f.st.LastError, f.st.LastErrorAt = "connection refused", now
		return errors.New("connection refused")
	}
	f.st.LastContact, f.st.LastError, f.st.LastErrorAt = now, "", time.Time{}
	return nil
}

func (f *fakeRelay) recovered(context.Context) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.retried++
	return 1, nil
}

func (f *fakeRelay) counts() (checks, retried int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.checks, f.retried
}

func (f *fakeRelay) looked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.looks
}

// TestProbeSMTP: a relay that is away is checked at each interval; once
// a check succeeds the deferred replies are made due, once, and the
// probing stops; the log has one line as it starts and one as the relay
// is back, not one per check. Conditions are waited for with a deadline.
func TestProbeSMTP(t *testing.T) {
	t0 := time.Now()
	f := &fakeRelay{st: mailer.SMTPStatus{LastError: "connection refused", LastErrorAt: t0, LastFailedDelivery: t0, FailingSince: t0}}
	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &logMu}, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ProbeSMTP(ctx, ProbeOptions{Status: f.status, Check: f.check, Recovered: f.recovered, Interval: time.Millisecond, Logger: logger})
	}()
	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				cancel()
				t.Fatalf("%s: not within 10 s", what)
			}
		}
	}
	waitUntil("three failed checks", func() bool { c, _ := f.counts(); return c >= 3 })
	if _, r := f.counts(); r != 0 {
		t.Errorf("replies made due %d times while the relay is away, want 0", r)
	}
	f.mu.Lock()
	f.back = true
	f.mu.Unlock()
	waitUntil("the replies made due", func() bool { _, r := f.counts(); return r > 0 })
	checks, _ := f.counts()
	// let it look at the status a few more times: nothing more to do
	looks := f.looked()
	waitUntil("five more rounds", func() bool { return f.looked() >= looks+5 })
	cancel()
	<-done
	if c, r := f.counts(); r != 1 || c != checks {
		t.Errorf("after the relay is back: %d checks (%d when it came back), replies made due %d times; want no more checks and once", c, checks, r)
	}
	logMu.Lock()
	out := logs.String()
	logMu.Unlock()
	if n := strings.Count(out, "probing the SMTP relay until it answers"); n != 1 {
		t.Errorf("%d lines announce the probing, want 1:\n%s", n, out)
	}
	if n := strings.Count(out, "SMTP relay reachable again"); n != 1 || !strings.Contains(out, "replies_due_now=1") {
		t.Errorf("%d lines say the relay is back (want 1, with replies_due_now=1):\n%s", n, out)
	}
	if n := strings.Count(out, "\n"); n != 2 {
		t.Errorf("%d log lines, want 2:\n%s", n, out)
	}
}

// TestProbeSMTPDeferringRelay: a relay that took the log-in and deferred
// the mail is not probed, and its deferred mails keep their back-off.
func TestProbeSMTPDeferringRelay(t *testing.T) {
	t0 := time.Now()
	f := &fakeRelay{back: true, st: mailer.SMTPStatus{LastContact: t0, LastError: "452 mailbox full", LastErrorAt: t0, LastFailedDelivery: t0, FailingSince: t0}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	status := func() mailer.SMTPStatus {
		st := f.status()
		if f.looked() == 20 {
			cancel()
		}
		return st
	}
	go func() {
		defer close(done)
		ProbeSMTP(ctx, ProbeOptions{Status: status, Check: f.check, Recovered: f.recovered, Interval: time.Millisecond})
	}()
	<-done
	if c, r := f.counts(); c != 0 || r != 0 {
		t.Errorf("a deferring relay: %d checks, replies made due %d times; want none", c, r)
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
