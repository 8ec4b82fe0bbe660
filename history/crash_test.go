package history_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rootbench/rootbench/history"
)

// The environment that makes this test binary an adder (TestMain): it adds
// every file of $adderFiles, in name order, to the store at $adderStore.
const (
	adderStore = "ROOTBENCH_HISTORY_TEST_STORE"
	adderFiles = "ROOTBENCH_HISTORY_TEST_FILES"
)

func TestMain(m *testing.M) {
	if store := os.Getenv(adderStore); store != "" {
		if err := addAll(store, os.Getenv(adderFiles)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// addAll adds every file of dir to the store at path, one transaction
// each, as `rootbench history add` does.
func addAll(path, dir string) error {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	slices.Sort(names)
	s, err := history.Open(context.Background(), path, history.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	for _, name := range names {
		src, err := history.ReadFile(name)
		if err != nil {
			return err
		}
		if _, err := s.Add(context.Background(), src, history.AddOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// crashFiles writes n results files of distinct commits, seven cells of
// thirty runs each (an add of some milliseconds), and returns their runs
// by name.
func crashFiles(t *testing.T, dir string, n int) map[string]int {
	runs := map[string]int{}
	for i := range n {
		var specs []spec
		for _, cell := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			walls := make([]int64, 30)
			for j := range walls {
				walls[j] = int64(1000 + i + j)
			}
			specs = append(specs, spec{cell: cell, walls: walls, failed: i % 2})
		}
		name := fmt.Sprintf("%03d.json", i)
		writeJSON(t, dir, name, resultsFile(rev(i+1), t0.Add(time.Duration(i)*time.Hour), specs...))
		runs[filepath.Join(dir, name)] = 7 * (30 + i%2)
	}
	return runs
}

// Killing an adder at any moment leaves a store that opens, passes
// SQLite's integrity check, and holds whole files only: every stored file
// has all its runs. Each kill comes later than the one before, so that
// kills land before the store exists, in its migration, in an add and
// between adds, until one adder finishes.
func TestKilledAddLeavesWholeFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills adder processes for a few seconds")
	}
	t.Parallel()
	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	os.Mkdir(files, 0o755)
	const n = 20
	want := crashFiles(t, files, n)
	path := filepath.Join(dir, "h.db")
	rng := rand.New(rand.NewPCG(1, 2))
	midway, stored, kills := 0, 0, 0
	for ; stored < n; kills++ {
		kill := kills
		if kill == 200 {
			t.Fatalf("after %d kills the store holds %d of %d files: the adders make no progress", kill, stored, n)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), adderStore+"="+path, adderFiles+"="+files)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(kill)*10*time.Millisecond + time.Duration(rng.Int64N(int64(10*time.Millisecond)))
		time.Sleep(delay)
		cmd.Process.Kill()
		cmd.Wait()

		got := checkStore(t, path, want)
		if got < stored {
			t.Fatalf("kill %d: the store holds %d files, %d before", kill, got, stored)
		}
		if got > stored && got < n {
			midway++
		}
		stored = got
	}
	t.Logf("%d kills, %d of them left a store partly added to", kills, midway)
}

// checkStore opens the store at path (when it exists), checks it and that
// every stored file has all its runs, and returns how many files it holds.
func checkStore(t *testing.T, path string, want map[string]int) int {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return 0
	}
	s, err := history.Open(context.Background(), path, history.Options{})
	if err != nil {
		t.Fatalf("the store does not open after a kill: %v", err)
	}
	defer s.Close()
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	stored, err := s.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range stored {
		if f.Runs != want[f.Name] {
			t.Fatalf("%s is stored with %d runs; it has %d", f.Name, f.Runs, want[f.Name])
		}
	}
	return len(stored)
}
