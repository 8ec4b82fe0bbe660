package cli

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// writeHistoryFile writes a results file of commit rev (one hex digit
// repeated) with the samples, its runs started from start, and returns its
// path.
func writeHistoryFile(t *testing.T, path string, rev byte, start time.Time, samples ...float64) string {
	t.Helper()
	f := harnesstest.Add(harnesstest.File(), harnesstest.Spec{Label: "ocaml", Samples: samples})
	f.Tool.Revision = strings.Repeat(string(rev), 40)
	for i := range f.Results[0].Runs {
		f.Results[0].Runs[i].StartedAt = start.Add(time.Duration(i) * time.Second)
	}
	writeJSONFile(t, path, f)
	return path
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var historyStart = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// history add prints one line per file: what it added, or that the
// content was stored already.
func TestHistoryAdd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := filepath.Join(dir, "h.db")
	run := writeHistoryFile(t, filepath.Join(dir, "run.json"), 'a', historyStart, 1, 1.1, 1.2)
	base, err := harness.Load(writeHistoryFile(t, filepath.Join(dir, "base.json"), 'b', historyStart.Add(time.Hour), 1, 1.1))
	if err != nil {
		t.Fatal(err)
	}
	head, err := harness.Load(writeHistoryFile(t, filepath.Join(dir, "head.json"), 'c', historyStart.Add(2*time.Hour), 1.2))
	if err != nil {
		t.Fatal(err)
	}
	ab := filepath.Join(dir, "ab.json")
	writeJSONFile(t, ab, &harness.ABFile{Schema: harness.ABSchema, Base: base, Head: head})

	r := inProcess(t, "history", "add", "--history", store, run, ab)
	r.Must(t, 0)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout has %d lines, want one per file:\n%s", len(lines), r.Stdout)
	}
	for i, want := range [][]string{
		{run + ": added 3 runs of aaaaaaa (not in this repository: time and branch unknown), ", " series"},
		{ab + ": added 3 runs: base bbbbbbb", " 2, head ccccccc", " 1; "},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d lacks %q:\n%s", i+1, w, lines[i])
			}
		}
	}
	r = inProcess(t, "history", "add", "--history", store, run)
	r.Must(t, 0)
	if want := run + ": already stored (same content), nothing added\n"; r.Stdout != want {
		t.Errorf("adding again printed %q; want %q", r.Stdout, want)
	}
	other := writeHistoryFile(t, filepath.Join(dir, "other.json"), 'd', historyStart.Add(3*time.Hour), 1)
	r = inProcess(t, "history", "add", "--history", store, "--branch", "release", other)
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "added 1 run of ddddddd (release, time unknown)") {
		t.Errorf("--branch release: %s", r.Stdout)
	}
}

// The store is --history, else $ROOTBENCH_HISTORY, else history.db in
// rootbench's cache directory.
func TestHistoryAddFindsItsStore(t *testing.T) {
	// Not parallel: the commands run in this process with the variables set.
	dir := t.TempDir()
	file := writeHistoryFile(t, filepath.Join(dir, "run.json"), 'a', historyStart, 1)
	cache, fromEnv, fromFlag := filepath.Join(dir, "cache"), filepath.Join(dir, "env.db"), filepath.Join(dir, "flag.db")
	t.Setenv("ROOTBENCH_CACHE", cache)
	inProcess(t, "history", "add", file).Must(t, 0)
	t.Setenv("ROOTBENCH_HISTORY", fromEnv)
	inProcess(t, "history", "add", file).Must(t, 0)
	inProcess(t, "history", "add", "--history", fromFlag, file).Must(t, 0)
	for _, p := range []string{filepath.Join(cache, "history.db"), fromEnv, fromFlag} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("no store at %s: %v", p, err)
		}
	}
}

// Bad input and faults: one line, exit 2, nothing added.
func TestHistoryAddRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := filepath.Join(dir, "h.db")
	good := writeHistoryFile(t, filepath.Join(dir, "good.json"), 'a', historyStart, 1)
	notJSON := filepath.Join(dir, "notes.json")
	os.WriteFile(notJSON, []byte("hello"), 0o644)
	newer := harnesstest.File()
	newer.Schema, newer.Tool.Revision = "rootbench/v99", strings.Repeat("a", 40)
	newerPath := filepath.Join(dir, "newer.json")
	writeJSONFile(t, newerPath, newer)
	noCommit := harnesstest.Add(harnesstest.File(), harnesstest.Spec{Label: "ocaml", Samples: []float64{1}})
	noCommitPath := filepath.Join(dir, "nocommit.json")
	writeJSONFile(t, noCommitPath, noCommit)

	newerStore := filepath.Join(dir, "newer.db")
	inProcess(t, "history", "add", "--history", newerStore, good).Must(t, 0)
	db, err := sql.Open("sqlite", newerStore)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	mustRefuse(t, []refusal{
		{args: []string{"history", "nosuch"}, want: []string{`unknown command "nosuch"`, "accepted: add"}},
		{args: []string{"history", "add", "--history", store}, want: []string{"needs results files", "add FILE..."}},
		{args: []string{"history", "add", "--history", store, good, notJSON}, want: []string{"notes.json", "not valid JSON"}},
		{args: []string{"history", "add", "--history", store, newerPath}, want: []string{"newer.json", `schema "rootbench/v99" is newer than this rootbench reads`}},
		{args: []string{"history", "add", "--history", store, noCommitPath}, want: []string{"nocommit.json", "no commit"}},
		{args: []string{"history", "add", "--history", store, "-", "-"}, want: []string{"standard input", "twice"}},
		{args: []string{"history", "add", "--history", filepath.Join(dir, "missing", "h.db"), good}, want: []string{"does not exist"}},
		{args: []string{"history", "add", "--history", "/proc/h.db", good}, want: []string{"/proc", "cannot be written"}},
		{args: []string{"history", "add", "--history", dir, good}, want: []string{"is a directory"}},
		{args: []string{"history", "add", "--history", newerStore, good}, want: []string{"schema version 99", "newer rootbench"}},
	})
	if _, err := os.Stat(store); !os.IsNotExist(err) {
		t.Errorf("a refused add created the store %s (%v)", store, err)
	}
}

// ROOTBENCH_HISTORY set and empty is refused (not parallel: -short sets it
// in this process).
func TestHistoryAddRefusesAnEmptyStoreVariable(t *testing.T) {
	good := writeHistoryFile(t, filepath.Join(t.TempDir(), "good.json"), 'a', historyStart, 1)
	mustRefuseEnv(t, []refusal{
		{env: []string{"ROOTBENCH_HISTORY="}, args: []string{"history", "add", good}, want: []string{"ROOTBENCH_HISTORY", "set and empty"}},
	})
}

// A store another process keeps locked is refused after the bounded wait,
// with one line.
func TestHistoryAddLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the lock's timeout")
	}
	t.Parallel()
	store := filepath.Join(t.TempDir(), "h.db")
	dir := filepath.Dir(store)
	good := writeHistoryFile(t, filepath.Join(dir, "good.json"), 'a', historyStart, 1)
	rootbench(t, nil, "history", "add", "--history", store, writeHistoryFile(t, filepath.Join(dir, "first.json"), 'b', historyStart, 2)).Must(t, 0)
	db, err := sql.Open("sqlite", store)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("DELETE FROM series"); err != nil {
		t.Fatal(err)
	}
	refusedInOneLine(t, rootbench(t, nil, "history", "add", "--history", store, good),
		"history store "+store+" is locked by another rootbench; try again")
}
