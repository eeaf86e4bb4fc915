package archive_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taflmail/taflmail/archive"
)

// TestDigestColumns: "notify digest" is stored with its time of day and
// due time and read back; an upsert with the same setting keeps the stored
// due time (a player row read before a digest was sent does not move the
// timer back), a new time takes the new due time, "notify each" clears
// both.
func TestDigestColumns(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	due := t0.Add(19*time.Hour + 30*time.Minute) // 07:30 the next day
	bob := archive.Player{Address: "Bob@Example.net", Language: "de", Digest: true, DigestAt: 7*60 + 30, DigestDue: due}
	commit(t, s, archive.Change{Players: []archive.Player{bob}})
	got, err := s.Player(ctx, "bob@example.net")
	if err != nil || !got.Digest || got.DigestAt != 450 || !got.DigestDue.Equal(due) || got.Language != "de" {
		t.Fatalf("Player = %+v, %v; want digest at 450, due %v", got, err, due)
	}

	// the digest is sent: due moves a day on
	sent := archive.DigestSent{Address: "bob@example.net", Due: due, Next: due.Add(24 * time.Hour)}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.DigestsSent{sent}}})
	// a stale row (read before) with the same setting keeps the new due time
	commit(t, s, archive.Change{Players: []archive.Player{bob}})
	if got, _ := s.Player(ctx, "bob"+"@example.net"); !got.DigestDue.Equal(sent.Next) {
		t.Errorf("after a stale upsert DigestDue = %v, want %v", got.DigestDue, sent.Next)
	}
	// another time replaces it
	bob.DigestAt, bob.DigestDue = 20*60, t0.Add(8*time.Hour)
	commit(t, s, archive.Change{Players: []archive.Player{bob}})
	if got, _ := s.Player(ctx, "bob@example.net"); got.DigestAt != 1200 || !got.DigestDue.Equal(t0.Add(8*time.Hour)) {
		t.Errorf("after a new time Player = %+v", got)
	}
	// notify each
	commit(t, s, archive.Change{Players: []archive.Player{{Address: "bob@example.net"}}})
	if got, _ := s.Player(ctx, "bob@example.net"); got.Digest || got.DigestAt != 0 || !got.DigestDue.IsZero() {
		t.Errorf("after notify each Player = %+v", got)
	}
	if ds, err := s.DueDigests(ctx, t0.Add(1000*time.Hour), 0); err != nil || len(ds) != 0 {
		t.Errorf("DueDigests after notify each = %v, %v", ds, err)
	}
}

// TestDigestTimer: DueDigests finds the due digests earliest first,
// NextTimer sees a digest before a later game timer, and a digest is
// committed once: the same DigestSent again is ErrDuplicate, one for a
// player who left the digest ErrConflict, and neither writes its outbox
// mail.
func TestDigestTimer(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	g := newGame("D1GEST")
	deadline := t0.Add(5 * time.Hour)
	commit(t, s, archive.Change{Games: []*archive.Game{g}, Writes: []archive.Write{archive.TimerPlans{
		g.ID: {Ply: 1, Timers: []archive.Timer{{Key: "ply 1 deadline", Kind: archive.TimerDeadline, Ply: 1, Due: deadline}}}}}})
	if next, ok, err := s.NextTimer(ctx); err != nil || !ok || !next.Equal(deadline) {
		t.Fatalf("NextTimer = %v, %v, %v; want the deadline %v", next, ok, err, deadline)
	}
	players := []archive.Player{
		{Address: "carol@example.org", Digest: true, DigestAt: 14 * 60, DigestDue: t0.Add(2 * time.Hour)},
		{Address: "alice@example.org", Digest: true, DigestAt: 13 * 60, DigestDue: t0.Add(time.Hour)},
		{Address: "dave@example.org", Digest: true, DigestAt: 11 * 60, DigestDue: t0.Add(23 * time.Hour)},
		{Address: "bob@example.net"},
	}
	commit(t, s, archive.Change{Players: players})
	if next, ok, err := s.NextTimer(ctx); err != nil || !ok || !next.Equal(t0.Add(time.Hour)) {
		t.Errorf("NextTimer = %v, %v, %v; want alice's digest at t0+1h", next, ok, err)
	}
	due, err := s.DueDigests(ctx, t0.Add(3*time.Hour), 0)
	if err != nil || len(due) != 2 || due[0].Address != "alice@example.org" || due[1].Address != "carol@example.org" ||
		!due[0].Due.Equal(t0.Add(time.Hour)) {
		t.Fatalf("DueDigests(t0+3h) = %+v, %v; want alice then carol", due, err)
	}
	if one, _ := s.DueDigests(ctx, t0.Add(3*time.Hour), 1); len(one) != 1 {
		t.Errorf("DueDigests with limit 1 = %d", len(one))
	}

	sent := archive.DigestSent{Address: "Alice@Example.org", Due: due[0].Due, Next: due[0].Due.Add(24 * time.Hour)}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.DigestsSent{sent}}, Outbox: []archive.OutboxMail{reply("", "digest-1@x", "alice@example.org")}})
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.DigestsSent{sent}}, Outbox: []archive.OutboxMail{reply("", "digest-2@x", "alice@example.org")}})
	if !errors.Is(err, archive.ErrDuplicate) {
		t.Errorf("the same digest again: Commit = %v, want ErrDuplicate", err)
	}
	err = s.Commit(ctx, archive.Change{Writes: []archive.Write{archive.DigestsSent{{Address: "bob@example.net", Due: t0, Next: t0.Add(24 * time.Hour)}}},
		Outbox: []archive.OutboxMail{reply("", "digest-3@x", "bob@example.net")}})
	if !errors.Is(err, archive.ErrConflict) {
		t.Errorf("a digest of a player without one: Commit = %v, want ErrConflict", err)
	}
	if got := ids(outbox(t, s)); len(got) != 1 || got[0] != "digest-1@x" {
		t.Errorf("outbox = %v, want only the committed digest", got)
	}
	if due, _ := s.DueDigests(ctx, t0.Add(3*time.Hour), 0); len(due) != 1 || due[0].Address != "carol@example.org" {
		t.Errorf("DueDigests after alice's = %+v, want carol's only", due)
	}
}

// TestDigestInvalid: Commit refuses digest settings that break the rules
// on Player.Digest and DigestSent, before writing anything.
func TestDigestInvalid(t *testing.T) {
	s, _, _ := openStore(t)
	for name, c := range map[string]archive.Change{
		"minute 1440":     {Players: []archive.Player{{Address: "a@x", Digest: true, DigestAt: 1440, DigestDue: t0}}},
		"negative minute": {Players: []archive.Player{{Address: "a@x", Digest: true, DigestAt: -1, DigestDue: t0}}},
		"no due time":     {Players: []archive.Player{{Address: "a@x", Digest: true, DigestAt: 60}}},
		"time, no digest": {Players: []archive.Player{{Address: "a@x", DigestAt: 60}}},
		"zone, no digest": {Players: []archive.Player{{Address: "a@x", DigestZone: "Europe/Berlin"}}},
		"zone of 65 bytes": {Players: []archive.Player{{Address: "a@x", Digest: true, DigestAt: 60, DigestDue: t0,
			DigestZone: strings.Repeat("Z", 65)}}},
		"next before due": {Writes: []archive.Write{archive.DigestsSent{{Address: "a@x", Due: t0, Next: t0}}}},
		"no address":      {Writes: []archive.Write{archive.DigestsSent{{Due: t0, Next: t0.Add(time.Hour)}}}},
	} {
		if err := s.Commit(context.Background(), c); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("%s: Commit = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := s.Player(context.Background(), "a@x"); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("a refused change wrote a player: %v", err)
	}
}

// TestDigestSurvivesReopen: the digest timer is in the file: a store
// opened again finds it due.
func TestDigestSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	s, _, path := openStore(t)
	commit(t, s, archive.Change{Players: []archive.Player{{Address: "a@x", Digest: true, DigestAt: 0, DigestDue: t0}}})
	s.Close()
	s2, err := archive.Open(ctx, filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if due, err := s2.DueDigests(ctx, t0, 0); err != nil || len(due) != 1 || due[0].Address != "a@x" {
		t.Errorf("DueDigests after reopening = %+v, %v", due, err)
	}
}

// TestDigestZone: the digest's time zone is stored with its time of day
// and read back; an upsert that names the same time in another zone takes
// the new due time (the same time of day is another instant there), one
// with the same time and zone keeps the stored due time; "notify each"
// clears the zone.
func TestDigestZone(t *testing.T) {
	ctx := context.Background()
	s, _, _ := openStore(t)
	due := time.Date(2026, 11, 30, 6, 30, 0, 0, time.UTC) // 07:30 in Berlin (CET)
	bob := archive.Player{Address: "bob@example.net", Digest: true, DigestAt: 450, DigestZone: "Europe/Berlin", DigestDue: due}
	commit(t, s, archive.Change{Players: []archive.Player{bob}})
	if got, err := s.Player(ctx, bob.Address); err != nil || got.DigestZone != "Europe/Berlin" || got.DigestAt != 450 || !got.DigestDue.Equal(due) {
		t.Fatalf("Player = %+v, %v; want 07:30 Europe/Berlin due %v", got, err, due)
	}
	// the digest is sent; a stale row with the same setting keeps the new due time
	sent := archive.DigestSent{Address: bob.Address, Due: due, Next: due.Add(24 * time.Hour)}
	commit(t, s, archive.Change{Writes: []archive.Write{archive.DigestsSent{sent}}})
	commit(t, s, archive.Change{Players: []archive.Player{bob}})
	if got, _ := s.Player(ctx, bob.Address); !got.DigestDue.Equal(sent.Next) {
		t.Errorf("after a stale upsert DigestDue = %v, want %v", got.DigestDue, sent.Next)
	}
	// the same time of day in another zone is another setting
	nz := bob
	nz.DigestZone, nz.DigestDue = "Pacific/Auckland", time.Date(2026, 11, 30, 18, 30, 0, 0, time.UTC)
	commit(t, s, archive.Change{Players: []archive.Player{nz}})
	if got, _ := s.Player(ctx, bob.Address); got.DigestZone != "Pacific/Auckland" || !got.DigestDue.Equal(nz.DigestDue) {
		t.Errorf("after another zone Player = %+v, want Pacific/Auckland due %v", got, nz.DigestDue)
	}
	commit(t, s, archive.Change{Players: []archive.Player{{Address: bob.Address}}})
	if got, _ := s.Player(ctx, bob.Address); got.Digest || got.DigestZone != "" {
		t.Errorf("after notify each Player = %+v", got)
	}
}
