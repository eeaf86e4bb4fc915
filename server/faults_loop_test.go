package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// fakeInbox is an IMAP mailbox in memory: Fetch parses the raw mails as
// mailer.Inbox does (a mail Parse rejects comes back with ParseError), Done
// moves a mail out.
type fakeInbox struct {
	mu       sync.Mutex
	validity uint32
	nextUID  uint32
	mails    []*inboxMail
	fetchErr []error
	doneErr  []error
	onDone   func(uid uint32) // called by Done, with the lock held
	fetches  int
	raws     [][]byte // every mail ever added
}

type inboxMail struct {
	uid uint32
	raw []byte
}

func newFakeInbox() *fakeInbox { return &fakeInbox{validity: 7, nextUID: 1} }

func (f *fakeInbox) add(raw []byte) uint32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	uid := f.nextUID
	f.nextUID++
	f.mails = append(f.mails, &inboxMail{uid: uid, raw: raw})
	f.raws = append(f.raws, raw)
	return uid
}

// lastRaw returns the mail added last; the caller holds the lock.
func (f *fakeInbox) lastRaw() []byte { return f.raws[len(f.raws)-1] }

func (f *fakeInbox) Fetch(_ context.Context, validity, after uint32, max int64) ([]*mailer.Message, uint32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetches++
	if len(f.fetchErr) > 0 {
		err := f.fetchErr[0]
		f.fetchErr = f.fetchErr[1:]
		return nil, 0, err
	}
	if validity != f.validity {
		after = 0
	}
	var out []*mailer.Message
	for _, im := range f.mails {
		if im.uid <= after {
			continue
		}
		m, err := mailer.Parse(bytes.NewReader(im.raw), max)
		if err != nil {
			sum := sha256.Sum256(im.raw)
			m = &mailer.Message{MessageID: "sha256:" + hex.EncodeToString(sum[:]), Synthetic: true, ParseError: err}
		}
		m.Mailbox, m.UID, m.UIDValidity, m.Size = "INBOX", im.uid, f.validity, int64(len(im.raw))
		out = append(out, m)
	}
	return out, f.validity, nil
}

func (f *fakeInbox) Done(_ context.Context, uid uint32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.doneErr) > 0 {
		err := f.doneErr[0]
		f.doneErr = f.doneErr[1:]
		return err
	}
	for i, im := range f.mails {
		if im.uid == uid {
			f.mails = append(f.mails[:i], f.mails[i+1:]...)
			break
		}
	}
	if f.onDone != nil {
		f.onDone(uid)
	}
	return nil
}

func (f *fakeInbox) Wait(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

func (f *fakeInbox) left() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.mails)
}

// restart returns a new Server on the same archive, inbox and sender, as
// after the daemon was killed and started again.
func (h *harness) restart(store referee.Store, inbox referee.Inbox) *referee.Server {
	h.t.Helper()
	o := h.srv.Opts
	o.Store, o.Inbox = store, inbox
	srv, err := referee.New(o)
	if err != nil {
		h.t.Fatal(err)
	}
	return srv
}

// TestFaultPoints stops the mail loop (Poll) at each of its steps — fetch,
// decode, commit, after the commit, send, after the send, done — by an
// injected error, then restarts the server on the same archive and
// mailbox. Every time the move is applied exactly once, each reply is sent
// at least once and all copies of a reply are identical (same
// Message-ID), and the mail ends up out of the inbox.
func TestFaultPoints(t *testing.T) {
	points := []struct {
		name string
		// inject arms the fault before the first Poll; it may return the
		// error the first Poll must return (nil: it succeeds).
		inject func(h *harness, fs *faultStore, in *fakeInbox) error
	}{
		{"fetch", func(h *harness, fs *faultStore, in *fakeInbox) error {
			err := fmt.Errorf("mailer: fetch: %w: read tcp: connection reset by peer", mailer.ErrConnection)
			in.fetchErr = []error{err}
			return err
		}},
		{"decode", func(h *harness, fs *faultStore, in *fakeInbox) error {
			in.add([]byte("\x00\x01 this is not a mail\r\n"))
			return nil
		}},
		{"commit", func(h *harness, fs *faultStore, in *fakeInbox) error {
			fs.inject("Commit", fault{err: errUnavailable})
			return errUnavailable
		}},
		{"after-commit", func(h *harness, fs *faultStore, in *fakeInbox) error {
			fs.inject("Commit", fault{err: errKilled, after: true})
			return errKilled
		}},
		{"send", func(h *harness, fs *faultStore, in *fakeInbox) error {
			n := 0
			h.sender.fail = func(string) error {
				if n++; n == 1 {
					return &mailer.SendError{Temporary: true, Code: 421, Err: errors.New("closing connection")}
				}
				return nil
			}
			return nil
		}},
		{"after-send", func(h *harness, fs *faultStore, in *fakeInbox) error {
			fs.inject("MarkSent", fault{err: errKilled})
			return nil
		}},
		{"done", func(h *harness, fs *faultStore, in *fakeInbox) error {
			err := fmt.Errorf("mailer: done: %w: EOF", mailer.ErrConnection)
			in.doneErr = []error{err}
			return err
		}},
		{"uidvalidity", func(h *harness, fs *faultStore, in *fakeInbox) error {
			// After the mail is done the mailbox is rebuilt: new
			// UIDVALIDITY, the mail back in it under a new UID.
			in.onDone = func(uint32) {
				in.onDone = nil
				in.validity++
				in.mails = append(in.mails, &inboxMail{uid: in.nextUID, raw: in.lastRaw()})
				in.nextUID++
			}
			return nil
		}},
	}
	for _, p := range points {
		t.Run(p.name, func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			fs := h.withFaults()
			in := newFakeInbox()
			raw := h.loadMail("quote-gmail-top.eml", h.mailVars(alice, id))
			in.add(raw)
			want := p.inject(h, fs, in)
			ctx := context.Background()
			srv := h.restart(fs, in)
			before := len(h.sender.sent)

			err := srv.Poll(ctx, true)
			if want == nil && err != nil {
				t.Fatalf("first Poll: %v", err)
			}
			if want != nil && !errors.Is(err, want) {
				t.Fatalf("first Poll: %v, want %v", err, want)
			}
			// Restart (twice, later) and poll again: what was left over
			// is finished off.
			for i := 0; i < 2; i++ {
				h.now = h.now.Add(10 * time.Minute)
				srv = h.restart(h.srv.Store, in)
				if err := srv.Poll(ctx, true); err != nil {
					t.Fatalf("Poll after restart %d: %v", i+1, err)
				}
				srv.FlushOutbox(ctx)
			}
			if got := h.state(id).Plies; !slices.Equal(got, []string{"d1-e1"}) {
				t.Fatalf("plies %v, want [d1-e1] exactly once", got)
			}
			copies := map[string][][]byte{}
			for _, s := range h.sender.sent[before:] {
				copies[s.msg.MessageID] = append(copies[s.msg.MessageID], s.raw)
			}
			queued := 0
			for _, o := range h.outbox() {
				if strings.Contains(string(o.Raw), "played d1-e1") {
					queued++
					if len(copies[o.MessageID]) == 0 {
						t.Errorf("reply %s to %v was not sent", o.MessageID, o.To)
					}
				}
			}
			if queued != 2 {
				t.Errorf("%d replies about the move queued, want 2 (one per player)", queued)
			}
			for mid, cs := range copies {
				for _, c := range cs[1:] {
					if !bytes.Equal(c, cs[0]) {
						t.Errorf("copies of %s differ", mid)
					}
				}
			}
			if in.left() != 0 {
				t.Errorf("%d mails left in the inbox", in.left())
			}
		})
	}
}

// reconnectingInbox is a fakeInbox that counts Reconnect calls, as
// mailer.Inbox has them.
type reconnectingInbox struct {
	*fakeInbox
	reconnects int
}

func (r *reconnectingInbox) Reconnect(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reconnects++
	return nil
}

// TestFaultRunReconnects: the daemon loop (Run) survives the IMAP
// connection dropping mid-FETCH: it waits (backoff), reconnects, fetches
// again and applies the move once.
func TestFaultRunReconnects(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	id := startBrandubh(t, h)
	in := &reconnectingInbox{fakeInbox: newFakeInbox()}
	in.add(h.loadMail("quote-gmail-top.eml", h.mailVars(alice, id)))
	in.fetchErr = []error{
		fmt.Errorf("mailer: fetch: %w: read tcp 10.0.0.2:993: connection reset by peer", mailer.ErrConnection),
	}
	srv := h.restart(h.store, in)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- srv.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Second)
	for in.left() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if in.left() != 0 {
		t.Fatal("the mail was not handled within 15 s")
	}
	if got := h.state(id).Plies; !slices.Equal(got, []string{"d1-e1"}) {
		t.Fatalf("plies %v", got)
	}
	in.mu.Lock()
	reconnects, fetches := in.reconnects, in.fetches
	in.mu.Unlock()
	if reconnects != 1 || fetches < 2 {
		t.Errorf("%d reconnects, %d fetches; want 1 and at least 2", reconnects, fetches)
	}
	if waited := time.Since(start); waited < time.Second {
		t.Errorf("retried after %v, before the first backoff of 1 s", waited)
	}
	mustContain(t, "log", log.String(), `msg="mail loop"`, "connection reset by peer", "retry_in=1s")
}

// downInbox is a fakeInbox whose server is away: Wait fails with a lost
// connection once, and Reconnect fails (as mailer.Inbox's does when its
// ctx ends while it retries) until the server is back.
type downInbox struct {
	*fakeInbox
	waitFailed bool
	back       bool
	reconnects int
}

func (d *downInbox) Wait(ctx context.Context) error {
	d.mu.Lock()
	failed := d.waitFailed
	d.waitFailed = true
	d.mu.Unlock()
	if !failed {
		return fmt.Errorf("mailer: idle: %w: use of closed network connection", mailer.ErrConnection)
	}
	return d.fakeInbox.Wait(ctx)
}

func (d *downInbox) Reconnect(ctx context.Context) error {
	d.mu.Lock()
	d.reconnects++
	back := d.back
	d.mu.Unlock()
	if back {
		return nil
	}
	<-ctx.Done()
	return fmt.Errorf("mailer: reconnect: %w: %w (last attempt: connection refused)", mailer.ErrConnection, ctx.Err())
}

// TestRunLogsWhileDown: while the IMAP server is away, Run says so in the
// log again and again, not only at shutdown, and says when it is back
// (trial report §9.1); stopping the daemon while it is down logs no
// failure.
func TestRunLogsWhileDown(t *testing.T) {
	h := newHarness(t)
	log := h.captureLog()
	h.srv.Opts.WaitCap = 50 * time.Millisecond
	in := &downInbox{fakeInbox: newFakeInbox()}
	srv := h.restart(h.store, in)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	still := func() int { return strings.Count(log.String(), `msg="IMAP still unreachable, retrying"`) }
	deadline := time.Now().Add(15 * time.Second)
	for still() < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := still(); n < 3 {
		t.Fatalf("%d warnings while the server was down, want at least 3:\n%s", n, log.String())
	}
	in.mu.Lock()
	in.back = true
	in.mu.Unlock()
	for !strings.Contains(log.String(), `msg="IMAP reconnected"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	mustContain(t, "log", log.String(), `msg="mail loop"`, "use of closed network connection",
		"down_for=", "connection refused", `msg="IMAP reconnected"`)

	// down again, then stopped: no "reconnect failed … context canceled"
	in.mu.Lock()
	in.back, in.waitFailed = false, false
	in.mu.Unlock()
	for still() < 4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if strings.Contains(log.String(), "reconnect failed") {
		t.Errorf("stopping while down logged a failure:\n%s", log.String())
	}
}

// rejectingInbox is a fakeInbox whose server rejects the log-in for a
// while, as after a revoked token: Wait fails with a lost connection
// once, then Reconnect returns mailer.ErrAuth rejections times.
type rejectingInbox struct {
	*fakeInbox
	waitFailed bool
	rejections int
	reconnects int
}

func (r *rejectingInbox) Wait(ctx context.Context) error {
	r.mu.Lock()
	failed := r.waitFailed
	r.waitFailed = true
	r.mu.Unlock()
	if !failed {
		return fmt.Errorf("mailer: idle: %w: EOF", mailer.ErrConnection)
	}
	return r.fakeInbox.Wait(ctx)
}

func (r *rejectingInbox) Reconnect(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reconnects++
	if r.reconnects <= r.rejections {
		return fmt.Errorf("mailer: login: %w: XOAUTH2 rejected: NO [AUTHENTICATIONFAILED] invalid token", mailer.ErrAuth)
	}
	return nil
}

// TestRunAuthPause: a rejected IMAP log-in is not tried again at once but
// after a pause that doubles with each rejection up to a cap, each
// rejection logged as an error with the pause (issue 21: ~2,900 failed
// log-ins a day get the mailbox locked).
func TestRunAuthPause(t *testing.T) {
	saved := referee.AuthPause
	referee.AuthPause.Min, referee.AuthPause.Max = 10*time.Millisecond, 40*time.Millisecond
	defer func() { referee.AuthPause = saved }()
	h := newHarness(t)
	log := h.captureLog()
	in := &rejectingInbox{fakeInbox: newFakeInbox(), rejections: 4}
	srv := h.restart(h.store, in)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(log.String(), `msg="IMAP reconnected"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	var pauses []string
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, `msg="IMAP login rejected, waiting before the next attempt"`) {
			mustContain(t, "log line", line, "level=ERROR", "AUTHENTICATIONFAILED")
			for _, f := range strings.Fields(line) {
				if v, ok := strings.CutPrefix(f, "retry_in="); ok {
					pauses = append(pauses, v)
				}
			}
		}
	}
	if want := []string{"10ms", "20ms", "40ms", "40ms"}; !slices.Equal(pauses, want) {
		t.Errorf("pauses after the rejections %v, want %v; log:\n%s", pauses, want, log.String())
	}
	mustContain(t, "log", log.String(), `msg="IMAP reconnected"`)
	if in.reconnects != 5 {
		t.Errorf("%d log-in attempts, want 5 (4 rejected)", in.reconnects)
	}
}
