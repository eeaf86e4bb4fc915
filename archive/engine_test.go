package archive

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMigrateEngineKeepsTimers upgrades an archive of the schema before
// the engine's migration (*_engine.sql: every migration before it) to the
// current schema: the timers table is built again for its new kind, with
// every timer, pending and done, as it was, and the pending timers' index
// back in place; games get engine level 0.
func TestMigrateEngineKeepsTimers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "before.db")
	s := openBefore(t, path, "_engine.sql", 3)
	for _, q := range []string{
		`INSERT INTO games (id, variant, attackers, defenders, challenger, status, version, created_at, updated_at)
VALUES ('AAAAAA', 'brandubh', 'a@x', 'b@x', 'a@x', 'active', 1, '2026-11-29T12:00:00.000000000Z', '2026-11-29T12:00:00.000000000Z')`,
		`INSERT INTO timers (game_id, key, kind, ply, due, done) VALUES
('AAAAAA', 'ply 3 reminder 7d', 'reminder', 3, '2026-12-01T00:00:00.000000000Z', '2026-12-01T00:00:05.000000000Z'),
('AAAAAA', 'ply 3 deadline', 'deadline', 3, '2026-12-04T00:00:00.000000000Z', NULL)`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.Exec(`INSERT INTO timers (game_id, key, kind, ply, due) VALUES ('AAAAAA', 'x', 'engine', 3, '2026-12-01T00:00:00.000000000Z')`); err == nil {
		t.Fatal("the schema before the engine's took a timer of kind engine")
	}
	s.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("upgrade to the current schema: %v", err)
	}
	defer s.Close()
	ts, err := s.GameTimers(ctx, "AAAAAA")
	if err != nil || len(ts) != 2 {
		t.Fatalf("timers after the upgrade = %+v, %v; want both", ts, err)
	}
	if ts[0].Key != "ply 3 reminder 7d" || ts[0].Done.IsZero() || ts[1].Key != "ply 3 deadline" || !ts[1].Done.IsZero() || ts[1].Kind != TimerDeadline {
		t.Errorf("timers after the upgrade = %+v", ts)
	}
	due, err := s.DueTimers(ctx, ts[1].Due, 0)
	if err != nil || len(due) != 1 || due[0].Key != "ply 3 deadline" {
		t.Errorf("DueTimers after the upgrade (through the index timers_due) = %+v, %v", due, err)
	}
	g, err := s.Game(ctx, "AAAAAA")
	if err != nil || g.EngineLevel != 0 {
		t.Errorf("game after the upgrade: engine level %v, %v; want 0", g, err)
	}
	if _, err := s.db.Exec(`INSERT INTO timers (game_id, key, kind, ply, due) VALUES ('AAAAAA', 'ply 3 engine', 'engine', 3, '2026-12-01T00:00:00.000000000Z')`); err != nil {
		t.Errorf("a timer of kind engine after the upgrade: %v", err)
	}
}

// TestMigrateDigestZone upgrades an archive of the schema before
// 009_digest_zone, with a player on the daily digest and one without, to
// the current schema: both read back with the zone "" (UTC), the digest's
// time and due time as they were; the schema refuses a zone without a
// digest.
func TestMigrateDigestZone(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "before.db")
	s := openBefore(t, path, "_digest_zone.sql", 5)
	if _, err := s.db.Exec(`INSERT INTO players (address, digest_at, digest_due, created_at) VALUES
('bob@x', 450, '2026-11-30T07:30:00.000000000Z', '2026-11-29T12:00:00.000000000Z'),
('carol@x', NULL, NULL, '2026-11-29T12:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("upgrade to the current schema: %v", err)
	}
	defer s.Close()
	bob, err := s.Player(ctx, "bob@x")
	if err != nil || !bob.Digest || bob.DigestAt != 450 || bob.DigestZone != "" || bob.DigestDue.Format("15:04") != "07:30" {
		t.Errorf("bob after the upgrade = %+v, %v; want digest at 450 UTC", bob, err)
	}
	carol, err := s.Player(ctx, "carol@x")
	if err != nil || carol.Digest || carol.DigestZone != "" {
		t.Errorf("carol after the upgrade = %+v, %v; want no digest", carol, err)
	}
	if _, err := s.db.Exec(`UPDATE players SET digest_zone = 'Europe/Berlin' WHERE address = 'carol@x'`); err == nil {
		t.Error("the schema took a digest zone without a digest")
	}
}

// openBefore opens a new archive at path with the migrations before the
// one whose name ends in suffix, which must come after the first
// atLeast of them.
func openBefore(t *testing.T, path, suffix string, atLeast int) *Store {
	t.Helper()
	all, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(all)
	at := slices.IndexFunc(all, func(n string) bool { return strings.HasSuffix(n, suffix) })
	if at < atLeast {
		t.Fatalf("migrations %v: want *%s after the first %d", all, suffix, atLeast)
	}
	before := fstest.MapFS{}
	for _, name := range all[:at] {
		data, err := fs.ReadFile(migrationFiles, name)
		if err != nil {
			t.Fatal(err)
		}
		before[name] = &fstest.MapFile{Data: data}
	}
	s, err := OpenWith(context.Background(), path, Options{migrations: before})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
