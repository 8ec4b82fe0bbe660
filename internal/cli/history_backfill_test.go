package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/cli/clitest"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
	"github.com/rootbench/rootbench/report/historyreport"
)

// The revisions: SINCE, then every N-th of SINCE..HEAD in topological
// order, every merge, and HEAD.
func TestPickRevisions(t *testing.T) {
	t.Parallel()
	node := func(i int, parents int) gitrev.Node {
		n := gitrev.Node{Commit: gitrev.Commit{Hash: fmt.Sprint(i), Short: fmt.Sprint(i)}}
		for p := range parents {
			n.Parents = append(n.Parents, fmt.Sprint(i-1-p))
		}
		return n
	}
	var nodes []gitrev.Node
	for i := 1; i <= 10; i++ {
		parents := 1
		if i == 5 {
			parents = 2
		}
		nodes = append(nodes, node(i, parents))
	}
	since := gitrev.Commit{Hash: "0", Short: "0"}
	for _, tc := range []struct {
		every int
		want  string
	}{{1, "0 1 2 3 4 5m 6 7 8 9 10"}, {3, "0 3 5m 6 9 10"}, {4, "0 4 5m 8 10"}, {20, "0 5m 10"}} {
		var got []string
		for _, r := range pickRevisions(since, nodes, tc.every) {
			s := r.commit.Short
			if r.merge {
				s += "m"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("--every %d: %s, want %s", tc.every, strings.Join(got, " "), tc.want)
		}
	}
	if got := pickRevisions(since, nil, 8); len(got) != 1 || got[0].commit.Hash != "0" {
		t.Errorf("SINCE = HEAD: %v; want SINCE alone", got)
	}
}

// Bad input is refused in one line before anything is built.
func TestHistoryBackfillRefusals(t *testing.T) {
	t.Parallel()
	repo := gittest.New(t)
	first := repo.Commit(t, map[string]string{"go.mod": gittest.GoMod, "cmd/rootbench/main.go": gittest.Prints("one")}, "one")
	repo.Branch(t, "side", first)
	side := repo.Commit(t, map[string]string{"side.txt": "x"}, "side")
	repo.Checkout(t, "main")
	repo.Commit(t, map[string]string{"main.txt": "x"}, "main")
	store := filepath.Join(t.TempDir(), "h.db")
	bf := func(args ...string) []string {
		return append([]string{"history", "backfill", "--history", store, "--repo", repo.Dir, "--cell", "ocaml"}, args...)
	}
	mustRefuse(t, []refusal{
		{args: bf(), want: []string{"--since REV is required"}},
		{args: bf("--since", "nosuchrev"), want: []string{"--since nosuchrev: unknown revision"}},
		{args: bf("--since", side), want: []string{"is not an ancestor of HEAD"}},
		{args: bf("--since", first, "--every", "0"), want: []string{"--every"}},
		{args: bf("--since", first, "--runs", "0"), want: []string{"--runs"}},
		{args: bf("--since", first, "--order", "random"), want: []string{`--order "random": accepted: spread or history`}},
		{args: bf("--since", first, "--runs", "6", "--visits", "4"), want: []string{"--visits 4 does not divide --runs 6"}},
		{args: bf("--since", first, "--visits", "-1"), want: []string{"--visits"}},
		{args: bf("--since", first, "--cell", "nosuch"), want: []string{"nosuch"}},
		{args: append(bf("--since", first), "--history", filepath.Join(store, "x", "h.db")), want: []string{"does not exist"}},
	})
}

// spreadOrder is a permutation of 0..n-1 that starts at 0 and whose first
// k places, for every k, leave no gap in 0..n-1 wider than about 2n/k: the
// revisions measured in any early stretch of a backfill cover its history.
func TestSpreadOrder(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 2000).Draw(rt, "n")
		order := spreadOrder(n)
		if len(order) != n || order[0] != 0 {
			rt.Fatalf("spreadOrder(%d) has %d places, the first %d", n, len(order), order[0])
		}
		seen := make([]bool, n)
		for _, i := range order {
			if i < 0 || i >= n || seen[i] {
				rt.Fatalf("spreadOrder(%d) holds %d out of range or twice: %v", n, i, order)
			}
			seen[i] = true
		}
		k := rapid.IntRange(1, n).Draw(rt, "k")
		prefix := slices.Sorted(slices.Values(order[:k]))
		widest := n - prefix[len(prefix)-1] // from the last to the end
		for j := 1; j < len(prefix); j++ {
			widest = max(widest, prefix[j]-prefix[j-1])
		}
		if bound := 2*n/k + 2; widest > bound {
			rt.Fatalf("spreadOrder(%d)'s first %d leave a gap of %d, more than %d: %v", n, k, widest, bound, prefix)
		}
	})
	if got := fmt.Sprint(spreadOrder(8)); got != "[0 4 2 6 1 5 3 7]" {
		t.Errorf("spreadOrder(8) = %s, want [0 4 2 6 1 5 3 7]", got)
	}
}

// fakeHistory is a repository of seven commits of a stand-in rootbench
// whose worker sleeps 20 ms a run, 60 ms from commit 4 on; commit 2 does
// not build.
func fakeHistory(t *testing.T) (*gittest.Repo, []string) {
	t.Helper()
	return plantedHistory(t, []int{20, 20, 0, 20, 60, 60, 60}, 4)
}

// A backfill over a synthetic history measures every revision that builds
// into the store, in two visits each, the second to any revision after
// the first to every one; skips the one that does not build with a note
// (and records it, so that running it again skips it without building);
// and resumes by measuring nothing twice; history show then finds the
// planted step.
func TestHistoryBackfill(t *testing.T) {
	fullSuiteOnly(t, "builds a git history")
	t.Parallel()
	repo, commits := fakeHistory(t)
	store := filepath.Join(t.TempDir(), "h.db")
	env := []string{"ROOTBENCH_CACHE=" + t.TempDir()}
	args := []string{"history", "backfill", "--history", store, "--repo", repo.Dir, "--since", commits[0], "--cell", "ocaml", "--runs", "4", "--visits", "2"}

	r := rootbench(t, env, append(args, "--dry-run")...)
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "7 revision(s); each: 4 run(s) of 1 benchmark(s), interleaved, in 2 visit(s); measured in spread order") {
		t.Errorf("--dry-run:\n%s", r.Stdout)
	}

	r = rootbench(t, env, args...)
	r.Must(t, 0)
	t.Logf("backfill:\n%s\n%s", r.Stdout, r.Stderr)
	if n := strings.Count(r.Stdout, ": 2 runs, "); n != 12 {
		t.Errorf("%d visits made, want 12 (6 revisions, 2 visits each):\n%s", n, r.Stdout)
	}
	if first, second := strings.LastIndex(r.Stdout, "visit 1/2"), strings.Index(r.Stdout, "visit 2/2"); first < 0 || second < first {
		t.Errorf("a second visit came before the last first visit:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "backfill: skipping "+commits[2][:7]+": does not build") {
		t.Errorf("no note that %s does not build:\n%s", commits[2][:7], r.Stderr)
	}

	r = rootbench(t, env, args...)
	r.Must(t, 0)
	if !strings.Contains(r.Stderr, "0 to measure, 6 measured already, 1 skipped") || !strings.Contains(r.Stderr, "as before") {
		t.Errorf("a second backfill did not resume:\n%s\n%s", r.Stdout, r.Stderr)
	}

	r = rootbench(t, nil, "history", "show", "--history", store, "--repo", repo.Dir, "--metric", "wall", "--format", "json")
	r.Must(t, 0)
	doc, err := historyreport.Decode([]byte(r.Stdout), "show")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Series) != 1 || len(doc.Series[0].Points) != 6 || doc.Series[0].Points[0].Runs != 4 {
		t.Fatalf("%d series; want one of 6 commits:\n%s", len(doc.Series), r.Stdout)
	}
	s := doc.Series[0]
	if s.Points[3].Hash != commits[4] || s.Points[3].Subject != "change 4: the planted slowdown" || s.Points[0].Time == nil {
		t.Errorf("points: %+v", s.Points)
	}
	// A sleep barely varies: a change point may also mark a shift of a
	// fraction of a percent between builds, which this does not check.
	if c := stepAt(s, commits[4]); c == nil {
		t.Errorf("change points %+v; want the step up at %s", s.ChangePoints, commits[4][:7])
	}
	if s.Params["passes"] != "3" || s.Params["niters"] != fmt.Sprint(defaultNIters) {
		t.Errorf("parameters %v: want the defaults", s.Params)
	}
}

// storeFiles opens the store at path and returns its files, checking its
// integrity first.
func storeFiles(t *testing.T, path string) []history.StoredFile {
	t.Helper()
	s, err := history.Open(context.Background(), path, history.Options{MustExist: true})
	if err != nil {
		t.Fatalf("the store does not open: %v", err)
	}
	defer s.Close()
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	files, err := s.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Killing a backfill at any moment (SIGKILL: nothing runs after it)
// leaves a store that opens, passes SQLite's integrity check and holds
// whole visits only; a backfill run again then makes the rest, each visit
// once. Each kill comes later than the one before, so that kills land
// before the store exists, while it prepares, between visits and inside
// an add, until one backfill finishes.
func TestKilledBackfillLeavesWholeVisits(t *testing.T) {
	fullSuiteOnly(t, "builds a git history, then starts and kills backfills for seconds")
	t.Parallel()
	repo, commits := fakeHistory(t)
	dir := t.TempDir()
	env := []string{"ROOTBENCH_CACHE=" + filepath.Join(dir, "cache")}
	args := func(store string) []string {
		return []string{"history", "backfill", "--history", store, "--repo", repo.Dir, "--since", commits[0], "--cell", "ocaml", "--runs", "4", "--visits", "2"}
	}
	// The builds, once, into the cache every later backfill reads.
	rootbench(t, env, args(filepath.Join(dir, "warm.db"))...).Must(t, 0)
	midway := 0
	finished := false
	var last string
	// Kills at growing delays until three have landed between the first
	// visit stored and the last (or a backfill finished first).
	for k := 0; k < 30 && !finished && midway < 3; k++ {
		last = filepath.Join(dir, fmt.Sprintf("h%d.db", k))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := clitest.Command(ctx, env, args(last)...)
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		time.Sleep(time.Duration(50+120*k) * time.Millisecond)
		cmd.Process.Kill()
		finished = cmd.Wait() == nil
		cancel()
		if _, err := os.Stat(last); err != nil {
			continue // killed before the store existed
		}
		files := storeFiles(t, last)
		for _, f := range files {
			if f.Runs != 2 {
				t.Errorf("kill %d: %s holds %d runs, want the whole visit's 2", k, f.Name, f.Runs)
			}
		}
		if len(files) > 0 && len(files) < 12 {
			midway++
		}
	}
	t.Logf("%d kills left a store partly filled", midway)
	if midway == 0 {
		t.Errorf("no kill landed between the first visit stored and the last")
	}
	r := rootbench(t, env, args(last)...)
	r.Must(t, 0)
	seen := map[string]int{}
	for _, f := range storeFiles(t, last) {
		seen[f.Name]++
	}
	if len(seen) != 12 {
		t.Errorf("after resuming, the store holds %d visits, want 12 (6 revisions, 2 visits each): %v", len(seen), seen)
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s stored %d times", name, n)
		}
	}

	// Interrupted (SIGINT), it stores what it measured of the revision
	// it was measuring (marked partial), says how to resume, and exits
	// 130; resumed, it measures that revision again, whole.
	store := filepath.Join(dir, "interrupted.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := clitest.Command(ctx, env, args(store)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(900 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("interrupted backfill: exit %d (%v), want %d:\n%s", code, err, exitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same backfill again to resume") {
		t.Errorf("no word on resuming:\n%s", stderr.String())
	}
	rootbench(t, env, args(store)...).Must(t, 0)
	whole := 0
	for _, f := range storeFiles(t, store) {
		if f.Runs == 2 {
			whole++
		}
	}
	if whole != 12 {
		t.Errorf("after an interrupt and a resume, %d visits are stored whole, want 12", whole)
	}
}

// stepAt is the series' change point whose first bad commit is hash, a
// rise to more than twice the level; nil when there is none.
func stepAt(s historyreport.Series, hash string) *historyreport.ChangePoint {
	for i, c := range s.ChangePoints {
		if c.FirstBad.Hash == hash && c.Ratio > 2 {
			return &s.ChangePoints[i]
		}
	}
	return nil
}
