package archive_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// TestOutboxReplace: a reply held for the engine's answer (HeldFor, due
// later) is found by HeldOutbox with its carried text, and the answer's
// commit deletes it (Replace) together with queuing its own mail. A held
// mail a sender has claimed, or sent, cannot be replaced: that commit
// fails with ErrConflict and writes nothing. Issue 22 §5.
func TestOutboxReplace(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	held := reply("G", "note", "alice@example.org")
	held.NextAttempt, held.HeldFor, held.Carry = t0.Add(30*time.Second), "ply 2 engine", "Move 1. e1-e3 played."
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("G")}, Outbox: []archive.OutboxMail{held}})

	if _, err := s.HeldOutbox(ctx, "G", "ply 4 engine"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("HeldOutbox for another key = %v, want ErrNotFound", err)
	}
	if _, err := s.HeldOutbox(ctx, "", "ply 2 engine"); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("HeldOutbox without a game = %v, want ErrInvalid", err)
	}
	got, err := s.HeldOutbox(ctx, "G", "ply 2 engine")
	if err != nil {
		t.Fatal(err)
	}
	if got.MessageID != "note" || got.Carry != held.Carry || got.HeldFor != held.HeldFor || !got.NextAttempt.Equal(held.NextAttempt) {
		t.Fatalf("HeldOutbox = %+v", got)
	}

	// claimed by a sender: the answer's commit fails whole
	if ok, err := s.ClaimOutbox(ctx, got.ID, "sender", t0.Add(30*time.Second)); !ok || err != nil {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	both := reply("G", "both", "alice@example.org")
	err = s.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{both}, Replace: []int64{got.ID}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Fatalf("replacing a claimed mail = %v, want ErrConflict", err)
	}
	if all, _ := s.Outbox(ctx, ""); len(all) != 1 || all[0].MessageID != "note" {
		t.Fatalf("after the refused replace the outbox holds %v, want only the note", ids(all))
	}
	if err := s.MarkSent(ctx, got.ID, t0.Add(31*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HeldOutbox(ctx, "G", "ply 2 engine"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("HeldOutbox of a sent mail = %v, want ErrNotFound", err)
	}
	if err := s.Commit(ctx, archive.Change{Outbox: []archive.OutboxMail{both}, Replace: []int64{got.ID}}); !errors.Is(err, archive.ErrConflict) {
		t.Fatalf("replacing a sent mail = %v, want ErrConflict", err)
	}

	// pending and unclaimed: replaced
	held.MessageID, held.HeldFor = "note2", "ply 4 engine"
	commit(t, s, archive.Change{Outbox: []archive.OutboxMail{held}})
	got, err = s.HeldOutbox(ctx, "G", "ply 4 engine")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, s, archive.Change{Outbox: []archive.OutboxMail{both}, Replace: []int64{got.ID}})
	all, err := s.Outbox(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"note", "both"}; len(all) != 2 || all[0].MessageID != want[0] || all[1].MessageID != want[1] {
		t.Errorf("outbox %v, want %v: the held note2 replaced by both", ids(all), want)
	}
	if all[1].HeldFor != "" || all[1].Carry != "" {
		t.Errorf("the answer's mail is held for %q carrying %q, want neither", all[1].HeldFor, all[1].Carry)
	}
}
