package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/server/internal/referee"
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
	referee.Store
	mu     sync.Mutex
	faults map[string][]fault
	calls  map[string]int
	// before and halfway are CommitEach's faults, taken by its next call.
	before  func(cs []archive.Change)
	halfway bool
}

func newFaultStore(s referee.Store) *faultStore {
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

// unfired lists, sorted, the methods whose injected faults no call has
// taken yet: a fault that never fired tested nothing.
func (f *faultStore) unfired() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ops []string
	for op, q := range f.faults {
		if len(q) > 0 {
			ops = append(ops, op)
		}
	}
	slices.Sort(ops)
	return ops
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

// wrapEach runs call, one archive transaction that does what n calls of
// op did one by one: it takes the faults of all n calls, and the first
// fault among them fails the whole call, before it or after it, as in
// wrap.
func (f *faultStore) wrapEach(op string, n int, call func() error) error {
	var first fault
	for i := 0; i < n; i++ {
		if ft, ok := f.next(op); ok && ft.err != nil && first.err == nil {
			first = ft
		}
	}
	if first.err != nil && !first.after {
		return first.err
	}
	err := call()
	if first.err != nil && err == nil {
		return first.err
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

func (f *faultStore) WriteBatch(ctx context.Context, fn func(b *archive.Batch) error) error {
	return f.wrap("WriteBatch", func() error { return f.Store.WriteBatch(ctx, fn) })
}

func (f *faultStore) GameIDTaken(ctx context.Context, id string) (taken bool, err error) {
	err = f.wrap("GameIDTaken", func() (e error) { taken, e = f.Store.GameIDTaken(ctx, id); return })
	return taken, err
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

func (f *faultStore) CountMails(ctx context.Context, mf archive.MailFilter) (n int, err error) {
	err = f.wrap("CountMails", func() (e error) { n, e = f.Store.CountMails(ctx, mf); return })
	return n, err
}

func (f *faultStore) PendingOutbox(ctx context.Context, now time.Time, limit int) (ms []archive.OutboxMail, err error) {
	err = f.wrap("PendingOutbox", func() (e error) { ms, e = f.Store.PendingOutbox(ctx, now, limit); return })
	return ms, err
}

// MarkSentAll records a round of sent mails in one transaction; it
// stands for one "MarkSent" call per sent mail (wrapEach).
func (f *faultStore) MarkSentAll(ctx context.Context, sent []int64, at time.Time, owner string, release []int64) error {
	return f.wrapEach("MarkSent", len(sent), func() error { return f.Store.MarkSentAll(ctx, sent, at, owner, release) })
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

func (f *faultStore) TournamentSpectators(ctx context.Context, id string) (sp []archive.Spectator, err error) {
	err = f.wrap("TournamentSpectators", func() (e error) { sp, e = f.Store.TournamentSpectators(ctx, id); return })
	return sp, err
}

// withFaults puts a faultStore between the harness's server and archive.
func (h *harness) withFaults() *faultStore {
	fs := newFaultStore(h.store)
	h.srv.Store, h.srv.Opts.Store = fs, fs
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
		{name: "countmails-unavailable", op: "CountMails", faults: []fault{{err: errUnavailable}}, file: "games-command.eml", from: alice},
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
	if err == nil && p.Language != referee.English {
		t.Fatalf("bob's language is %q after a failed read, want en (his choice)", p.Language)
	}
	if err == nil {
		return
	}
	if done, _ := h.store.Processed(context.Background(), m.MessageID, ""); done {
		t.Fatal("HandleMail failed but recorded the mail")
	}
}

// CommitEach runs the archive's CommitEach unless a fault of op
// "CommitEach" says otherwise; before, when set, runs once first with
// the changes (another process committing meanwhile), and halfway, when
// set, makes the real transaction fail on a change in the middle of
// them (an update of a game that does not exist), so that the archive
// rolls the ones before it back.
func (f *faultStore) CommitEach(ctx context.Context, cs []archive.Change) ([]error, error) {
	cc := f.Store.(referee.ChunkCommitter)
	var errs []error
	err := f.wrap("CommitEach", func() error {
		f.mu.Lock()
		before, halfway := f.before, f.halfway
		f.before, f.halfway = nil, false
		f.mu.Unlock()
		if before != nil {
			before(cs)
		}
		if halfway {
			ghost := &archive.Game{ID: "GHOST9", Variant: "brandubh", Attackers: "x@player.test", Defenders: "y@player.test",
				Status: archive.Active, Version: 9}
			half := slices.Clone(cs[:len(cs)/2])
			cs = append(append(half, archive.Change{Games: []*archive.Game{ghost}}), cs[len(cs)/2:]...)
		}
		var err error
		errs, err = cc.CommitEach(ctx, cs)
		if halfway && err == nil {
			return errors.New("the halfway fault did not fail the transaction")
		}
		return err
	})
	return errs, err
}
