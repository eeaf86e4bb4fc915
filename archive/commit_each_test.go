package archive_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/taflmail/taflmail/archive"
)

// TestCommitEach: five changes in one transaction, each under its own
// savepoint. A mail seen before (its Message-ID committed by an earlier
// change of the same call) and a game written by an earlier change from
// the version both read are rolled back alone, the others written, the
// later ones seeing the earlier ones' writes; one write transaction in
// all, and only the written changes' games settled.
func TestCommitEach(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Mail: mail("<m0>", "G0"), Games: []*archive.Game{newGame("G0")}})
	first, stale := game(t, s, "G0"), game(t, s, "G0")
	first.DrawOfferBy = "attackers"
	stale.Status = archive.Finished
	g1 := newGame("G1")
	cs := []archive.Change{
		{Mail: mail("<m1>", "G1"), Games: []*archive.Game{g1}, Outbox: []archive.OutboxMail{reply("G1", "<r1>", "bob@example.net")},
			Mailbox: &archive.MailboxState{Mailbox: "INBOX", UIDValidity: 7, LastUID: 1}},
		{Mail: archive.ProcessedMail{MessageID: "<m1>", Disposition: "applied"}, Outbox: []archive.OutboxMail{reply("G1", "<r2>", "bob@example.net")}},
		{Mail: mail("<m3>", "G0"), Games: []*archive.Game{first}, Players: []archive.Player{{Address: "alice@example.org", Name: "Alice"}}},
		{Mail: mail("<m4>", "G0"), Games: []*archive.Game{stale}, Outbox: []archive.OutboxMail{reply("G0", "<r4>", "bob@example.net")},
			Players: []archive.Player{{Address: "alice@example.org", Name: "Mallory"}}},
		{Mail: mail("<m5>", "G1"), NewPlies: map[string][]archive.Ply{"G1": {{N: 1, Move: "d1-d3"}}},
			Outbox: []archive.OutboxMail{reply("G1", "<r5>", "bob@example.net")}, Mailbox: &archive.MailboxState{Mailbox: "INBOX", UIDValidity: 7, LastUID: 5}},
	}
	before := s.WriteTransactions()
	errs, err := s.CommitEach(ctx, cs)
	if err != nil {
		t.Fatalf("CommitEach = %v", err)
	}
	if n := s.WriteTransactions() - before; n != 1 {
		t.Errorf("CommitEach took %d write transactions, want 1", n)
	}
	want := []error{nil, archive.ErrDuplicate, nil, archive.ErrConflict, nil}
	for i, w := range want {
		if (w == nil) != (errs[i] == nil) || (w != nil && !errors.Is(errs[i], w)) {
			t.Errorf("change %d: %v, want %v", i+1, errs[i], w)
		}
	}
	for _, id := range []string{"<m1>", "<m3>", "<m5>"} {
		if ok, err := s.Processed(ctx, id, ""); !ok || err != nil {
			t.Errorf("Processed(%s) = %v, %v; want true", id, ok, err)
		}
	}
	if ok, _ := s.Processed(ctx, "<m4>", ""); ok {
		t.Error("the conflicting change's mail is recorded")
	}
	if got := ids(outbox(t, s)); !reflect.DeepEqual(got, []string{"<r1>", "<r5>"}) {
		t.Errorf("outbox = %q, want <r1> <r5>", got)
	}
	if g := game(t, s, "G0"); g.Status != archive.Active || g.DrawOfferBy != "attackers" || g.Version != 2 {
		t.Errorf("G0 = %+v, want the third change's (version 2, a draw offered, active)", g)
	}
	if g := game(t, s, "G1"); g.PlyCount != 1 {
		t.Errorf("G1 has %d plies, want the fifth change's one", g.PlyCount)
	}
	if p, err := s.Player(ctx, "alice@example.org"); err != nil || p.Name != "Alice" {
		t.Errorf("Player(alice) = %+v, %v; want Alice (the conflicting change's Mallory rolled back)", p, err)
	}
	if v, u, err := s.MailboxState(ctx, "INBOX"); v != 7 || u != 5 || err != nil {
		t.Errorf("MailboxState = %d, %d, %v; want 7, 5", v, u, err)
	}
	if g1.Version != 1 || first.Version != 2 {
		t.Errorf("written games settled at versions %d and %d, want 1 and 2", g1.Version, first.Version)
	}
	if stale.Version != 1 {
		t.Errorf("the conflicting change's game has version %d, want the 1 it was read at", stale.Version)
	}
}

// TestCommitEachAllOrNothing: an error other than a conflict or a
// duplicate, halfway through the changes (an update of a game that does
// not exist), or a change that breaks a rule, writes nothing of any of
// them, the changes before it included, and commits no transaction.
func TestCommitEachAllOrNothing(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	ghost := newGame("GHOST")
	ghost.Version = 3
	for _, tc := range []struct {
		name   string
		second archive.Change
		want   error
	}{
		{"not found halfway", archive.Change{Mail: mail("<b>", "GHOST"), Games: []*archive.Game{ghost}}, archive.ErrNotFound},
		{"invalid", archive.Change{Mail: archive.ProcessedMail{MessageID: "<b>", Disposition: "eaten"}}, archive.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ga := newGame("GA")
			cs := []archive.Change{
				{Mail: mail("<a>", "GA"), Games: []*archive.Game{ga}, Outbox: []archive.OutboxMail{reply("GA", "<ra>", "bob@example.net")},
					Mailbox: &archive.MailboxState{Mailbox: "INBOX", UIDValidity: 7, LastUID: 1}},
				tc.second,
				{Mail: mail("<c>", "")},
			}
			before := s.WriteTransactions()
			errs, err := s.CommitEach(ctx, cs)
			if !errors.Is(err, tc.want) || errs != nil {
				t.Fatalf("CommitEach = %v, %v; want nil, %v", errs, err, tc.want)
			}
			if n := s.WriteTransactions() - before; n != 0 {
				t.Errorf("%d write transactions committed, want 0", n)
			}
			for _, id := range []string{"<a>", "<b>", "<c>"} {
				if ok, _ := s.Processed(ctx, id, ""); ok {
					t.Errorf("mail %s is recorded", id)
				}
			}
			if _, err := s.Game(ctx, "GA"); !errors.Is(err, archive.ErrNotFound) {
				t.Errorf("Game(GA) = %v, want ErrNotFound", err)
			}
			if got := outbox(t, s); len(got) != 0 {
				t.Errorf("outbox = %q, want empty", ids(got))
			}
			if v, u, _ := s.MailboxState(ctx, "INBOX"); v != 0 || u != 0 {
				t.Errorf("MailboxState = %d, %d; want none", v, u)
			}
			if ga.Version != 0 {
				t.Errorf("the first change's new game was settled at version %d", ga.Version)
			}
		})
	}
}
