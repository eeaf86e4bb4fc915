package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// Options are the optional settings of [OpenWith]. The zero value works.
type Options struct {
	// BusyTimeout is how long a statement waits for a lock held by another
	// process (say, the operator's CLI) before the call fails with
	// [ErrUnavailable]. 0 means 5 s. Writes of this Store never wait for
	// each other inside SQLite: they queue in the Store first.
	BusyTimeout time.Duration

	// MaxOpenConns caps the connections to the file; 0 means 4. One
	// writes at a time, the others read. ":memory:" always uses one.
	MaxOpenConns int

	// Now is the clock that fills zero timestamps in Commit; nil means
	// time.Now.
	Now func() time.Time

	// Exclusive takes an OS lock on the file path+".lock" for as long as
	// the Store is open, and fails with [ErrLocked] when another process
	// holds it: the daemon opens its archive this way, so a second daemon
	// on the same archive refuses to start. The lock ends with Close or
	// with the process, however it ends. Read-only tools (the operator's
	// commands) open without it. Ignored for ":memory:".
	Exclusive bool

	// Existing opens only an archive that is already there, for the
	// operator's commands (trial report §9.4): a missing file, an empty
	// one, one that is not an SQLite database and an SQLite database
	// without the archive's tables are refused with [ErrNotArchive], and
	// nothing is created, written or re-permissioned. An archive of an
	// older schema is still brought up to date (docs/archive.md).
	Existing bool

	// pragmas are extra "name(value)" DSN pragmas, and migrations replaces
	// the embedded migrations; both for tests only.
	pragmas    []string
	migrations fs.FS
}

// Store is an open archive. Its methods are safe for concurrent use; writes
// are serialised inside the Store, reads run beside them.
type Store struct {
	db     *sql.DB
	now    func() time.Time
	writer chan struct{} // holds one token while a write transaction runs
	lock   *fileLock     // the Exclusive lock, or nil
	calls  *calls        // the calls under way on db, which Close waits for

	prepared prepared // the statements of preparedQueries (prepared.go)

	migration Migration // what OpenWith did to the schema

	commits commitCount // write transactions committed (WriteTransactions)
}

// Open opens the archive at path, creating the file and its parent
// directory if needed, and brings its schema up to date. path ":memory:"
// gives a private in-memory database, for tests. It is OpenWith with zero
// Options.
func Open(ctx context.Context, path string) (*Store, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is [Open] with options. The database runs in WAL mode with
// synchronous=FULL (a committed mail survives a power cut), foreign keys on,
// and write transactions that take the write lock when they begin. A
// schema newer than this program knows is an error: an old binary never
// writes to a newer file. So is a schema that lacks what the statements
// prepared at open read (a table dropped by hand): the error names the
// statement.
func OpenWith(ctx context.Context, path string, opts Options) (*Store, error) {
	const op = "open"
	if path == "" {
		return nil, &Error{Op: op, Err: fmt.Errorf("%w: empty path", ErrInvalid)}
	}
	if strings.ContainsAny(path, "?#") {
		return nil, &Error{Op: op, Err: fmt.Errorf("%w: path %q contains '?' or '#'", ErrInvalid, path)}
	}
	memory := path == ":memory:"
	if opts.Existing && !memory {
		if err := checkArchive(ctx, path); err != nil {
			return nil, &Error{Op: op, Err: err}
		}
	}
	var lock *fileLock
	if !memory {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			return nil, &Error{Op: op, Err: err}
		}
		if opts.Exclusive {
			var err error
			if lock, err = lockFile(path + ".lock"); err != nil {
				return nil, &Error{Op: op, Err: err}
			}
		}
		if err := private(path); err != nil {
			lock.release()
			return nil, &Error{Op: op, Err: err}
		}
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.MaxOpenConns <= 0 {
		opts.MaxOpenConns = 4
	}
	if memory {
		// Every connection to ":memory:" is a database of its own.
		opts.MaxOpenConns = 1
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}

	db, err := sql.Open("sqlite", dsn(path, memory, opts))
	if err != nil {
		lock.release()
		return nil, &Error{Op: op, Err: err}
	}
	db.SetMaxOpenConns(opts.MaxOpenConns)
	db.SetMaxIdleConns(opts.MaxOpenConns)
	if memory {
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	}
	s := &Store{db: db, now: opts.Now, writer: make(chan struct{}, 1), lock: lock, calls: newCalls()}
	files := opts.migrations
	if files == nil {
		files = migrationFiles
	}
	ms, err := loadMigrations(files)
	if err == nil {
		err = s.migrate(ctx, ms)
	}
	if err != nil {
		db.Close()
		lock.release()
		var se *sqlite.Error
		if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_NOTADB {
			return nil, &Error{Op: op, Err: fmt.Errorf("%w: %s is not an SQLite database", ErrNotArchive, path)}
		}
		return nil, fail(op, err)
	}
	if s.prepared, err = prepareQueries(ctx, db, opts.migrations != nil); err != nil {
		db.Close()
		lock.release()
		return nil, fail(op, err)
	}
	return s, nil
}

// sqliteMagic starts every SQLite database file (sqlite.org/fileformat.html §1.3.1).
const sqliteMagic = "SQLite format 3\x00"

// checkArchive makes sure path holds a taflmail archive before anything
// opens it for writing (Options.Existing): the file exists and is not
// empty, starts like an SQLite database, and, read through a read-only
// connection, has the archive's schema_migrations table. Errors wrap
// ErrNotArchive and say what the file is instead.
func checkArchive(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s does not exist", ErrNotArchive, path)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%w: %s is a directory", ErrNotArchive, path)
	case fi.Size() == 0:
		// A database in WAL mode always has its header in the main file;
		// an empty file is nobody's database.
		return fmt.Errorf("%w: %s is empty (0 bytes)", ErrNotArchive, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	head := make([]byte, len(sqliteMagic))
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || string(head) != sqliteMagic {
		return fmt.Errorf("%w: %s is not an SQLite database", ErrNotArchive, path)
	}
	db, err := sql.Open("sqlite", "file:"+strings.ReplaceAll(path, "%", "%25")+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&n)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s cannot be read as an SQLite database: %w", ErrNotArchive, path, err)
	case n == 0:
		return fmt.Errorf("%w: %s is an SQLite database without taflmail's tables", ErrNotArchive, path)
	}
	return nil
}

// private makes the database file readable by its owner only, since it
// holds every player's keys: a new file is created with mode 0600, and an
// existing one loses any group and other permission bits (the WAL and
// shared-memory files, which SQLite creates with the database file's mode,
// too).
func private(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if mode := fi.Mode().Perm(); mode&0o077 != 0 {
			if err := os.Chmod(p, mode&^0o077); err != nil {
				return err
			}
		}
	}
	return nil
}

// dsn builds the driver's data source name: the file name, then the
// settings every connection gets as it opens.
func dsn(path string, memory bool, opts Options) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opts.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
	}
	for _, p := range opts.pragmas {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return path + "?" + q.Encode()
}

// Close waits for the calls under way to return, then closes the
// prepared statements (prepared.go) and the database and releases the
// [Options.Exclusive] lock. Calls after Close fail with an [*Error]
// naming the call.
//
// The wait is what makes the archive file whole when Close returns:
// database/sql's Close closes only the idle connections and leaves a
// connection in use to be closed when its call returns it, so a write
// under way would commit, and SQLite's checkpoint of the WAL at the last
// connection's close would run, after Close returned, and a copy of the
// file taken right after the referee stopped would miss it. When Close
// returns, no connection is open and the WAL is checkpointed into the
// file and removed (TestCloseWaitsForCallsInUse). A call started while
// Close waits is waited for too; the calls end as their contexts do.
func (s *Store) Close() error {
	s.calls.wait()
	err := s.prepared.close()
	if dberr := s.db.Close(); err == nil {
		err = dberr
	}
	if lerr := s.lock.release(); err == nil && lerr != nil {
		err = lerr
	}
	return fail("close", err)
}

// write runs fn in a write transaction, one at a time per Store, and
// commits it if fn returns nil. The transaction takes SQLite's write lock
// when it begins (BEGIN IMMEDIATE), so a second process makes it wait up to
// the busy timeout, then fail with ErrUnavailable, before anything is read.
func (s *Store) write(ctx context.Context, op string, fn func(*txn) error) error {
	return s.writeTx(ctx, op, false, fn)
}

// writeSaved is write for fn that writes under savepoints (CommitEach):
// the transaction keeps its statement journal in memory (memoryJournal),
// so that a savepoint costs no writes to a temporary file.
func (s *Store) writeSaved(ctx context.Context, op string, fn func(*txn) error) error {
	return s.writeTx(ctx, op, true, fn)
}

// writeTx is write, with the statement journal in memory when saved is
// true.
func (s *Store) writeTx(ctx context.Context, op string, saved bool, fn func(*txn) error) error {
	s.calls.start()
	defer s.calls.end()
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return &Error{Op: op, Err: ctx.Err()}
	}
	defer func() { <-s.writer }()
	begin := s.db.BeginTx
	if saved {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return fail(op, err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, memoryJournal); err != nil {
			return fail(op, err)
		}
		defer conn.ExecContext(context.Background(), fileJournal)
		begin = conn.BeginTx
	}
	sqlTx, err := begin(ctx, nil)
	if err != nil {
		return fail(op, err)
	}
	tx := &txn{Tx: sqlTx, prepared: s.prepared}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return fail(op, err)
	}
	if err := tx.Commit(); err != nil {
		return fail(op, err)
	}
	s.commits.add()
	return nil
}

// memoryJournal makes the write transactions that begin after it on a
// connection keep their temporary files in memory (writeSaved). SQLite
// decides at BEGIN where a transaction's statement journal goes; it holds the
// pages a savepoint changed (to roll back to it), and past 64 KiB a
// journal on file spills to a temporary file, written page by page — about
// a tenth of the referee's work a mail under CommitEach's savepoints. In
// memory it holds at most the pages the transaction changes, and is gone at
// its end. fileJournal sets the connection back, so that the other
// transactions on it sort and spill to temporary files as before.
const (
	memoryJournal = "PRAGMA temp_store = MEMORY"
	fileJournal   = "PRAGMA temp_store = DEFAULT"
)

// read runs fn in a read transaction, so that what it reads in several
// statements is one snapshot.
func (s *Store) read(ctx context.Context, op string, fn func(*txn) error) error {
	s.calls.start()
	defer s.calls.end()
	sqlTx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fail(op, err)
	}
	defer func() { _ = sqlTx.Rollback() }()
	tx := &txn{Tx: sqlTx, prepared: s.prepared}
	return fail(op, fn(tx))
}

// calls counts the calls of a Store under way on its database (read,
// write, Backup), so that Close can wait until none holds a connection.
// A call may start inside another; none ever waits to start.
type calls struct {
	mu   sync.Mutex
	n    int
	none *sync.Cond // broadcast when n falls to 0
	// closing is closed when Close begins to wait.
	closing chan struct{}
	closed  bool
}

func newCalls() *calls {
	c := &calls{closing: make(chan struct{})}
	c.none = sync.NewCond(&c.mu)
	return c
}

// start counts a call under way; end, its counterpart, ends it.
func (c *calls) start() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// end ends a call that start counted.
func (c *calls) end() {
	c.mu.Lock()
	if c.n--; c.n == 0 {
		c.none.Broadcast()
	}
	c.mu.Unlock()
}

// wait closes closing (once) and returns when no call is under way.
func (c *calls) wait() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.closing)
	}
	for c.n > 0 {
		c.none.Wait()
	}
}

// timeLayout is how times are stored: UTC, fixed width, so that text order
// is time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// fmtTime formats t for the database.
func fmtTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// nullTime formats t, or gives NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return fmtTime(t)
}

// dbTime is a time column as scanned: TEXT, maybe NULL.
type dbTime struct{ t *time.Time }

// Scan implements sql.Scanner.
func (d dbTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d.t = time.Time{}
		return nil
	case string:
		t, err := time.Parse(timeLayout, v)
		if err != nil {
			return err
		}
		*d.t = t
		return nil
	case []byte:
		return d.Scan(string(v))
	}
	return fmt.Errorf("time column holds %T", src)
}

// scanTime lets rows.Scan fill a time.Time.
func scanTime(t *time.Time) sql.Scanner { return dbTime{t} }

// nullString gives NULL for "".
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// notFound builds the ErrNotFound error for op; what names the thing
// missing, e.g. `game "K7QX2M"`.
func notFound(op, what string) error {
	return &Error{Op: op, Err: fmt.Errorf("%s: %w", what, ErrNotFound)}
}

// invalid builds an ErrInvalid error.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// isNoRows reports whether err is sql.ErrNoRows.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
