package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/referee"
)

// batchMoves are three plies of one Brandubh game (alice attacks), all
// in the inbox for one poll: each mail's move must see the one before.
var batchMoves = []struct{ from, move string }{{alice, "d1-e1"}, {bob, "d3-f3"}, {alice, "e1-e2"}}

// queueBatch puts the mails of batchMoves for game id into a new inbox,
// each in the thread and with the key of the last mail its sender got.
func queueBatch(h *harness, id string) *fakeInbox {
	h.t.Helper()
	in := newFakeInbox()
	for i, mv := range batchMoves {
		subject := "Re: " + h.last(mv.from).msg.Subject
		raw := fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <batch%d@player.test>\r\n"+
			"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", mv.from, subject, h.now.Format(time.RFC1123Z), i, mv.move)
		in.add([]byte(raw))
	}
	if !strings.Contains(h.last(alice).msg.Subject, id) {
		h.t.Fatalf("alice's last subject %q does not name game %s", h.last(alice).msg.Subject, id)
	}
	return in
}

// killInbox makes every further Done of in fail, as after the process
// died: the mails stay in the inbox.
func killInbox(in *fakeInbox) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for range 10 {
		in.doneErr = append(in.doneErr, errKilled)
	}
}

// TestPollChunkTransactions: a poll of three move mails commits each
// mail's decision on its own and shares the outbox's claim and sent
// mark among all six replies: five write transactions, where a claim and
// a mark per reply took fifteen.
func TestPollChunkTransactions(t *testing.T) {
	h := newHarness(t)
	id := startBrandubh(t, h)
	in := queueBatch(h, id)
	srv := h.restart(h.srv.Store, in)
	before := h.store.WriteTransactions()
	sentBefore := len(h.sender.sent)
	if err := srv.Poll(context.Background(), false); err != nil {
		t.Fatalf("Poll: %v", err)
	}
	if got := h.state(id).Plies; !slices.Equal(got, []string{"d1-e1", "d3-f3", "e1-e2"}) {
		t.Fatalf("plies %v", got)
	}
	if n := len(h.sender.sent) - sentBefore; n != 6 {
		t.Errorf("%d replies sent, want 6", n)
	}
	if n := h.store.WriteTransactions() - before; n != 5 {
		t.Errorf("a poll of 3 mails took %d write transactions, want 5 (3 commits, 1 claim, 1 sent mark)", n)
	}
	if in.left() != 0 {
		t.Errorf("%d mails left in the inbox", in.left())
	}
}

// TestFaultBatchPoints: three mails of one game in one poll, and a
// failure at each of the steps the poll now shares among them: the
// second mail's commit failing (before it and after it took effect),
// the process killed when claiming the round of replies or after
// sending it and before recording it as sent, and the IMAP server
// failing the first mail's Done. After restarts every move is applied
// exactly once and in order, every reply is sent, all copies of a reply
// are identical (a round killed before its sent mark is sent once more,
// never twice more), every reply ends up recorded as sent and no mail
// is left in the inbox.
func TestFaultBatchPoints(t *testing.T) {
	points := []struct {
		name   string
		inject func(h *harness, fs *faultStore, in *fakeInbox)
		// resent is how many replies may be delivered twice
		resent int
	}{
		{"second-commit", func(h *harness, fs *faultStore, in *fakeInbox) {
			fs.inject("Commit", fault{}, fault{err: errUnavailable})
		}, 0},
		{"after-second-commit", func(h *harness, fs *faultStore, in *fakeInbox) {
			fs.inject("Commit", fault{}, fault{err: errKilled, after: true})
		}, 0},
		{"claim", func(h *harness, fs *faultStore, in *fakeInbox) {
			fs.inject("ClaimOutbox", fault{err: errKilled})
			killInbox(in)
		}, 0},
		{"after-send", func(h *harness, fs *faultStore, in *fakeInbox) {
			fs.inject("MarkSent", fault{err: errKilled})
			killInbox(in)
		}, 6},
		{"done", func(h *harness, fs *faultStore, in *fakeInbox) {
			in.doneErr = []error{fmt.Errorf("mailer: done: %w: EOF", mailer.ErrConnection)}
		}, 0},
	}
	for _, p := range points {
		t.Run(p.name, func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			in := queueBatch(h, id)
			fs := h.withFaults()
			p.inject(h, fs, in)
			ctx := context.Background()
			before := len(h.sender.sent)
			old := map[int64]bool{} // the game's start
			for _, o := range h.outbox() {
				old[o.ID] = true
			}
			if err := h.restart(fs, in).Poll(ctx, false); err == nil {
				t.Fatal("the first Poll met no failure")
			}
			if unfired := fs.unfired(); len(unfired) > 0 {
				t.Fatalf("injected faults that never fired: %v", unfired)
			}
			in.doneErr = nil
			for i := 0; i < 2; i++ { // restart as serve does: claims released, the inbox read again
				h.now = h.now.Add(time.Minute)
				if _, err := h.store.ReleaseClaims(ctx); err != nil {
					t.Fatal(err)
				}
				srv := h.restart(h.srv.Store, in)
				if err := srv.Poll(ctx, true); err != nil {
					t.Fatalf("Poll after restart %d: %v", i+1, err)
				}
				srv.FlushOutbox(ctx)
			}
			if got := h.state(id).Plies; !slices.Equal(got, []string{"d1-e1", "d3-f3", "e1-e2"}) {
				t.Fatalf("plies %v, want each of the three exactly once, in order", got)
			}
			copies := map[string][][]byte{}
			for _, s := range h.sender.sent[before:] {
				copies[s.msg.MessageID] = append(copies[s.msg.MessageID], s.raw)
			}
			twice := 0
			for _, o := range h.outbox() {
				if o.Status != archive.Sent {
					t.Errorf("outbox mail %s to %v is %s", o.MessageID, o.To, o.Status)
				}
				if old[o.ID] {
					continue
				}
				switch n := len(copies[o.MessageID]); {
				case n == 0:
					t.Errorf("reply %s to %v was not sent", o.MessageID, o.To)
				case n == 2:
					twice++
				case n > 2:
					t.Errorf("reply %s to %v sent %d times", o.MessageID, o.To, n)
				}
			}
			if len(copies) != 6 {
				t.Errorf("%d different replies sent, want 6 (two per move)", len(copies))
			}
			if twice > p.resent {
				t.Errorf("%d replies sent twice, want at most %d", twice, p.resent)
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

// chunkWorld is a poll of five mails for two games, alice's and bob's
// (g1) and carol's and dave's (g2): alice's move and carol's are about
// different games and players and are committed in one transaction;
// bob's reply to alice's move and alice's next move are about g1 again
// and erin's "help" carries no key, so those three are decided again
// alone after it.
type chunkWorld struct {
	h      *harness
	g1, g2 string
	in     *fakeInbox
	mids   []string // the Message-IDs of the five mails
}

const dave = "dave@player.test"

func newChunkWorld(t *testing.T) *chunkWorld {
	h := newHarness(t)
	w := &chunkWorld{h: h, g1: startBrandubh(t, h)}
	h.deliver(carol, "a game?", "new brandubh with "+dave, nil)
	h.reply(dave, "accept")
	w.g2 = referee.FindGame(h.last(carol).msg.Subject, "", nil).ID
	if w.g2 == "" || w.g2 == w.g1 {
		t.Fatalf("carol's game %q", w.g2)
	}
	w.in = newFakeInbox()
	for i, m := range []struct{ from, subject, text string }{
		{alice, "Re: " + h.last(alice).msg.Subject, "d1-e1"},
		{carol, "Re: " + h.last(carol).msg.Subject, "d1-e1"},
		{bob, "Re: " + h.last(bob).msg.Subject, "d3-f3"},
		{alice, "Re: " + h.last(alice).msg.Subject, "e1-e2"},
		{"erin@player.test", "question", "help"},
	} {
		mid := fmt.Sprintf("<chunk%d@player.test>", i)
		raw := fmt.Sprintf("From: %s\r\nTo: tafl@game.test\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: %s\r\n"+
			"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", m.from, m.subject, h.now.Format(time.RFC1123Z), mid, m.text)
		w.in.add([]byte(raw))
		w.mids = append(w.mids, mid)
	}
	return w
}

// check asserts the end state after the chunk's mails were handled,
// however often: g1 holds its three moves once each and in order, g2
// holds wantG2, every reply is recorded sent, sent once (all copies
// identical, at most resent of them twice), wantReplies different replies
// went out since sent was the count of sent mails, every mail is
// recorded processed once, and the inbox is empty.
func (w *chunkWorld) check(t *testing.T, old map[int64]bool, sent int, wantG2 []string, wantReplies, resent int) {
	t.Helper()
	h := w.h
	if got := h.state(w.g1).Plies; !slices.Equal(got, []string{"d1-e1", "d3-f3", "e1-e2"}) {
		t.Errorf("g1 plies %v, want each of its three moves once, in order", got)
	}
	if got := h.state(w.g2).Plies; !slices.Equal(got, wantG2) {
		t.Errorf("g2 plies %v, want %v", got, wantG2)
	}
	copies := map[string][][]byte{}
	for _, s := range h.sender.sent[sent:] {
		copies[s.msg.MessageID] = append(copies[s.msg.MessageID], s.raw)
	}
	twice := 0
	for _, o := range h.outbox() {
		if o.Status != archive.Sent {
			t.Errorf("outbox mail %s to %v is %s", o.MessageID, o.To, o.Status)
		}
		if old[o.ID] {
			continue
		}
		switch n := len(copies[o.MessageID]); {
		case n == 0:
			t.Errorf("reply %s to %v was not sent", o.MessageID, o.To)
		case n == 2:
			twice++
		case n > 2:
			t.Errorf("reply %s to %v sent %d times", o.MessageID, o.To, n)
		}
	}
	if len(copies) != wantReplies {
		t.Errorf("%d different replies sent, want %d", len(copies), wantReplies)
	}
	if twice > resent {
		t.Errorf("%d replies sent twice, want at most %d", twice, resent)
	}
	for mid, cs := range copies {
		for _, c := range cs[1:] {
			if !bytes.Equal(c, cs[0]) {
				t.Errorf("copies of %s differ", mid)
			}
		}
	}
	for _, mid := range w.mids {
		if ok, err := h.store.Processed(context.Background(), strings.Trim(mid, "<>"), ""); !ok || err != nil {
			t.Errorf("mail %s processed: %v, %v", mid, ok, err)
		}
	}
	if w.in.left() != 0 {
		t.Errorf("%d mails left in the inbox", w.in.left())
	}
}

// outboxIDs returns the ids of every outbox mail now.
func (w *chunkWorld) outboxIDs() map[int64]bool {
	old := map[int64]bool{}
	for _, o := range w.h.outbox() {
		old[o.ID] = true
	}
	return old
}

// TestPollChunkShared: of a poll's five mails, the two about different
// games and players share one commit; the three that meet an earlier
// one (its game, its sender) or carry no key are decided alone after it,
// seeing its writes. Six write transactions (one shared commit, three
// alone, the outbox's claim and sent mark), where one commit a mail took
// seven.
func TestPollChunkShared(t *testing.T) {
	w := newChunkWorld(t)
	old, sent := w.outboxIDs(), len(w.h.sender.sent)
	srv := w.h.restart(w.h.srv.Store, w.in)
	before := w.h.store.WriteTransactions()
	if err := srv.Poll(context.Background(), false); err != nil {
		t.Fatalf("Poll: %v", err)
	}
	if n := w.h.store.WriteTransactions() - before; n != 6 {
		t.Errorf("a poll of 5 mails took %d write transactions, want 6 (1 shared commit, 3 alone, 1 claim, 1 sent mark)", n)
	}
	w.check(t, old, sent, []string{"d1-e1"}, 9, 0)
}

// TestFaultChunkPoints: the chunk of TestPollChunkShared, and a failure
// at each step of its shared commit: the transaction refused before it
// began, failing halfway (the archive rolls back the changes before the
// failing one), committed but its caller told it failed, the process
// killed after it when the first mail decided alone commits, and another
// process committing meanwhile a change of carol's game (her mail's
// savepoint meets a conflict) or carol's mail itself (a duplicate).
// After restarts every mail is recorded processed once, every move
// applied once and in order, every reply sent once: a failed shared
// commit decides each of its mails again, nothing lost, nothing doubled.
func TestFaultChunkPoints(t *testing.T) {
	points := []struct {
		name   string
		inject func(w *chunkWorld, fs *faultStore)
		// fails says the first Poll must fail; g2 is carol's game's
		// plies at the end; replies, the different replies sent.
		fails   bool
		g2      []string
		replies int
	}{
		{"refused", func(w *chunkWorld, fs *faultStore) {
			fs.inject("CommitEach", fault{err: errUnavailable})
		}, false, []string{"d1-e1"}, 9},
		{"halfway", func(w *chunkWorld, fs *faultStore) {
			fs.halfway = true
		}, false, []string{"d1-e1"}, 9},
		{"after-commit", func(w *chunkWorld, fs *faultStore) {
			fs.inject("CommitEach", fault{err: errKilled, after: true})
		}, false, []string{"d1-e1"}, 9},
		{"killed-after-commit", func(w *chunkWorld, fs *faultStore) {
			fs.inject("Commit", fault{err: errKilled})
			killInbox(w.in)
		}, true, []string{"d1-e1"}, 9},
		{"conflict", func(w *chunkWorld, fs *faultStore) {
			fs.before = func([]archive.Change) {
				g, err := w.h.store.Game(context.Background(), w.g2)
				if err != nil {
					w.h.t.Fatal(err)
				}
				if err := w.h.store.Commit(context.Background(), archive.Change{Games: []*archive.Game{g}}); err != nil {
					w.h.t.Fatal(err)
				}
			}
		}, false, []string{"d1-e1"}, 9},
		{"duplicate", func(w *chunkWorld, fs *faultStore) {
			fs.before = func([]archive.Change) {
				m := archive.ProcessedMail{MessageID: strings.Trim(w.mids[1], "<>"), From: carol, Disposition: referee.Ignored, Reason: "another process"}
				if err := w.h.store.Commit(context.Background(), archive.Change{Mail: m}); err != nil {
					w.h.t.Fatal(err)
				}
			}
		}, false, nil, 7},
	}
	for _, p := range points {
		t.Run(p.name, func(t *testing.T) {
			w := newChunkWorld(t)
			h := w.h
			old, sent := w.outboxIDs(), len(h.sender.sent)
			fs := h.withFaults()
			p.inject(w, fs)
			ctx := context.Background()
			err := h.restart(fs, w.in).Poll(ctx, false)
			if (err != nil) != p.fails {
				t.Fatalf("the first Poll: %v, want failing %v", err, p.fails)
			}
			if unfired := fs.unfired(); len(unfired) > 0 || fs.before != nil || fs.halfway {
				t.Fatalf("injected faults that never fired: %v", unfired)
			}
			w.in.doneErr = nil
			for i := 0; i < 2; i++ { // restart as serve does: claims released, the inbox read again
				h.now = h.now.Add(time.Minute)
				if _, err := h.store.ReleaseClaims(ctx); err != nil {
					t.Fatal(err)
				}
				srv := h.restart(h.srv.Store, w.in)
				if err := srv.Poll(ctx, true); err != nil {
					t.Fatalf("Poll after restart %d: %v", i+1, err)
				}
				srv.FlushOutbox(ctx)
			}
			w.check(t, old, sent, p.g2, p.replies, 0)
		})
	}
}

// batchFakeInbox is a fakeInbox that marks a chunk's mails done in one
// DoneAll (referee.BatchInbox), as *mailer.Inbox does. calls keeps the
// UIDs of every DoneAll; fail, when set, makes the next DoneAll move
// out the first moved of its mails and then fail, as a connection lost
// in the middle of it leaves them.
type batchFakeInbox struct {
	*fakeInbox
	calls [][]uint32
	fail  error
	moved int
}

var _ referee.BatchInbox = (*batchFakeInbox)(nil)

func (b *batchFakeInbox) DoneAll(_ context.Context, uids []uint32) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, slices.Clone(uids))
	n, err := len(uids), b.fail
	if err != nil {
		n, b.fail = min(b.moved, n), nil
	}
	for _, uid := range uids[:n] {
		b.mails = slices.DeleteFunc(b.mails, func(im *inboxMail) bool { return im.uid == uid })
	}
	return err
}

// TestFaultBatchDoneAll: three mails of one game in one poll, with an
// Inbox that marks them done in one DoneAll, and that DoneAll failing
// after none, one or all three of the mails were moved out. The poll
// returns the failure; the next one reads the inbox again and marks the
// mails left done in one DoneAll, without deciding them again. Every
// move is applied exactly once and in order, each of the six replies is
// sent exactly once, Done is never called and no mail is left.
func TestFaultBatchDoneAll(t *testing.T) {
	for _, moved := range []int{0, 1, 3} {
		t.Run(fmt.Sprintf("moved-%d", moved), func(t *testing.T) {
			h := newHarness(t)
			id := startBrandubh(t, h)
			in := &batchFakeInbox{fakeInbox: queueBatch(h, id), moved: moved,
				fail: fmt.Errorf("mailer: done: %w: EOF", mailer.ErrConnection)}
			in.onDone = func(uid uint32) { t.Errorf("Done(%d) called on a BatchInbox", uid) }
			ctx := context.Background()
			before := len(h.sender.sent)
			if err := h.restart(h.srv.Store, in).Poll(ctx, false); !errors.Is(err, mailer.ErrConnection) {
				t.Fatalf("the first Poll = %v, want the DoneAll's ErrConnection", err)
			}
			if len(in.calls) != 1 || len(in.calls[0]) != 3 {
				t.Fatalf("the first Poll called DoneAll with %v, want once with the three mails", in.calls)
			}
			if in.left() != 3-moved {
				t.Fatalf("%d mails left after the failed DoneAll, want %d", in.left(), 3-moved)
			}
			h.now = h.now.Add(time.Minute)
			if err := h.restart(h.srv.Store, in).Poll(ctx, true); err != nil {
				t.Fatalf("Poll after the failed DoneAll: %v", err)
			}
			switch {
			case moved == 3 && len(in.calls) != 1:
				t.Errorf("DoneAll calls %v, want no second one: no mail was left", in.calls)
			case moved < 3 && (len(in.calls) != 2 || len(in.calls[1]) != 3-moved):
				t.Errorf("DoneAll calls %v, want a second one with the %d mails left", in.calls, 3-moved)
			}
			if got := h.state(id).Plies; !slices.Equal(got, []string{"d1-e1", "d3-f3", "e1-e2"}) {
				t.Fatalf("plies %v, want each of the three exactly once, in order", got)
			}
			sent := map[string]int{}
			for _, s := range h.sender.sent[before:] {
				sent[s.msg.MessageID]++
			}
			if len(sent) != 6 {
				t.Errorf("%d different replies sent, want 6 (two per move)", len(sent))
			}
			for mid, n := range sent {
				if n != 1 {
					t.Errorf("reply %s sent %d times, want once", mid, n)
				}
			}
			if in.left() != 0 {
				t.Errorf("%d mails left in the inbox", in.left())
			}
		})
	}
}
