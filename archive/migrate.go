package archive

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"time"
)

// migrationFiles holds the schema, one numbered file per step. A released
// file is never edited: a change to the schema is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one step of the schema.
type migration struct {
	version int    // NNN of the file name, from 1 without gaps
	name    string // the file name
	sql     string
}

var migrationName = regexp.MustCompile(`^([0-9]{3})_[a-z0-9_]+\.sql$`)

// loadMigrations reads migrations/NNN_name.sql from fsys in version order
// and checks that the versions run 1, 2, 3, … without gaps.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	// fs.Glob returns names in lexical order, which is version order for
	// three-digit prefixes.
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		m := migrationName.FindStringSubmatch(base)
		if m == nil {
			return nil, fmt.Errorf("migration %s: name is not NNN_name.sql", base)
		}
		version, _ := strconv.Atoi(m[1])
		if want := len(ms) + 1; version != want {
			return nil, fmt.Errorf("migration %s: version %d, want %d", base, version, want)
		}
		text, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: version, name: base, sql: string(text)})
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no migrations")
	}
	return ms, nil
}

// Migration is what opening the archive did to its schema ([Store.Migration]):
// From is the schema version found (0 for a new, empty file), To the one
// it was brought to (the highest of this program; From == To when there
// was nothing to do), Took the time the steps took.
type Migration struct {
	From, To int
	Took     time.Duration
}

// Migration returns what [OpenWith] did to the schema, for the caller to
// log (issue 21 §7).
func (s *Store) Migration() Migration { return s.migration }

// migrate applies the migrations the database lacks. A current database
// is only read, so opening it never waits for a writer. Each step runs in
// its own write transaction that rechecks the version, so two processes
// opening a new file at once apply every step once.
func (s *Store) migrate(ctx context.Context, ms []migration) error {
	var current int
	err := s.read(ctx, "migrate", func(tx *txn) error {
		var err error
		current, err = schemaVersion(ctx, tx)
		return err
	})
	if err != nil {
		return err
	}
	if current > len(ms) {
		return &Error{Op: "migrate", Err: fmt.Errorf("database schema version %d is newer than this program's %d", current, len(ms))}
	}
	start := time.Now()
	defer func() { s.migration = Migration{From: current, To: len(ms), Took: time.Since(start)} }()
	for _, m := range ms[current:] {
		err := s.write(ctx, "migrate", func(tx *txn) error {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_at TEXT NOT NULL
) STRICT`); err != nil {
				return err
			}
			v, err := schemaVersion(ctx, tx)
			if err != nil || v >= m.version {
				return err
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, fmtTime(s.now()))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// schemaVersion returns the highest applied migration, 0 for a new file.
func schemaVersion(ctx context.Context, tx *txn) (int, error) {
	var exists bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations')`).Scan(&exists)
	if err != nil || !exists {
		return 0, err
	}
	var v int
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}
