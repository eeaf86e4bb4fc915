package archive_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

func TestPendingOutboxOrder(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	// Queued in this order, across three changes and two games.
	at := func(m archive.OutboxMail, d time.Duration) archive.OutboxMail { m.CreatedAt = t0.Add(d); return m }
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("B")}, Outbox: []archive.OutboxMail{
		at(reply("B", "b1-alice", "alice@example.org"), 1*time.Second),
		at(reply("B", "b1-bob", "bob@example.net"), 1*time.Second),
	}})
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("A")}, Outbox: []archive.OutboxMail{
		at(reply("A", "a1-bob", "bob@example.net"), 2*time.Second),
		at(reply("", "help", "carol@example.org"), 2*time.Second),
	}})
	commit(t, s, archive.Change{Outbox: []archive.OutboxMail{
		at(reply("B", "b2-alice", "alice@example.org"), 3*time.Second),
		at(reply("A", "a2-bob", "bob@example.net"), 3*time.Second),
	}})
	later := reply("A", "a3-later", "bob@example.net")
	later.CreatedAt, later.NextAttempt = t0.Add(4*time.Second), t0.Add(time.Hour)
	commit(t, s, archive.Change{Outbox: []archive.OutboxMail{later}})

	now := t0.Add(time.Minute)
	pending := func(limit int) []archive.OutboxMail {
		t.Helper()
		got, err := s.PendingOutbox(ctx, now, limit)
		if err != nil {
			t.Fatalf("PendingOutbox = %v", err)
		}
		return got
	}
	byID := map[string]int64{}
	for _, m := range pending(0) {
		byID[m.MessageID] = m.ID
	}
	check := func(name string, limit int, want ...string) {
		t.Helper()
		if got := ids(pending(limit)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: PendingOutbox(limit %d) = %q, want %q", name, limit, got, want)
		}
	}
	// in the order queued, across games: a change's mail about no game
	// after that change's earlier game mail
	check("all", 0, "b1-alice", "b1-bob", "a1-bob", "help", "b2-alice", "a2-bob")
	check("limit", 3, "b1-alice", "b1-bob", "a1-bob")

	// b1-alice fails for now: b2-alice (same game, same recipient) waits
	// for it, b1-bob does not.
	if err := s.MarkRetry(ctx, byID["b1-alice"], t0.Add(10*time.Minute), "451 try later"); err != nil {
		t.Fatal(err)
	}
	check("after retry", 0, "b1-bob", "a1-bob", "help", "a2-bob")
	for _, id := range []string{"help", "a1-bob", "b1-bob"} {
		if err := s.MarkSent(ctx, byID[id], now); err != nil {
			t.Fatal(err)
		}
	}
	check("after sent", 0, "a2-bob")

	// When the retry is due both come back, in order.
	now = t0.Add(10 * time.Minute)
	check("retry due", 0, "b1-alice", "b2-alice", "a2-bob")

	// A mail given up no longer holds the next one back.
	if err := s.MarkRetry(ctx, byID["b1-alice"], t0.Add(time.Hour), "451 again"); err != nil {
		t.Fatal(err)
	}
	check("retry again", 0, "a2-bob")
	if err := s.MarkFailed(ctx, byID["b1-alice"], "550 no such user"); err != nil {
		t.Fatal(err)
	}
	check("after failed", 0, "b2-alice", "a2-bob")
	clk.Set(now)

	failed, err := s.Outbox(ctx, archive.Failed)
	if err != nil || len(failed) != 1 {
		t.Fatalf("Outbox(Failed) = %v, %v; want b1-alice", ids(failed), err)
	}
	if f := failed[0]; f.MessageID != "b1-alice" || f.Attempts != 3 || f.LastError != "550 no such user" || f.Status != archive.Failed {
		t.Errorf("failed mail = %+v; want b1-alice, 3 attempts, 550", f)
	}
	sent, err := s.Outbox(ctx, archive.Sent)
	if err != nil || !reflect.DeepEqual(ids(sent), []string{"b1-bob", "a1-bob", "help"}) {
		t.Errorf("Outbox(Sent) = %q, %v; want in id order", ids(sent), err)
	}
	if !sent[0].SentAt.Equal(t0.Add(time.Minute)) || sent[0].Attempts != 0 {
		t.Errorf("sent mail = %+v; want SentAt t0+1m, 0 attempts", sent[0])
	}

	// The operator sends the failed mail again.
	if err := s.Requeue(ctx, byID["b1-alice"], now); err != nil {
		t.Fatal(err)
	}
	check("requeued", 0, "b1-alice", "b2-alice", "a2-bob")
	if err := s.Requeue(ctx, byID["help"], now); !errors.Is(err, archive.ErrConflict) {
		t.Errorf("Requeue(sent) = %v, want ErrConflict", err)
	}

	for name, err := range map[string]error{
		"MarkSent":   s.MarkSent(ctx, 999, now),
		"MarkRetry":  s.MarkRetry(ctx, 999, now, "x"),
		"MarkFailed": s.MarkFailed(ctx, 999, "x"),
		"Requeue":    s.Requeue(ctx, 999, now),
	} {
		if !errors.Is(err, archive.ErrNotFound) {
			t.Errorf("%s(999) = %v, want ErrNotFound", name, err)
		}
	}
	if _, err := s.Outbox(ctx, "lost"); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("Outbox(lost) = %v, want ErrInvalid", err)
	}
}

func TestMailboxState(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	check := func(mailbox string, wantV, wantU uint32) {
		t.Helper()
		v, u, err := s.MailboxState(ctx, mailbox)
		if v != wantV || u != wantU || err != nil {
			t.Errorf("MailboxState(%q) = %d, %d, %v; want %d, %d, nil", mailbox, v, u, err, wantV, wantU)
		}
	}
	check("INBOX", 0, 0)
	if err := s.SetMailboxState(ctx, "INBOX", 1700000000, 41); err != nil {
		t.Fatal(err)
	}
	check("INBOX", 1700000000, 41)
	check("Processed", 0, 0)
	// The largest values IMAP allows.
	if err := s.SetMailboxState(ctx, "INBOX", 4294967295, 4294967295); err != nil {
		t.Fatal(err)
	}
	check("INBOX", 4294967295, 4294967295)
	// Saved together with a mail.
	commit(t, s, archive.Change{Mail: archive.ProcessedMail{MessageID: "<m>", Disposition: "ignored"},
		Mailbox: &archive.MailboxState{Mailbox: "INBOX", UIDValidity: 7, LastUID: 1}})
	check("INBOX", 7, 1)
	if err := s.SetMailboxState(ctx, "", 1, 1); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("SetMailboxState(\"\") = %v, want ErrInvalid", err)
	}
}

func TestCountRecent(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	for i, d := range []string{"refused", "refused", "applied", "refused", "error"} {
		m := archive.ProcessedMail{MessageID: string(rune('a' + i)), From: "Mallory@Example.org", Disposition: d,
			At: t0.Add(time.Duration(i) * 20 * time.Minute)}
		commit(t, s, archive.Change{Mail: m})
	}
	commit(t, s, archive.Change{Mail: archive.ProcessedMail{MessageID: "z", From: "bob@example.net", Disposition: "refused", At: t0}})
	for _, tc := range []struct {
		from, disposition string
		since             time.Time
		want              int
	}{
		{"mallory@example.org", "refused", t0, 3},
		{"MALLORY@example.org", "refused", t0.Add(20 * time.Minute), 2},
		{"mallory@example.org", "refused", t0.Add(21 * time.Minute), 1},
		{"mallory@example.org", "", t0.Add(time.Hour), 2},
		{"mallory@example.org", "applied", t0, 1},
		{"bob@example.net", "refused", t0, 1},
		{"carol@example.org", "", t0, 0},
	} {
		if n, err := s.CountRecent(ctx, tc.from, tc.disposition, tc.since); n != tc.want || err != nil {
			t.Errorf("CountRecent(%q, %q, %v) = %d, %v; want %d", tc.from, tc.disposition, tc.since, n, err, tc.want)
		}
	}
}
