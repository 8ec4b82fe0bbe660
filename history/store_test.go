package history_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/history"
)

// rawDB opens the SQLite file at path without the store's checks.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// oneLine fails t unless err is of kind and its text is one line holding
// every want.
func oneLine(t *testing.T, err, kind error, want ...string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v; want %v", err, kind)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestOpenCreatesTheStoreAtTheLatestVersion(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openAt(t, path)
	add(t, s, source(t, "a.json", resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000}})), history.AddOptions{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Closed, the store is one file: the WAL was merged back.
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s-wal is left after Close: %v", path, err)
	}
	var version int
	var mode string
	db := rawDB(t, path)
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != history.SchemaVersion() {
		t.Errorf("user_version = %d, %v; want %d", version, err, history.SchemaVersion())
	}
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	s = openAt(t, path)
	if files, err := s.Files(context.Background()); err != nil || len(files) != 1 {
		t.Errorf("reopened: Files() = %v, %v; want the one file", files, err)
	}
}

// A store of a newer schema is refused, and left as it is.
func TestOpenRefusesANewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "h.db")
	openAt(t, path).Close()
	if _, err := rawDB(t, path).Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err := history.Open(context.Background(), path, history.Options{})
	oneLine(t, err, history.ErrTooNew, path, "schema version 99", "newer rootbench")
}

// Another program's file is refused and left untouched.
func TestOpenRefusesAFileThatIsNotAStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := history.Open(context.Background(), text, history.Options{})
	oneLine(t, err, history.ErrNotStore, text)

	other := filepath.Join(dir, "other.db")
	if _, err := rawDB(t, other).Exec("CREATE TABLE notes (x)"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(other)
	_, err = history.Open(context.Background(), other, history.Options{})
	oneLine(t, err, history.ErrNotStore, other, "another program")
	if after, _ := os.ReadFile(other); !bytes.Equal(before, after) {
		t.Errorf("Open changed another program's database")
	}
}

func TestOpenMustExist(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "h.db")
	_, err := history.Open(context.Background(), path, history.Options{MustExist: true})
	oneLine(t, err, history.ErrNoStore, path)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open with MustExist created %s", path)
	}
}

// A writer that finds the store locked waits LockWait, then fails with one
// line, having written nothing.
func TestLockedStoreFailsAfterTheWait(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "h.db")
	openAt(t, path).Close()
	holder := rawDB(t, path)
	tx, err := holder.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// A write takes the lock until the transaction ends.
	if _, err := tx.Exec("INSERT INTO files (content_sha256, name, schema, added_at_ns) VALUES ('x', 'x', 'x', 0)"); err != nil {
		t.Fatal(err)
	}
	s, err := history.Open(context.Background(), path, history.Options{LockWait: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open of a store locked by a writer: %v (reading needs no lock)", err)
	}
	defer s.Close()
	_, err = s.Add(context.Background(), source(t, "a.json", resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000}})), history.AddOptions{})
	oneLine(t, err, history.ErrLocked, "history store "+path+" is locked by another rootbench; try again")
	tx.Rollback()
	if files, err := s.Files(context.Background()); err != nil || len(files) != 0 {
		t.Errorf("after the refused add: Files() = %v, %v; want none", files, err)
	}
}
