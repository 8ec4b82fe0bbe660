package history

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A migration that fails leaves the store at the version before it, with
// nothing of the failed step: each step is one transaction with its
// version. Not parallel: it changes the migrations for its duration.
func TestFailedMigrationChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	known := migrations
	t.Cleanup(func() { migrations = known })
	migrations = append(known[:len(known):len(known)], "CREATE TABLE half_done (x); CREATE TABLE files (x);")
	if _, err := Open(context.Background(), path, Options{}); err == nil {
		t.Fatal("Open ran a failing migration without an error")
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version, half int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != len(known) {
		t.Errorf("user_version = %d, %v; want %d, the version before the failed step", version, err, len(known))
	}
	if err := db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'").Scan(&half); err != nil || half != 0 {
		t.Errorf("the failed step's first table exists (%d, %v)", half, err)
	}
}
