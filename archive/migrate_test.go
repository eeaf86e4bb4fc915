package archive

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.golden")

// dumpSchema returns the schema as SQLite keeps it, one object a
// paragraph, in name order.
func dumpSchema(t *testing.T, s *Store) string {
	t.Helper()
	rows, err := s.db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "-- %s %s\n%s;\n\n", typ, name, text)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestMigrateEmptyToCurrent opens a new file and compares the schema with
// testdata/schema.golden (go test -run Migrate -update rewrites it).
func TestMigrateEmptyToCurrent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	got := dumpSchema(t, s)
	const golden = "testdata/schema.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("schema differs from %s (rerun with -update and review the diff):\n%s", golden, got)
	}

	ms, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	applied := func() string {
		var list string
		err := s.db.QueryRow(`SELECT group_concat(version || ' ' || name || ' ' || applied_at, ', ') FROM schema_migrations ORDER BY version`).Scan(&list)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	before := applied()
	if n := strings.Count(before, ".sql"); n != len(ms) {
		t.Errorf("schema_migrations = %q, want %d rows", before, len(ms))
	}
	var mode string
	if err := s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := s.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
	s.Close()

	// Opening again applies nothing.
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := applied(); after != before {
		t.Errorf("schema_migrations after reopen = %q, want %q", after, before)
	}
}

// TestMigrateStepByStep upgrades a database one release at a time with
// made-up migrations, and refuses a database newer than the program.
func TestMigrateStepByStep(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "steps.db")
	v1 := fstest.MapFS{
		"migrations/001_players.sql": {Data: []byte("CREATE TABLE players (address TEXT PRIMARY KEY);")},
	}
	v2 := fstest.MapFS{
		"migrations/001_players.sql": v1["migrations/001_players.sql"],
		"migrations/002_ratings.sql": {Data: []byte(`ALTER TABLE players ADD COLUMN rating INTEGER NOT NULL DEFAULT 1500;
CREATE TABLE rating_history (address TEXT NOT NULL REFERENCES players (address), rating INTEGER NOT NULL);`)},
	}
	open := func(fsys fstest.MapFS) (*Store, error) { return OpenWith(ctx, path, Options{migrations: fsys}) }

	s, err := open(v1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`INSERT INTO players VALUES ('alice@example.org')`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = open(v2)
	if err != nil {
		t.Fatalf("upgrade to 2 = %v", err)
	}
	var rating, version int
	if err := s.db.QueryRow(`SELECT rating FROM players`).Scan(&rating); err != nil || rating != 1500 {
		t.Errorf("rating after upgrade = %d, %v; want 1500", rating, err)
	}
	if err := s.db.QueryRow(`SELECT MAX(version) FROM schema_migrations`).Scan(&version); err != nil || version != 2 {
		t.Errorf("schema version = %d, %v; want 2", version, err)
	}
	s.Close()

	_, err = open(v1)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("open version 2 with program version 1 = %v, want an error saying the database is newer", err)
	}
}

// TestMigrateFailureRollsBack: a migration that fails leaves the schema
// as it was.
func TestMigrateFailureRollsBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bad.db")
	bad := fstest.MapFS{
		"migrations/001_ok.sql":  {Data: []byte("CREATE TABLE a (x INTEGER);")},
		"migrations/002_bad.sql": {Data: []byte("CREATE TABLE b (x INTEGER); CREATE TABLE a (y INTEGER);")},
	}
	if _, err := OpenWith(ctx, path, Options{migrations: bad}); err == nil || !strings.Contains(err.Error(), "002_bad.sql") {
		t.Fatalf("OpenWith(bad migration) = %v, want an error naming 002_bad.sql", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables string
	if err := db.QueryRow(`SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name)`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != "a schema_migrations" {
		t.Errorf("tables = %q, want %q", tables, "a schema_migrations")
	}
}

func TestLoadMigrationsRejects(t *testing.T) {
	sqlFile := &fstest.MapFile{Data: []byte("SELECT 1;")}
	for name, fsys := range map[string]fstest.MapFS{
		"no migrations": {},
		"gap":           {"migrations/001_a.sql": sqlFile, "migrations/003_c.sql": sqlFile},
		"not from 1":    {"migrations/002_b.sql": sqlFile},
		"bad name":      {"migrations/001_a.sql": sqlFile, "migrations/2_b.sql": sqlFile},
		"upper case":    {"migrations/001_Init.sql": sqlFile},
		"twice":         {"migrations/001_a.sql": sqlFile, "migrations/001_b.sql": sqlFile},
	} {
		if ms, err := loadMigrations(fsys); err == nil {
			t.Errorf("%s: loadMigrations = %d migrations, want an error", name, len(ms))
		}
	}
}

// TestDiskFullIsUnavailable caps the file's size, as a full disk would:
// the Commit fails with ErrUnavailable and writes nothing.
func TestDiskFullIsUnavailable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "full.db")
	s, err := OpenWith(ctx, path, Options{pragmas: []string{"max_page_count(64)"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := make([]byte, 1<<20)
	err = s.Commit(ctx, Change{
		Mail:   ProcessedMail{MessageID: "<m1>", Disposition: "applied"},
		Outbox: []OutboxMail{{MessageID: "<r1>", From: "a@b", To: []string{"c@d"}, Raw: big}},
	})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Commit(1 MiB into 256 KiB) = %v, want ErrUnavailable", err)
	}
	if ok, err := s.Processed(ctx, "<m1>", ""); ok || err != nil {
		t.Errorf("Processed = %v, %v; want false: nothing written", ok, err)
	}
}

func TestDSN(t *testing.T) {
	got := dsn("/var/lib/taflmail/games.db", false, Options{BusyTimeout: 1500e6})
	want := "/var/lib/taflmail/games.db?_pragma=busy_timeout%281500%29&_pragma=foreign_keys%281%29&_pragma=journal_mode%28WAL%29&_pragma=synchronous%28FULL%29&_txlock=immediate"
	if got != want {
		t.Errorf("dsn = %q\nwant  %q", got, want)
	}
}

// TestReadOnlyIsUnavailable opens a current archive read-only (query_only,
// since file modes do not stop root): reads work, writes fail with
// ErrUnavailable.
func TestReadOnlyIsUnavailable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ro.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, Change{Mail: ProcessedMail{MessageID: "<m1>", Disposition: "applied"}}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = OpenWith(ctx, path, Options{pragmas: []string{"query_only(1)"}})
	if err != nil {
		t.Fatalf("OpenWith(read-only) = %v", err)
	}
	defer s.Close()
	if ok, err := s.Processed(ctx, "<m1>", ""); !ok || err != nil {
		t.Errorf("Processed = %v, %v; want true", ok, err)
	}
	err = s.Commit(ctx, Change{Mail: ProcessedMail{MessageID: "<m2>", Disposition: "applied"}})
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("Commit(read-only) = %v, want ErrUnavailable", err)
	}
}

// TestMigrationReported: Store.Migration says what opening did to the
// schema, for serve's log (issue 21 §7): a new file from 0, an old one
// from its version, a current one nothing.
func TestMigrationReported(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	all, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	old := fstest.MapFS{}
	for _, m := range all[:3] {
		old["migrations/"+m.name] = &fstest.MapFile{Data: []byte(m.sql)}
	}
	s, err := OpenWith(ctx, path, Options{migrations: old})
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Migration(); m.From != 0 || m.To != 3 {
		t.Errorf("new file: Migration() = %+v, want 0 → 3", m)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Migration(); m.From != 3 || m.To != len(all) || m.Took <= 0 {
		t.Errorf("old file: Migration() = %+v, want 3 → %d", m, len(all))
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m := s.Migration(); m.From != len(all) || m.To != len(all) {
		t.Errorf("current file: Migration() = %+v, want nothing done", m)
	}
}
