package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// fakeWorker is the main.go of a tiny stand-in for rootbench at one commit
// of a synthetic history: its worker answers --describe and makes a "run"
// that sleeps delayMs milliseconds and reports the time it slept.
func fakeWorker(t *testing.T, delayMs int) string {
	t.Helper()
	params := slices.Sorted(func(yield func(string) bool) {
		for k := range defaultMsgpassParams().Map() {
			if !yield(k) {
				return
			}
		}
	})
	params = append(params, harness.ParamWarmupPasses)
	desc, err := json.Marshal(harness.WorkerDescription{
		Protocol:   harness.ProtocolVersion,
		Workloads:  map[string]harness.WorkloadDescription{"msgpass": {Params: params, Cells: []string{"ocaml"}}},
		Flags:      []string{"workload", "cell", "set", "pin", "describe"},
		WarmupPass: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`package main

import (
	"fmt"
	"os"
	"time"
)

const delay = %d * time.Millisecond

func main() {
	if len(os.Args) < 2 || os.Args[1] != "worker" {
		fmt.Fprintln(os.Stderr, "a stand-in for rootbench: only its worker")
		os.Exit(2)
	}
	for _, a := range os.Args[2:] {
		if a == "--describe" {
			fmt.Println(%q)
			return
		}
	}
	start := time.Now()
	time.Sleep(delay)
	fmt.Printf("{\"wall_ns\":%%d,\"cells\":1000}\n", time.Since(start).Nanoseconds())
}
`, delayMs, desc)
}

// plantedHistory is a repository of one commit per delay, each a stand-in
// rootbench (fakeWorker) whose worker sleeps that many milliseconds a run;
// a delay of 0 is a commit that does not build. Commit i's subject is
// "change i", the planted one's "change i: the planted slowdown" (-1: none).
func plantedHistory(t *testing.T, delays []int, planted int) (*gittest.Repo, []string) {
	t.Helper()
	repo := gittest.New(t)
	var commits []string
	for i, delay := range delays {
		main := "package main\n\nfunc main() { this does not build }\n"
		if delay > 0 {
			main = fakeWorker(t, delay)
		}
		files := map[string]string{"go.mod": gittest.GoMod, "cmd/rootbench/main.go": main, "notes.txt": fmt.Sprintf("commit %d\n", i)}
		subject := fmt.Sprintf("change %d", i)
		if i == planted {
			subject += ": the planted slowdown"
		}
		commits = append(commits, repo.Commit(t, files, subject))
	}
	return repo, commits
}

// TestBisectFindsPlantedSlowdown bisects a synthetic history of five
// commits, built from a temporary repository, in which one commit triples
// the worker's time: bisect must name it, after confirming the regression.
// Naming it takes a step that finds its parent good and one that finds it
// bad.
func TestBisectFindsPlantedSlowdown(t *testing.T) {
	fullSuiteOnly(t, "builds a git history")
	t.Parallel()
	// The culprit: commit 3 triples the time.
	repo, commits := plantedHistory(t, []int{30, 30, 30, 90, 90}, 3)
	r := rootbench(t, []string{"ROOTBENCH_CACHE=" + t.TempDir()}, "bisect", "--repo", repo.Dir,
		"--good", commits[0], "--bad", commits[4], "--cell", "ocaml", "--looks", "12,24", "--max-time", "1m",
		// A wide gate: under -race on a loaded machine a sleep's jitter is
		// several percent, and an unchanged step must still pass.
		"--fail-on-regression", "50%")
	r.Must(t, 0)
	t.Logf("bisect output:\n%s", r.Stdout)
	if !strings.Contains(r.Stdout, "culprit: "+commits[3][:7]) || !strings.Contains(r.Stdout, "the planted slowdown") {
		t.Errorf("no culprit %s named:\n%s\nstderr:\n%s", commits[3][:7], r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "confirm") || !strings.Contains(r.Stdout, "bad") || !strings.Contains(r.Stdout, "good") {
		t.Errorf("steps not printed:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "changes, against "+commits[2][:7]) {
		t.Errorf("the directories the culprit changes are not named:\n%s", r.Stdout)
	}
	if !strings.Contains(strings.Join(strings.Fields(r.Stdout), " "), "--base-rev "+commits[2][:7]+" --head-rev "+commits[3][:7]) {
		t.Errorf("no way to judge the culprit in other layouts is given:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "verify") || !strings.Contains(r.Stdout, "bad against its parent "+commits[2][:7]) {
		t.Errorf("the culprit was not verified against its parent %s:\n%s", commits[2][:7], r.Stdout)
	}

	// The same range, refused before anything builds: good after bad.
	r = rootbench(t, nil, "bisect", "--repo", repo.Dir, "--good", commits[4], "--bad", commits[0])
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, "not an ancestor") || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 {
		t.Errorf("stderr is not one line saying 'not an ancestor':\n%s", r.Stderr)
	}
}

func TestBisectBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bisect"}, "--good REV and --bad REV are both required"},
		{[]string{"bisect", "--good", "HEAD"}, "both required"},
		{[]string{"bisect", "--good", "no-such-revision-xyz", "--bad", "HEAD"}, "unknown revision"},
		{[]string{"bisect", "--good", "HEAD~1", "--bad", "HEAD~1"}, "no commits between them"},
		{[]string{"bisect", "--good", "HEAD", "--bad", "HEAD~1"}, "were they swapped?"},
		{[]string{"bisect", "--good", "HEAD~1", "--bad", "HEAD", "--repo", dir}, "not inside a git repository"},
		{[]string{"bisect", "--good", "HEAD~1", "--bad", "HEAD", "--max-time", "0s"}, "--max-time"},
		{[]string{"bisect", "--good", "HEAD~1", "--bad", "HEAD", "--package", "../outside"}, "--package ../outside: not a directory below"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			refusedInOneLine(t, inProcess(t, tc.args...), tc.want)
		})
	}
}

// The handshake's notes are said once while they stay the same from step
// to step, the step's commit aside.
func TestBisectSaysNotesOnce(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	bp := &bisectPlan{abPlan: abPlan{out: &out}}
	c1 := gitrev.Commit{Hash: "aaaaaaaaaaaa1111", Short: "aaaaaaa"}
	c2 := gitrev.Commit{Hash: "bbbbbbbbbbbb2222", Short: "bbbbbbb"}
	bp.sayNotes("ab: base (000000000000) and head (aaaaaaaaaaaa) predate passes\n", c1)
	bp.sayNotes("ab: base (000000000000) and head (bbbbbbbbbbbb) predate passes\n", c2)
	bp.sayNotes("", c2)
	bp.sayNotes("ab: base (000000000000) predates passes\n", c1)
	want := "ab: base (000000000000) and head (aaaaaaaaaaaa) predate passes\nab: base (000000000000) predates passes\n"
	if out.String() != want {
		t.Errorf("notes said:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestBisectAcrossLayouts bisects a synthetic history of four commits, in
// which the third triples the worker's time, with every step judged across
// two function layouts: bisect must name the culprit from the combinations.
func TestBisectAcrossLayouts(t *testing.T) {
	fullSuiteOnly(t, "builds a git history in several function layouts")
	t.Parallel()
	repo, commits := plantedHistory(t, []int{30, 30, 120, 120}, -1)
	r := rootbench(t, []string{"ROOTBENCH_CACHE=" + t.TempDir()}, "bisect", "--repo", repo.Dir,
		"--good", commits[0], "--bad", commits[3], "--cell", "ocaml", "--looks", "6", "--max-time", "1m",
		"--layouts", "0,3,5", "--fail-on-regression", "100%")
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "culprit: "+commits[2][:7]) {
		t.Errorf("no culprit %s named:\n%s\nstderr:\n%s", commits[2][:7], r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "across 3 layouts (layout 0: ") || !strings.Contains(r.Stderr, "in each of 3 function layouts (0, 3, 5)") {
		t.Errorf("the steps were not judged across the layouts:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	r = rootbench(t, nil, "bisect", "--repo", repo.Dir, "--good", commits[0], "--bad", commits[3], "--layouts", "7")
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, "--layouts") || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 {
		t.Errorf("stderr is not one line about --layouts:\n%s", r.Stderr)
	}
}
