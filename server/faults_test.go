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

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
)

// errUnavailable is what the archive returns when SQLite is locked or the
// disk is full.
var errUnavailable = &archive.Error{Op: "injected", Err: fmt.Errorf("%w: database is locked (5) (SQLITE_BUSY)", archive.ErrUnavailable)}

// errConflict is what Commit returns when a game changed under the caller.
var errConflict = &archive.Error{Op: "commit", Err: fmt.Errorf("game changed: %w", archive.ErrConflict)}

// errKilled stands for the process being killed at a fault point: the
// call returns it and the test then "restarts" the server.
var errKilled = errors.New("injected: process killed here")

// fault is one injected failure of a Store method: err is returned, before
// the real call, or after it when after is set (the call took effect but
// its caller never learns). A nil err lets that call through.
type fault struct {
	err   error
	after bool
}

// faultStore wraps the archive and fails chosen calls.
type faultStore struct {
	Store
	mu     sync.Mutex
	faults map[string][]fault
	calls  map[string]int
}

func newFaultStore(s Store) *faultStore {
	return &faultStore{Store: s, faults: map[string][]fault{}, calls: map[string]int{}}
}

// inject queues faults for the next calls of method op.
func (f *faultStore) inject(op string, fs ...fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[op] = append(f.faults[op], fs...)
}

// next returns the fault for this call of op, if any.
func (f *faultStore) next(op string) (fault, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
	q := f.faults[op]
	if len(q) == 0 {
		return fault{}, false
	}
	f.faults[op] = q[1:]
	return q[0], true
}

func (f *faultStore) count(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
}

// wrap runs call unless a fault says otherwise.
func (f *faultStore) wrap(op string, call func() error) error {
	ft, ok := f.next(op)
	if ok && ft.err != nil && !ft.after {
		return ft.err
	}
	err := call()
	if ok && ft.err != nil && err == nil {
		return ft.err
	}
	return err
}

func (f *faultStore) Processed(ctx context.Context, id, hash string) (done bool, err error) {
	err = f.wrap("Processed", func() (e error) { done, e = f.Store.Processed(ctx, id, hash); return })
	return done, err
}

func (f *faultStore) Commit(ctx context.Context, c archive.Change) error {
	return f.wrap("Commit", func() error { return f.Store.Commit(ctx, c) })
}

func (f *faultStore) Game(ctx context.Context, id string) (g *archive.Game, err error) {
	err = f.wrap("Game", func() (e error) { g, e = f.Store.Game(ctx, id); return })
	return g, err
}

func (f *faultStore) GamesOf(ctx context.Context, addr string) (gs []*archive.Game, err error) {
	err = f.wrap("GamesOf", func() (e error) { gs, e = f.Store.GamesOf(ctx, addr); return })
	return gs, err
}

func (f *faultStore) Player(ctx context.Context, addr string) (p *archive.Player, err error) {
	err = f.wrap("Player", func() (e error) { p, e = f.Store.Player(ctx, addr); return })
	return p, err
}

func (f *faultStore) CountRecent(ctx context.Context, from, disp string, since time.Time) (n int, err error) {
	err = f.wrap("CountRecent", func() (e error) { n, e = f.Store.CountRecent(ctx, from, disp, since); return })
	return n, err
}

func (f *faultStore) PendingOutbox(ctx context.Context, now time.Time, limit int) (ms []archive.OutboxMail, err error) {
	err = f.wrap("PendingOutbox", func() (e error) { ms, e = f.Store.PendingOutbox(ctx, now, limit); return })
	return ms, err
}

func (f *faultStore) MarkSent(ctx context.Context, id int64, at time.Time) error {
	return f.wrap("MarkSent", func() error { return f.Store.MarkSent(ctx, id, at) })
}

func (f *faultStore) MarkRetry(ctx context.Context, id int64, next time.Time, text string) error {
	return f.wrap("MarkRetry", func() error { return f.Store.MarkRetry(ctx, id, next, text) })
}

func (f *faultStore) MarkFailed(ctx context.Context, id int64, text string) error {
	return f.wrap("MarkFailed", func() error { return f.Store.MarkFailed(ctx, id, text) })
}

func (f *faultStore) MailboxState(ctx context.Context, mb string) (v, last uint32, err error) {
	err = f.wrap("MailboxState", func() (e error) { v, last, e = f.Store.MailboxState(ctx, mb); return })
	return v, last, err
}

// withFaults puts a faultStore between the harness's server and archive.
func (h *harness) withFaults() *faultStore {
	fs := newFaultStore(h.store)
	h.srv.store, h.srv.opts.Store = fs, fs
	return fs
}

// TestFaultStore: the archive failing at each call the referee makes for a
// mail. A failure that may pass (ErrUnavailable, ErrConflict) leaves
// nothing recorded and HandleMail returns it, so the mail stays unread;
// handled again later, the move is applied exactly once and each reply is
// queued once.
func TestFaultStore(t *testing.T) {
	cases := []struct {
		name   string
		op     string
		faults []fault
		// file is the mail, from from; a move by alice unless set. A
		// mail that is no move must get one reply and change nothing.
		file, from string
		// retried: HandleMail retries by itself and succeeds the first time.
		retried bool
		// lostAck: the fault comes after the commit took effect.
		lostAck bool
	}{
		{name: "commit-unavailable", op: "Commit", faults: []fault{{err: errUnavailable}}},
		{name: "commit-conflict-once", op: "Commit", faults: []fault{{err: errConflict}}, retried: true},
		{name: "commit-conflict-thrice", op: "Commit", faults: []fault{{err: errConflict}, {err: errConflict}, {err: errConflict}}},
		{name: "commit-lost-ack", op: "Commit", faults: []fault{{err: errUnavailable, after: true}}, lostAck: true},
		{name: "processed-unavailable", op: "Processed", faults: []fault{{err: errUnavailable}}},
		{name: "game-unavailable", op: "Game", faults: []fault{{err: errUnavailable}}},
		{name: "player-unavailable", op: "Player", faults: []fault{{err: errUnavailable}}},
		{name: "gamesof-unavailable", op: "GamesOf", faults: []fault{{err: errUnavailable}}, file: "games-command.eml", from: alice},
		{name: "countrecent-unavailable", op: "CountRecent", faults: []fault{{err: errUnavailable}}, file: "out-of-turn.eml", from: bob},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			fs := h.withFaults()
			from, file, move := alice, "quote-gmail-top.eml", "d1-e1"
			if tc.file != "" {
				from, file, move = tc.from, tc.file, ""
			}
			before := h.state(id)
			outBefore := len(h.outbox())
			raw := h.loadMail(file, h.mailVars(from, id))
			m := h.parseRaw(bytes.NewReader(raw))
			fs.inject(tc.op, tc.faults...)

			sent, err := h.handle(m)
			switch {
			case tc.retried:
				if err != nil {
					t.Fatalf("HandleMail: %v (a single conflict is retried inside)", err)
				}
			case err == nil:
				t.Fatalf("HandleMail returned nil; want the injected error, so the mail stays unread. Sent:\n%s", texts(sent))
			case !errors.Is(err, archive.ErrUnavailable) && !errors.Is(err, archive.ErrConflict):
				t.Fatalf("HandleMail: %v; want ErrUnavailable or ErrConflict", err)
			}
			if !tc.retried && !tc.lostAck {
				h.unchanged("the failed attempt", id, before)
				if len(sent) != 0 || len(h.outbox()) != outBefore {
					t.Fatalf("the failed attempt sent %d and queued %d mails", len(sent), len(h.outbox())-outBefore)
				}
				if done, _ := h.store.Processed(context.Background(), m.MessageID, ""); done {
					t.Fatal("the failed attempt recorded the mail as processed")
				}
				// Later the same mail is handled again.
				h.now = h.now.Add(time.Minute)
				more, err := h.handle(m)
				if err != nil {
					t.Fatalf("the retry: %v", err)
				}
				sent = append(sent, more...)
			} else if tc.lostAck {
				// The caller thinks it failed and tries again: the
				// archive knows the mail, nothing is doubled.
				more, err := h.handle(m)
				if err != nil {
					t.Fatalf("the retry after a lost ack: %v", err)
				}
				sent = append(sent, more...)
			}
			// A third delivery does nothing.
			if again, err := h.handle(m); err != nil || len(again) != 0 {
				t.Fatalf("a third delivery: err %v, %d mails", err, len(again))
			}
			got := h.state(id)
			if move != "" {
				if want := append(slices.Clone(before.Plies), move); !slices.Equal(got.Plies, want) {
					t.Fatalf("plies %v, want %v", got.Plies, want)
				}
				if len(sent) != 2 || len(h.outbox()) != outBefore+2 {
					t.Fatalf("%d mails sent, %d queued; want each reply once:\n%s", len(sent), len(h.outbox())-outBefore, texts(sent))
				}
			} else {
				h.unchanged("the refused mail", id, before)
				if len(sent) != 1 {
					t.Fatalf("%d mails sent, want the refusal once", len(sent))
				}
			}
			if n := fs.count(tc.op); !tc.lostAck && n < len(tc.faults)+1 || n < len(tc.faults) {
				t.Errorf("%s was called %d times, fewer than the %d faults + 1: the fault was not hit", tc.op, n, len(tc.faults))
			}
		})
	}
}

// TestFaultStoreReadErrorKeepsMove: a failed read of the game while a
// move is decided must fail the mail, not record it. Until 1fdffbe the
// move was answered with an apology and recorded for good, so it was lost
// (docs/reliability.md, bug 4).
func TestFaultStoreReadErrorKeepsMove(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	fs := h.withFaults()
	m := h.parseRaw(bytes.NewReader(h.loadMail("quote-gmail-top.eml", h.mailVars(alice, id))))
	fs.inject("Game", fault{err: errUnavailable})
	_, err := h.handle(m)
	done, _ := h.store.Processed(context.Background(), m.MessageID, "")
	if err == nil || done {
		t.Fatalf("HandleMail = %v, processed %v; want the error and nothing recorded", err, done)
	}
}

// TestFaultStorePlayerReadOverwrites: bob chose English replies, then
// writes a German command while reading his row fails; his choice must
// survive. Until 1fdffbe the failed read was ignored and his row rewritten
// from an empty one (docs/reliability.md, bug 4).
func TestFaultStorePlayerReadOverwrites(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	h.reply(bob, "language en")
	fs := h.withFaults()
	fs.inject("Player", fault{err: errUnavailable}, fault{err: errUnavailable}, fault{err: errUnavailable})
	raw := "From: bob@player.test\r\nSubject: Re: [taflmail " + id + " " + h.mailVars(bob, id)["{{KEY}}"] +
		"] x\r\nMessage-ID: <brett-1@player.test>\r\n\r\nbrett\r\n"
	m := h.parseRaw(strings.NewReader(raw))
	_, err := h.handle(m)
	p, perr := h.store.Player(context.Background(), bob)
	if perr != nil {
		t.Fatal(perr)
	}
	if err == nil && p.Language != english {
		t.Fatalf("bob's language is %q after a failed read, want en (his choice)", p.Language)
	}
	if err == nil {
		return
	}
	if done, _ := h.store.Processed(context.Background(), m.MessageID, ""); done {
		t.Fatal("HandleMail failed but recorded the mail")
	}
}

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
	h.srv.opts.MaxAttempts = 4
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
func (h *harness) restart(store Store, inbox Inbox) *Server {
	h.t.Helper()
	o := h.srv.opts
	o.Store, o.Inbox = store, inbox
	srv, err := New(o)
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
				srv = h.restart(h.srv.store, in)
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
