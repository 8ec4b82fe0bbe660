package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DefaultLockWait is how long a writer waits for another rootbench's write
// to the same store to end before it gives up with ErrLocked: SQLite's
// busy timeout. One add holds the lock for milliseconds, so a wait this
// long means a writer that is stuck, not one that is busy.
const DefaultLockWait = 5 * time.Second

// applicationID marks an SQLite file as a rootbench history store (SQLite's
// PRAGMA application_id; "RBH1" in ASCII), so that a database of another
// program is refused, never migrated.
const applicationID = 0x52424831

// Options configure Open.
type Options struct {
	// LockWait bounds the wait for another process's write; DefaultLockWait
	// when 0.
	LockWait time.Duration
	// MustExist refuses a path where no store exists yet (with ErrNoStore)
	// instead of creating an empty one: what a command that only reads
	// wants.
	MustExist bool
}

// The errors Open, Add and the readers return for what the user can fix;
// each is one line naming the store (match them with errors.Is).
var (
	// ErrLocked: another process held the store's write lock for longer
	// than Options.LockWait.
	ErrLocked = errors.New("history store is locked")
	// ErrTooNew: the store's schema version is newer than this binary
	// knows; it is never written by an older binary.
	ErrTooNew = errors.New("history store is newer than this rootbench")
	// ErrNotStore: the file is not a rootbench history store (not an
	// SQLite database, or another program's).
	ErrNotStore = errors.New("not a rootbench history store")
	// ErrNoStore: Options.MustExist and no store at the path.
	ErrNoStore = errors.New("no history store")
	// ErrUnwritable: the store or its directory cannot be written.
	ErrUnwritable = errors.New("history store cannot be written")
)

// storeError is an error of one of the kinds above with its own one-line
// text.
type storeError struct {
	kind error
	msg  string
}

func (e *storeError) Error() string        { return e.msg }
func (e *storeError) Is(target error) bool { return target == e.kind }

// Store is an open history store. Its methods may be called from several
// goroutines: its one SQLite connection serves them one at a time.
// Several processes may open the same store; SQLite's locks order their
// writes (see the package documentation).
type Store struct {
	db   *sql.DB
	path string
}

// Open opens the store at path, creating it unless opt.MustExist, and
// brings its schema to this binary's version (each migration one
// transaction). The path's directory must exist and be writable (Prepare
// checks it first). A store of a newer schema is refused with ErrTooNew,
// a file that is not a store with ErrNotStore, and a store another process
// keeps locked beyond opt.LockWait with ErrLocked.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("history store %s: %w", path, err)
	}
	if opt.MustExist {
		if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
			return nil, &storeError{ErrNoStore, fmt.Sprintf("no history store at %s: 'rootbench history add' creates it", abs)}
		}
	}
	if opt.LockWait <= 0 {
		opt.LockWait = DefaultLockWait
	}
	db, err := sql.Open("sqlite", dsn(abs, opt))
	if err != nil {
		return nil, fmt.Errorf("history store %s: %w", abs, err)
	}
	// One connection: the connection-level settings (busy timeout,
	// synchronous, foreign keys) hold for every statement, and this
	// process never contends with itself for SQLite's locks.
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &Store{db: db, path: abs}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// dsn is the SQLite URI of the store at abs: a file: URI (the path
// escaped, so that any file name works) with the connection settings;
// mode=rw when the store must exist.
func dsn(abs string, opt Options) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opt.LockWait.Milliseconds()))
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	// Every transaction takes the write lock when it begins (BEGIN
	// IMMEDIATE): a writer waits for another at its start, under the busy
	// timeout, and never fails halfway through its transaction on a lock.
	q.Set("_txlock", "immediate")
	if opt.MustExist {
		q.Set("mode", "rw")
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// init checks that the file is a store (or empty), switches it to WAL and
// migrates it.
func (s *Store) init(ctx context.Context) error {
	id, version, tables, err := s.identity(ctx, s.db)
	if err != nil {
		return s.wrap(err)
	}
	if err := s.checkIdentity(id, version, tables); err != nil {
		return err
	}
	// Write-ahead logging: a commit appends to the WAL (fsynced, as
	// synchronous=FULL asks) and readers keep reading the last commit
	// while a writer writes. The mode is stored in the file.
	if _, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return s.wrap(err)
	}
	return s.migrate(ctx, version)
}

// querier is what identity reads through: the database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// identity reads the file's application id, schema version and number of
// schema objects.
func (s *Store) identity(ctx context.Context, q querier) (id, version, tables int, err error) {
	if err = q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		return
	}
	if err = q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return
	}
	err = q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables)
	return
}

// checkIdentity refuses another program's database and a schema newer than
// this binary's.
func (s *Store) checkIdentity(id, version, tables int) error {
	if id != applicationID && (id != 0 || version != 0 || tables != 0) {
		return &storeError{ErrNotStore, fmt.Sprintf("%s is an SQLite database of another program, %v", s.path, ErrNotStore)}
	}
	if version > len(migrations) {
		return &storeError{ErrTooNew, fmt.Sprintf("history store %s has schema version %d; this rootbench knows versions up to %d: use a newer rootbench",
			s.path, version, len(migrations))}
	}
	return nil
}

// Path is the store's absolute path.
func (s *Store) Path() string { return s.path }

// Close closes the store. The last process to close it merges the WAL
// into the store's file, which is then whole on its own.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return s.wrap(err)
	}
	return nil
}

// wrap names the store in err (nil stays nil) and gives SQLite's errors the user can act
// on their kind: a lock, a file that is not a database, a store that cannot
// be written.
func (s *Store) wrap(err error) error {
	if err == nil {
		return nil
	}
	var own *storeError
	if errors.As(err, &own) {
		return err
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("history store %s: %w", s.path, err)
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return &storeError{ErrLocked, fmt.Sprintf("history store %s is locked by another rootbench; try again", s.path)}
	case sqlite3.SQLITE_NOTADB:
		return &storeError{ErrNotStore, fmt.Sprintf("%s is not an SQLite database: %v", s.path, ErrNotStore)}
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM:
		return &storeError{ErrUnwritable, fmt.Sprintf("history store %s cannot be opened for writing: %v", s.path, se)}
	}
	return fmt.Errorf("history store %s: %w", s.path, err)
}

// inTx runs f in one transaction (BEGIN IMMEDIATE: it holds the write lock
// from the start) and commits it; any error rolls it back.
func (s *Store) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return s.wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(err)
	}
	return nil
}
