package archive_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// TestOutboxRound: a sender claims a round of mails in one transaction
// (ClaimOutboxes), is refused those another sender holds and told of
// those that are gone, then records the sent ones and drops the claims
// of those it did not send in one more transaction (MarkSentAll): two
// write transactions for the round, whatever its size.
func TestOutboxRound(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Games: []*archive.Game{newGame("A")}, Outbox: []archive.OutboxMail{
		reply("A", "a1", "alice@example.org"), reply("A", "a2", "bob@example.net"),
		reply("A", "a3", "alice@example.org"), reply("A", "a4", "carol@example.org"),
	}})
	byID := map[string]int64{}
	for _, m := range outbox(t, s) {
		byID[m.MessageID] = m.ID
	}
	now := t0.Add(time.Minute)
	if ok, err := s.ClaimOutbox(ctx, byID["a4"], "other", now); !ok || err != nil {
		t.Fatalf("ClaimOutbox(a4, other) = %v, %v", ok, err)
	}

	before := s.WriteTransactions()
	round := []int64{byID["a1"], byID["a2"], byID["a3"], byID["a4"], 999}
	got, err := s.ClaimOutboxes(ctx, round, "me", now)
	want := []archive.ClaimState{archive.ClaimTaken, archive.ClaimTaken, archive.ClaimTaken, archive.ClaimRefused, archive.ClaimGone}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ClaimOutboxes = %v, %v; want %v", got, err, want)
	}
	// a1 and a2 sent, a3 not tried: its claim is dropped, a4's (other's) kept.
	if err := s.MarkSentAll(ctx, []int64{byID["a1"], byID["a2"]}, now, "me", []int64{byID["a3"], byID["a4"]}); err != nil {
		t.Fatalf("MarkSentAll = %v", err)
	}
	if n := s.WriteTransactions() - before; n != 2 {
		t.Errorf("a round of 5 mails took %d write transactions, want 2", n)
	}
	state := map[string]string{}
	for _, m := range outbox(t, s) {
		state[m.MessageID] = string(m.Status) + "/" + m.ClaimedBy
	}
	wantState := map[string]string{"a1": "sent/", "a2": "sent/", "a3": "pending/", "a4": "pending/other"}
	if !reflect.DeepEqual(state, wantState) {
		t.Errorf("outbox status/claim = %v, want %v", state, wantState)
	}
	sent, err := s.Outbox(ctx, archive.Sent)
	if err != nil || len(sent) != 2 || !sent[0].SentAt.Equal(now) {
		t.Errorf("Outbox(Sent) = %+v, %v; want a1 and a2 sent at %v", sent, err, now)
	}

	// Another sender may claim a3 at once; me may claim again what it holds.
	if ok, err := s.ClaimOutbox(ctx, byID["a3"], "third", now); !ok || err != nil {
		t.Errorf("ClaimOutbox(a3, third) after its release = %v, %v", ok, err)
	}
	if got, err := s.ClaimOutboxes(ctx, []int64{byID["a3"], byID["a1"]}, "me", now); err != nil ||
		!reflect.DeepEqual(got, []archive.ClaimState{archive.ClaimRefused, archive.ClaimRefused}) {
		t.Errorf("ClaimOutboxes(a3 held by third, a1 sent) = %v, %v; want refused twice", got, err)
	}

	// A missing mail is reported, the others are recorded all the same.
	if err := s.MarkSentAll(ctx, []int64{byID["a3"], 999}, now, "third", nil); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("MarkSentAll(a3, 999) = %v, want ErrNotFound", err)
	}
	if sent, _ := s.Outbox(ctx, archive.Sent); len(sent) != 3 {
		t.Errorf("after MarkSentAll(a3, 999): %d sent, want 3", len(sent))
	}

	// Nothing to do writes nothing; an empty owner is refused.
	before = s.WriteTransactions()
	if cs, err := s.ClaimOutboxes(ctx, nil, "me", now); cs != nil || err != nil {
		t.Errorf("ClaimOutboxes(none) = %v, %v", cs, err)
	}
	if err := s.MarkSentAll(ctx, nil, now, "me", nil); err != nil {
		t.Errorf("MarkSentAll(none) = %v", err)
	}
	if n := s.WriteTransactions() - before; n != 0 {
		t.Errorf("empty calls took %d write transactions", n)
	}
	if _, err := s.ClaimOutboxes(ctx, round, "", now); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("ClaimOutboxes(owner \"\") = %v, want ErrInvalid", err)
	}
}
