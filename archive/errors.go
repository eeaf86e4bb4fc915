package archive

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Error is the one error type of this package: Op names the Store method
// that failed ("commit", "game", "mark sent", …) and Err says why. Err wraps
// one of the sentinels below where one applies, so callers test with
// errors.Is and never read the text.
type Error struct {
	Op  string
	Err error
}

// Error returns "archive: <op>: <cause>".
func (e *Error) Error() string { return "archive: " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the cause, so errors.Is and errors.As see the sentinels
// and the driver's error.
func (e *Error) Unwrap() error { return e.Err }

// Temporary reports whether the same call may succeed later without any
// change on the caller's side, that is whether the error is [ErrUnavailable].
func (e *Error) Temporary() bool { return errors.Is(e.Err, ErrUnavailable) }

var (
	// ErrDuplicate: Commit was given a mail whose Message-ID, or whose
	// non-empty content hash, is already recorded. Nothing was written; the
	// mail was handled before and must not be handled again.
	ErrDuplicate = errors.New("mail already processed")

	// ErrConflict: a game changed since the caller read it (its Version no
	// longer matches), a new game's ID is taken, or new plies do not continue
	// the stored ones. Nothing was written; read the game again and redo.
	ErrConflict = errors.New("conflicting change")

	// ErrNotFound: the game, player or outbox mail asked for does not exist.
	ErrNotFound = errors.New("not found")

	// ErrInvalid: a value breaks a rule of the archive (an empty game ID, an
	// unknown status, a ply number below 1, …). It points at a bug in the
	// caller; retrying will not help. Nothing was written.
	ErrInvalid = errors.New("invalid value")

	// ErrUnavailable: the database cannot serve the call now: it is locked
	// by another process for longer than the busy timeout, the disk is full
	// or read-only, or the file cannot be read. Nothing was written. The
	// caller keeps the mail unread and tries again later.
	ErrUnavailable = errors.New("database unavailable")

	// ErrNotArchive: [OpenWith] with [Options.Existing] found no archive at
	// the path: no file, an empty file, a file that is not an SQLite
	// database, or an SQLite database without the archive's tables; without
	// Existing, a file that is not an SQLite database. The text says which;
	// with Existing nothing was created or written.
	ErrNotArchive = errors.New("not a taflmail archive")

	// ErrLocked: [OpenWith] with [Options.Exclusive] found the archive's
	// lock file held by another process (a second `taflmail serve` on the
	// same archive). Nothing was opened. The error's text names the lock
	// file and the holder's pid.
	ErrLocked = errors.New("archive in use by another process")
)

// fail wraps err, if not nil, into an *Error for op, marking the SQLite
// result codes that mean "try again later" as ErrUnavailable. An *Error is
// returned as it is.
func fail(op string, err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	var se *sqlite.Error
	if errors.As(err, &se) && unavailableCode(se.Code()) {
		err = fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return &Error{Op: op, Err: err}
}

// unavailableCode reports whether an SQLite result code (primary or
// extended) describes the database's state rather than the statement.
func unavailableCode(code int) bool {
	switch code & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_PROTOCOL:
		return true
	}
	return false
}

// isUniqueViolation reports whether err is an SQLite constraint violation of
// a primary key or UNIQUE index.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_UNIQUE:
		return true
	}
	return false
}

// isForeignKeyViolation reports whether err is an SQLite foreign key
// violation: a row naming a game that does not exist.
func isForeignKeyViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}
