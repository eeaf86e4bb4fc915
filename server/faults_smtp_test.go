package server

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// TestFaultSMTPTemporary: a 4xx answer is retried with doubling delay and
// the mail is sent exactly once when the SMTP server takes it; the other
// player's mail is not held up.
func TestFaultSMTPTemporary(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	id := startBrandubh(t, h)
	attempts := 0
	h.sender.fail = func(to string) error {
		if to != alice {
			return nil
		}
		attempts++
		if attempts <= 3 {
			return &mailer.SendError{Temporary: true, Code: 451, EnhancedCode: "4.7.1", Err: errors.New("greylisted, try again later")}
		}
		return nil
	}
	// alice moves; her own copy is greylisted, bob's goes out.
	t0 := h.now.Add(time.Hour) // reply advances the clock by an hour
	sent := h.reply(alice, "d1-e1")
	if len(sent) != 1 || sent[0].to != bob {
		t.Fatalf("%d mails sent, want only bob's", len(sent))
	}
	mine := func() archive.OutboxMail {
		for _, o := range h.outbox() {
			if o.To[0] == alice && o.GameID == id && strings.Contains(string(o.Raw), "d1-e1") {
				return o
			}
		}
		t.Fatal("alice's mail is not in the outbox")
		return archive.OutboxMail{}
	}
	// Attempt n+1 is due RetryAfter·2^(n-1) after attempt n.
	at := t0
	for n, delay := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute} {
		o := mine()
		if o.Status != archive.Pending || o.Attempts != n+1 || !o.NextAttempt.Equal(at.Add(delay)) {
			t.Fatalf("after attempt %d: status %s, attempts %d, next %v; want pending, %d, %v",
				n+1, o.Status, o.Attempts, o.NextAttempt, n+1, at.Add(delay))
		}
		h.now = at.Add(delay - time.Second)
		h.srv.FlushOutbox(context.Background())
		if attempts != n+1 {
			t.Fatalf("tried again before the delay: %d attempts", attempts)
		}
		at = at.Add(delay)
		h.now = at
		h.srv.FlushOutbox(context.Background())
	}
	o := mine()
	if o.Status != archive.Sent || attempts != 4 || !strings.Contains(o.LastError, "451") {
		t.Fatalf("finally: status %s after %d attempts, last error %q", o.Status, attempts, o.LastError)
	}
	n := 0
	for _, s := range h.sender.sent {
		if s.to == alice && s.msg.MessageID == o.MessageID {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("alice's mail was delivered %d times, want 1", n)
	}
	h.now = h.now.Add(24 * time.Hour)
	h.srv.FlushOutbox(context.Background())
	if attempts != 4 {
		t.Fatalf("a sent mail was tried again")
	}
	if c := strings.Count(log.String(), `msg="sending deferred"`); c != 3 {
		t.Errorf("log has %d 'sending deferred', want 3", c)
	}
}

// TestFaultSMTPOrderPerGame: while alice's mails of one game are deferred,
// later mails of that game to her wait, and when the SMTP server takes
// mail again they arrive in the order they were queued.
func TestFaultSMTPOrderPerGame(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	down := true
	h.sender.fail = func(to string) error {
		if to == alice && down {
			return &mailer.SendError{Temporary: true, Code: 421, Err: errors.New("service not available")}
		}
		return nil
	}
	h.play(id, "d1-e1", "d3-e3", "d2-e2", "d4-d1")
	var queued []string
	for _, o := range h.outbox() {
		if o.To[0] == alice && o.Status == archive.Pending {
			queued = append(queued, o.MessageID)
		}
	}
	if len(queued) != 4 {
		t.Fatalf("%d mails to alice pending, want 4", len(queued))
	}
	down = false
	h.now = h.now.Add(7 * time.Hour)
	before := len(h.sender.sent)
	h.srv.FlushOutbox(context.Background())
	var got []string
	for _, s := range h.sender.sent[before:] {
		if s.to == alice {
			got = append(got, s.msg.MessageID)
		}
	}
	if !slices.Equal(got, queued) {
		t.Fatalf("alice got %v, want %v in that order", got, queued)
	}
}

// TestFaultSMTPOrderFlaky: two mails of one game to alice are due in the
// same flush; the first is deferred again (the connection drops: 421)
// while the second would go through. The second must wait for the first;
// until 1fdffbe it overtook it (docs/reliability.md, bug 5).
func TestFaultSMTPOrderFlaky(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	greylist := func(to string) error {
		if to == alice {
			return &mailer.SendError{Temporary: true, Code: 451, Err: errors.New("greylisted")}
		}
		return nil
	}
	h.sender.fail = greylist
	t0 := h.now.Add(time.Hour) // deliver advances the clock by an hour
	h.reply(alice, "d1-e1")    // A1 to alice deferred until t0+1m
	h.now = t0.Add(30*time.Second - time.Hour)
	h.reply(bob, "d3-e3") // A2 to alice queued at t0+30s, held behind A1
	var queued []string
	for _, o := range h.outbox() {
		if o.To[0] == alice && o.Status == archive.Pending {
			queued = append(queued, o.MessageID)
		}
	}
	if len(queued) != 2 {
		t.Fatalf("%d mails to alice pending, want 2", len(queued))
	}
	// At t0+2m both are due. The first attempt gets a 421, the next works.
	calls := 0
	h.sender.fail = func(to string) error {
		if to != alice {
			return nil
		}
		if calls++; calls == 1 {
			return &mailer.SendError{Temporary: true, Code: 421, Err: errors.New("connection dropped")}
		}
		return nil
	}
	h.now = t0.Add(2 * time.Minute)
	before := len(h.sender.sent)
	h.srv.FlushOutbox(context.Background())
	for _, s := range h.sender.sent[before:] {
		if s.to == alice {
			t.Fatalf("alice's mail %s went out while her earlier %s waits for its retry", s.msg.MessageID, queued[0])
		}
	}
	// Later both arrive, in order.
	h.now = h.now.Add(time.Hour)
	h.srv.FlushOutbox(context.Background())
	var got []string
	for _, s := range h.sender.sent[before:] {
		if s.to == alice {
			got = append(got, s.msg.MessageID)
		}
	}
	if !slices.Equal(got, queued) {
		t.Fatalf("alice got %v, want %v", got, queued)
	}
}

// TestFaultSMTPPermanent: a 5xx answer marks the mail failed, logs it for
// the operator and never tries it again; the other player's mail and
// later mails to the same player still go out.
func TestFaultSMTPPermanent(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	id := startBrandubh(t, h)
	tries := 0
	h.sender.fail = func(to string) error {
		if to == alice && tries == 0 {
			tries++
			return &mailer.SendError{Code: 550, EnhancedCode: "5.1.1", Err: errors.New("mailbox unavailable")}
		}
		return nil
	}
	sent := h.reply(alice, "d1-e1")
	if len(sent) != 1 || sent[0].to != bob {
		t.Fatalf("%d mails sent, want only bob's", len(sent))
	}
	var failed []archive.OutboxMail
	for _, o := range h.outbox() {
		if o.Status == archive.Failed {
			failed = append(failed, o)
		}
	}
	if len(failed) != 1 || failed[0].To[0] != alice || failed[0].Attempts != 1 || !strings.Contains(failed[0].LastError, "550") {
		t.Fatalf("failed mails: %+v", failed)
	}
	mustContain(t, "log", log.String(), `msg="sending failed for good"`, "550", "to=["+alice+"]")
	h.now = h.now.Add(48 * time.Hour)
	before := len(h.sender.sent)
	h.srv.FlushOutbox(context.Background())
	if len(h.sender.sent) != before || tries != 1 {
		t.Fatalf("a failed mail was tried again")
	}
	// The game goes on; bob's move reaches alice.
	sent = h.reply(bob, "d3-e3")
	if len(sent) != 2 {
		t.Fatalf("after the failure, bob's move sent %d mails, want 2", len(sent))
	}
	if g := h.state(id); len(g.Plies) != 2 {
		t.Fatalf("plies %v", g.Plies)
	}
}

// TestFaultSMTPGivesUp: a mail refused temporarily MaxAttempts times is
// given up, marked failed and logged.
func TestFaultSMTPGivesUp(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	h.srv.Opts.MaxAttempts = 4
	tries := 0
	h.sender.fail = func(string) error {
		tries++
		return errors.New("dial tcp: connection refused") // not a SendError: temporary
	}
	h.deliver(alice, "help", "", nil)
	for i := 0; i < 10; i++ {
		h.now = h.now.Add(7 * time.Hour)
		h.srv.FlushOutbox(context.Background())
	}
	if tries != 4 {
		t.Fatalf("%d attempts, want 4 (MaxAttempts)", tries)
	}
	out := h.outbox()
	if len(out) != 1 || out[0].Status != archive.Failed || out[0].Attempts != 4 {
		t.Fatalf("outbox %+v", out)
	}
	mustContain(t, "log", log.String(), `msg="sending failed for good"`, "connection refused")
}

// TestFaultSMTPSentNotRecorded: the SMTP server took the mails but the
// archive could not record it (or the daemon died in between): the mails
// are sent again, with the same Message-ID and bytes, so a copy is
// recognisable as such, and end up recorded as sent.
func TestFaultSMTPSentNotRecorded(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	fs := h.withFaults()
	fs.inject("MarkSent", fault{err: errUnavailable}, fault{err: errUnavailable})
	before := len(h.sender.sent)
	h.reply(alice, "d1-e1")
	for i := 0; i < 3; i++ {
		h.now = h.now.Add(time.Minute)
		h.srv.FlushOutbox(context.Background())
	}
	copies := map[string][][]byte{}
	for _, s := range h.sender.sent[before:] {
		copies[s.msg.MessageID] = append(copies[s.msg.MessageID], s.raw)
	}
	if len(copies) != 2 {
		t.Fatalf("%d different mails sent, want 2", len(copies))
	}
	for mid, cs := range copies {
		if len(cs) != 2 {
			t.Errorf("%s delivered %d times, want 2 (once more for its lost record)", mid, len(cs))
		}
		for _, c := range cs[1:] {
			if !bytes.Equal(c, cs[0]) {
				t.Errorf("the copies of %s differ", mid)
			}
		}
	}
	for _, o := range h.outbox() {
		if o.Status != archive.Sent {
			t.Errorf("outbox mail %s is %s", o.MessageID, o.Status)
		}
	}
	if g := h.state(id); len(g.Plies) != 1 {
		t.Fatalf("plies %v", g.Plies)
	}
}

// TestFaultSMTPMarkSentKeepsFailing: while the archive cannot record sent
// mails (disk full: reads work, writes fail) a flush must not send the
// same mail again and again. Until 1fdffbe one flush sent each 100 times
// (docs/reliability.md, bug 6).
func TestFaultSMTPMarkSentKeepsFailing(t *testing.T) {
	h := newHarness(t)
	startBrandubh(t, h)
	fs := h.withFaults()
	for i := 0; i < 1000; i++ {
		fs.inject("MarkSent", fault{err: errUnavailable})
	}
	before := len(h.sender.sent)
	h.reply(alice, "d1-e1") // one HandleMail, one FlushOutbox
	n := len(h.sender.sent) - before
	if n > 2 {
		t.Fatalf("one flush delivered the 2 replies %d times", n)
	}
}
