package history_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// The flag beats the variable, the variable beats the default; a variable
// set and empty is refused. Not parallel: it sets the environment.
func TestPathPrecedence(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(gitrev.CacheEnv, cache)
	t.Setenv(history.Env, "from-env.db")
	check := func(flag, want string) {
		t.Helper()
		got, err := history.Path(flag)
		if err != nil || got != want {
			t.Errorf("Path(%q) = %q, %v; want %q", flag, got, err, want)
		}
	}
	wd, _ := os.Getwd()
	check("/flag/h.db", "/flag/h.db")
	check("", filepath.Join(wd, "from-env.db"))
	os.Unsetenv(history.Env)
	check("", filepath.Join(cache, history.FileName))
	t.Setenv(history.Env, "")
	if _, err := history.Path(""); err == nil || !strings.Contains(err.Error(), history.Env) {
		t.Errorf("Path with $%s set and empty: %v; want a refusal naming it", history.Env, err)
	}
	check("/flag/h.db", "/flag/h.db")
}

// Prepare refuses what cannot hold a store, creates the default directory
// only, and leaves nothing behind. Not parallel: it sets the environment.
func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(gitrev.CacheEnv, filepath.Join(dir, "cache"))
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing", "h.db"): "does not exist",
		filepath.Join(file, "h.db"):           "not a directory",
		dir:                                   "is a directory",
	} {
		if err := history.Prepare(path); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Prepare(%s) = %v; want one line saying %q", path, err, want)
		}
	}
	// /proc cannot be written, even by root.
	if _, err := os.Stat("/proc/self"); err == nil {
		if err := history.Prepare("/proc/h.db"); err == nil || !strings.Contains(err.Error(), "cannot be written") {
			t.Errorf("Prepare(/proc/h.db) = %v; want a refusal", err)
		}
	}
	def, err := history.Path("")
	if err != nil {
		t.Fatal(err)
	}
	if err := history.Prepare(def); err != nil {
		t.Errorf("Prepare(the default) = %v; want its directory created", err)
	}
	entries, err := os.ReadDir(filepath.Dir(def))
	if err != nil || len(entries) != 0 {
		t.Errorf("the default directory holds %v (%v); want it empty", entries, err)
	}
}
