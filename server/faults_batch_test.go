package server

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/mailer"
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
