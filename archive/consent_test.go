package archive

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestConfirmations: a request is stored, read back, its mail counted
// while its row is kept (two requests of one mail count once), replaced
// by a newer one of the same address and what,
// marked confirmed, and deleted once past its expiry when the next
// requests are written.
func TestConfirmations(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s, err := OpenWith(ctx, filepath.Join(t.TempDir(), "a.db"), Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	week := 7 * 24 * time.Hour
	ask := Confirmation{Address: "Carol@Watch.test", What: "watch K7QX2M", Request: "watch K7QX2M results", Key: "3f9k2m7q4d",
		AskedAt: now, Expires: now.Add(week)}
	if err := s.Commit(ctx, Change{Writes: []Write{Confirmations{ask}}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Confirmation(ctx, "carol@watch.test", "watch K7QX2M")
	if err != nil || got.Address != "carol@watch.test" || got.Request != ask.Request || got.Key != ask.Key ||
		!got.AskedAt.Equal(now) || !got.Expires.Equal(now.Add(week)) || !got.ConfirmedAt.IsZero() || !got.Waiting(now) {
		t.Fatalf("Confirmation = %+v, %v; want %+v waiting", got, err, ask)
	}
	if got.Waiting(now.Add(week)) {
		t.Error("a request is still waiting at its expiry")
	}
	if _, err := s.Confirmation(ctx, "carol@watch.test", "watch OTHER1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another request: %v, want ErrNotFound", err)
	}

	// two more requests in one mail, a day later; then the first is
	// confirmed
	now = now.Add(24 * time.Hour)
	other := Confirmation{Address: "carol@watch.test", What: "notify", Request: "notify digest", Key: "a873c2n40h", Expires: now.Add(week)}
	third := Confirmation{Address: "carol@watch.test", What: "watch cup-27", Request: "watch cup-27", Key: "k2m7q4d3f9", AskedAt: now, Expires: now.Add(week)}
	confirmed := got
	confirmed.ConfirmedAt = now
	if err := s.Commit(ctx, Change{Writes: []Write{Confirmations{other, third, confirmed}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Confirmation(ctx, "carol@watch.test", "watch K7QX2M"); got.ConfirmedAt.IsZero() || got.Waiting(now) {
		t.Errorf("after the confirmation: %+v", got)
	}
	for _, c := range []struct {
		since time.Time
		want  int
	}{{now.Add(-25 * time.Hour), 2}, {now.Add(-time.Hour), 1}, {now.Add(time.Hour), 0}} {
		if n, err := s.ConfirmationMails(ctx, "CAROL@watch.test", c.since); err != nil || n != c.want {
			t.Errorf("ConfirmationMails(since %v) = %d, %v; want %d", c.since, n, err, c.want)
		}
	}

	// past the first one's expiry, writing any request deletes it
	now = now.Add(week - time.Hour)
	if err := s.Commit(ctx, Change{Writes: []Write{Confirmations{{Address: "dave@watch.test", What: "unblock", Request: "unblock",
		Key: "x234j270q3", Expires: now.Add(week)}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Confirmation(ctx, "carol@watch.test", "watch K7QX2M"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an expired request was kept: %v", err)
	}
	if _, err := s.Confirmation(ctx, "carol@watch.test", "notify"); err != nil {
		t.Errorf("a request not yet expired was deleted: %v", err)
	}

	for _, bad := range []Confirmation{
		{What: "notify", Request: "notify digest", Key: "k", Expires: now},
		{Address: "x@y", Request: "notify digest", Key: "k", Expires: now},
		{Address: "x@y", What: "notify", Key: "k", Expires: now},
		{Address: "x@y", What: "notify", Request: "notify digest", Expires: now},
		{Address: "x@y", What: "notify", Request: "notify digest", Key: "k"},
		{Address: "x@y", What: "notify", Request: "notify digest", Key: "k", AskedAt: now, Expires: now},
	} {
		if err := s.Commit(ctx, Change{Writes: []Write{Confirmations{bad}}}); !errors.Is(err, ErrInvalid) {
			t.Errorf("Commit(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
}

// TestPlayerBlockedAndProved: Blocked is written as given; ProvedAt,
// once stored, stays the first one whatever later rows say.
func TestPlayerBlockedAndProved(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s, err := OpenWith(ctx, filepath.Join(t.TempDir(), "a.db"), Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write := func(p Player) *Player {
		t.Helper()
		if err := s.Commit(ctx, Change{Players: []Player{p}}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Player(ctx, p.Address)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := write(Player{Address: "bob@x", Blocked: true}); !got.Blocked || !got.ProvedAt.IsZero() {
		t.Errorf("blocked, never proved: %+v", got)
	}
	first := now.Add(time.Hour)
	if got := write(Player{Address: "bob@x", ProvedAt: first}); got.Blocked || !got.ProvedAt.Equal(first) {
		t.Errorf("unblocked, proved: %+v", got)
	}
	for _, later := range []time.Time{{}, first.Add(time.Hour)} {
		if got := write(Player{Address: "bob@x", ProvedAt: later}); !got.ProvedAt.Equal(first) {
			t.Errorf("a row with ProvedAt %v moved the stored one: %+v", later, got)
		}
	}
}

// TestConsentMigration: an archive from before 012_consent gets
// proved_at for every address that sent a keyed mail, the earliest such
// mail, whether it had a player row or not; others stay unproved and
// nobody is blocked.
func TestConsentMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "before.db")
	s := openBefore(t, path, "_consent.sql", 11)
	if _, err := s.db.Exec(`INSERT INTO players (address, language, created_at) VALUES
('alice@x', 'de', '2026-01-01T00:00:00.000000000Z'), ('carol@x', '', '2026-01-01T00:00:00.000000000Z');
INSERT INTO processed_mails (message_id, sender, disposition, at, authenticated) VALUES
('m1', 'alice@x', 'applied', '2026-02-01T00:00:00.000000000Z', 0),
('m2', 'alice@x', 'applied', '2026-03-01T00:00:00.000000000Z', 1),
('m3', 'alice@x', 'applied', '2026-04-01T00:00:00.000000000Z', 1),
('m4', 'bob@x', 'refused', '2026-05-01T00:00:00.000000000Z', 1),
('m5', 'carol@x', 'applied', '2026-05-01T00:00:00.000000000Z', 0)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	defer s.Close()
	for _, c := range []struct{ addr, proved, lang string }{
		{"alice@x", "2026-03-01", "de"}, {"bob@x", "2026-05-01", ""}, {"carol@x", "", ""},
	} {
		p, err := s.Player(ctx, c.addr)
		if err != nil {
			t.Fatalf("%s: %v", c.addr, err)
		}
		got := ""
		if !p.ProvedAt.IsZero() {
			got = p.ProvedAt.Format("2006-01-02")
		}
		if got != c.proved || p.Language != c.lang || p.Blocked {
			t.Errorf("%s after the upgrade: proved %q, language %q, blocked %v; want proved %q, language %q", c.addr, got, p.Language, p.Blocked, c.proved, c.lang)
		}
	}
}
