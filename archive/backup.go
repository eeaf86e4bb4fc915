package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// BackupInfo describes a copy written by [Store.Backup].
type BackupInfo struct {
	Path   string // where it was written
	Bytes  int64  // its size
	Schema int    // the schema version it holds (schema_migrations)
	Games  int    // the games it holds, of every status
}

// Backup writes a consistent copy of the archive to path, while the
// daemon runs: SQLite's VACUUM INTO (sqlite.org/lang_vacuum.html), which
// reads the whole database in one read transaction, so the copy is the
// archive as of one commit, with what the -wal file holds, and never a
// mix. Writers are not held up (WAL mode).
//
// The copy is written to a new directory of mode 0700 beside path, made
// readable by its owner only (mode 0600: it holds every player's key),
// synced to disk, checked with PRAGMA quick_check, and only then moved to
// path: path is never a half-written file. An existing path is an error
// wrapping fs.ErrExist unless replace is set, when it is replaced in one
// rename. The copy is a complete archive without -wal and -shm files, for
// [Open] or `taflmail serve` as it is (docs/operations.md, Backups).
func (s *Store) Backup(ctx context.Context, path string, replace bool) (BackupInfo, error) {
	const op = "backup"
	if path == "" || strings.ContainsAny(path, "?#") {
		return BackupInfo{}, &Error{Op: op, Err: fmt.Errorf("%w: backup path %q", ErrInvalid, path)}
	}
	if !replace {
		if _, err := os.Lstat(path); err == nil {
			return BackupInfo{}, &Error{Op: op, Err: fmt.Errorf("%s: %w", path, fs.ErrExist)}
		}
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".taflmail-backup-")
	if err != nil {
		return BackupInfo{}, &Error{Op: op, Err: err}
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, filepath.Base(path))
	s.calls.start() // Close waits for the copy
	_, err = s.db.ExecContext(ctx, `VACUUM INTO ?`, tmp)
	s.calls.end()
	if err != nil {
		return BackupInfo{}, fail(op, err)
	}
	info, err := checkCopy(ctx, tmp)
	if err != nil {
		return BackupInfo{}, &Error{Op: op, Err: err}
	}
	if replace {
		err = os.Rename(tmp, path)
	} else {
		// a link fails when path appeared meanwhile: never overwrite
		err = os.Link(tmp, path)
	}
	if err != nil {
		return BackupInfo{}, &Error{Op: op, Err: err}
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // the new name survives a power cut
		d.Close()
	}
	info.Path = path
	return info, nil
}

// checkCopy makes the copy at path private and durable and checks it:
// mode 0600, fsync, PRAGMA quick_check through a read-only connection, and
// what it holds.
func checkCopy(ctx context.Context, path string) (BackupInfo, error) {
	if err := os.Chmod(path, 0o600); err != nil {
		return BackupInfo{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return BackupInfo{}, err
	}
	err = f.Sync()
	fi, serr := f.Stat()
	f.Close()
	if err = errors.Join(err, serr); err != nil {
		return BackupInfo{}, err
	}
	db, err := sql.Open("sqlite", "file:"+strings.ReplaceAll(path, "%", "%25")+"?mode=ro")
	if err != nil {
		return BackupInfo{}, err
	}
	defer db.Close()
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return BackupInfo{}, fmt.Errorf("checking the copy: %w", err)
	}
	if check != "ok" {
		return BackupInfo{}, fmt.Errorf("the copy fails PRAGMA quick_check: %s", check)
	}
	info := BackupInfo{Bytes: fi.Size()}
	err = db.QueryRowContext(ctx, `SELECT (SELECT COALESCE(MAX(version), 0) FROM schema_migrations), (SELECT count(*) FROM games)`).
		Scan(&info.Schema, &info.Games)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("reading the copy: %w", err)
	}
	return info, nil
}
