package archive_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// TestPublicNames: a chosen name is kept per player, survives the
// player's later upserts, is unique however it is written, and can be
// cleared; the pseudonym key is random per archive and at least 16
// bytes.
func TestPublicNames(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	commit(t, s, archive.Change{Players: []archive.Player{{Address: "alice@example.org", Name: "Alice"}}})
	commit(t, s, archive.Change{Writes: []archive.Write{archive.PublicNames{"Alice@Example.org": "  Ada   Lovelace "}}, Players: []archive.Player{{Address: "alice@example.org"}}})
	commit(t, s, archive.Change{Writes: []archive.Write{archive.PublicNames{"carol@example.org": "Carol"}}}) // not stored before
	// an upsert of the player from a mail keeps the name
	commit(t, s, archive.Change{Players: []archive.Player{{Address: "alice@example.org", Name: "A. L.", Language: "de"}}})
	if n, err := s.PublicName(ctx, "ALICE@example.org"); err != nil || n != "Ada Lovelace" {
		t.Errorf("PublicName(alice) = %q, %v; want Ada Lovelace", n, err)
	}
	all, err := s.PublicNames(ctx)
	if err != nil || len(all) != 2 || all["carol@example.org"] != "Carol" {
		t.Errorf("PublicNames = %v, %v", all, err)
	}
	if a, err := s.PublicNameOwner(ctx, "ada  LOVELACE"); err != nil || a != "alice@example.org" {
		t.Errorf("PublicNameOwner(ada lovelace) = %q, %v", a, err)
	}
	if a, _ := s.PublicNameOwner(ctx, "Bob"); a != "" {
		t.Errorf("PublicNameOwner(Bob) = %q, want none", a)
	}
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.PublicNames{"bob@example.net": "ADA lovelace"}}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("bob taking alice's name = %v, want ErrConflict", err)
	}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.PublicNames{"alice@example.org": ""}}})
	commit(t, s, archive.Change{Writes: []archive.Write{archive.PublicNames{"bob@example.net": "Ada Lovelace"}}})
	if n, _ := s.PublicName(ctx, "alice@example.org"); n != "" {
		t.Errorf("cleared name = %q", n)
	}
	if p, err := s.Player(ctx, "alice@example.org"); err != nil || p.Name != "A. L." || p.Language != "de" {
		t.Errorf("Player(alice) = %+v, %v: the name change touched the player", p, err)
	}

	k1, err := s.PseudonymKey(ctx)
	if err != nil || len(k1) < 16 {
		t.Fatalf("PseudonymKey = %x, %v", k1, err)
	}
	s2, _, _ := openStore(t)
	k2, _ := s2.PseudonymKey(ctx)
	if bytes.Equal(k1, k2) {
		t.Errorf("two archives have the same pseudonym key %x", k1)
	}
}

// TestChangeStamp: the stamp changes with a game, a ply, a public name,
// and not otherwise.
func TestChangeStamp(t *testing.T) {
	ctx := context.Background()
	s, clk, _ := openStore(t)
	stamp := func() string {
		t.Helper()
		st, err := s.ChangeStamp(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	s0 := stamp()
	if stamp() != s0 {
		t.Fatal("the stamp changed without a change")
	}
	g := newGame("K7QX2M")
	commit(t, s, archive.Change{Games: []*archive.Game{g}})
	s1 := stamp()
	clk.Set(t0.Add(time.Minute))
	commit(t, s, archive.Change{NewPlies: map[string][]archive.Ply{"K7QX2M": {{N: 1, Move: "d1-d3"}}}})
	s2 := stamp()
	commit(t, s, archive.Change{Writes: []archive.Write{archive.PublicNames{"alice@example.org": "Ada"}}})
	s3 := stamp()
	commit(t, s, archive.Change{Writes: []archive.Write{archive.PublicNames{"alice@example.org": "Bea"}}})
	s4 := stamp()
	for i, pair := range [][2]string{{s0, s1}, {s1, s2}, {s2, s3}, {s3, s4}} {
		if pair[0] == pair[1] {
			t.Errorf("change %d left the stamp %q", i+1, pair[0])
		}
	}
}
