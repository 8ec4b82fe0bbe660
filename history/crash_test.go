package history_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/racedetect"
	"github.com/rootbench/rootbench/internal/rapidchecks"
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
	// Every case of the model tests (model_test.go) opens a SQLite store,
	// whose translated C code the detector slows several times over; 25
	// cases still run the adds, two connections at once included, in
	// drawn orders under the detector.
	rapidchecks.UnderRace(25)
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
		// The lines bracket each add, so that the test can tell a kill
		// inside an add's transaction from one between adds.
		fmt.Println("adding", name)
		if _, err := s.Add(context.Background(), src, history.AddOptions{}); err != nil {
			return err
		}
		fmt.Println("added", name)
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
// has all its runs. In each of three rounds (one under the race
// detector), on a new store, each kill
// comes later than the one before, so that kills land before the store
// exists, in its migration, in an add and between adds, until one adder
// finishes.
func TestKilledAddLeavesWholeFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills adder processes for a few seconds")
	}
	t.Parallel()
	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	os.Mkdir(files, 0o755)
	want := crashFiles(t, files, 20)
	rng := rand.New(rand.NewPCG(1, 2))
	rounds := 3
	if racedetect.Enabled {
		// The race detector has nothing to find across processes; one
		// round of its slow adders is the property checked.
		rounds = 1
	}
	var total killCount
	for round := range rounds {
		c := killAdders(t, filepath.Join(dir, fmt.Sprintf("h%d.db", round)), files, want, rng)
		total.kills += c.kills
		total.inAdd += c.inAdd
		total.midway += c.midway
	}
	t.Logf("%d kills: %d inside an add, %d left a store partly added to", total.kills, total.inAdd, total.midway)
	if total.inAdd == 0 {
		t.Errorf("no kill landed inside an add")
	}
}

// killCount counts kills: all, those inside an add, and those after which
// the store held more files than before and not all.
type killCount struct{ kills, inAdd, midway int }

// killAdders starts adders of the files of dir to the store at path, each
// killed later than the one before, until one finishes, checking the
// store after each (checkStore).
func killAdders(t *testing.T, path, dir string, want map[string]int, rng *rand.Rand) killCount {
	var c killCount
	for stored := 0; stored < len(want); {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), adderStore+"="+path, adderFiles+"="+dir)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// Delays grow by a fifth per kill from 10 ms, each with up to 10 ms
		// of jitter: slow machines (or the race detector) reach the adds
		// after a few more kills, not many more.
		delay := time.Duration(float64(10*time.Millisecond)*math.Pow(1.2, float64(c.kills))) + time.Duration(rng.Int64N(int64(10*time.Millisecond)))
		select {
		case <-time.After(delay):
			cmd.Process.Kill()
			<-done
			c.kills++
			if strings.HasPrefix(lastLine(stdout.String()), "adding ") {
				c.inAdd++
			}
		case err := <-done:
			if err != nil {
				t.Fatalf("the adder failed: %v\n%s", err, stderr.String())
			}
		}
		got := checkStore(t, path, want)
		if got < stored {
			t.Fatalf("after %d kills the store holds %d files, %d before", c.kills, got, stored)
		}
		if got > stored && got < len(want) {
			c.midway++
		}
		stored = got
	}
	return c
}

// lastLine is the last line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
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
