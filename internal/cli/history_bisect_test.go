package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// Bad input is refused in one line before anything is built: no series
// chosen, one that does not exist, several to choose from, no change
// point, a change point that does not exist, a fall, a workload flag the
// series decides; a range the repository lacks is bisect's own refusal.
func TestHistoryBisectRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store, _ := seriesStore(t, dir, 40, 25, 10, map[string]float64{"boxroot-handle": 1.7, "boxroot": 1, "ref": 0.6})
	hb := func(args ...string) []string {
		return append([]string{"history", "bisect", "--history", store}, args...)
	}
	mustRefuse(t, []refusal{
		{args: hb(), want: []string{"--series ID or --cell CELL (one cell) is required"}},
		{args: hb("--series", "999"), want: []string{"--series 999: no such series"}},
		{args: hb("--series", "1", "--cell", "boxroot"), want: []string{"give one"}},
		{args: hb("--cell", "boxroot"), want: []string{"has no change point: nothing to bisect"}},
		{args: hb("--cell", "nosuch"), want: []string{"no series of nosuch on wall"}},
		{args: hb("--cell", "boxroot-handle", "--metric", "gc-cpu"), want: []string{"bisect judges wall or cpu time"}},
		{args: hb("--cell", "boxroot-handle", "--change", "2"), want: []string{"--change 2: series", "has 1 change point(s)"}},
		{args: hb("--cell", "ref"), want: []string{"is a fall (-39.", "made a benchmark slower"}},
		{args: hb("--cell", "boxroot-handle", "--niters", "5"), want: []string{"--niters: the series' parameters decide it (niters=1000)"}},
		{args: hb("--cell", "boxroot-handle"), want: []string{"--good " + fakeHash(24)[:7], "unknown revision"}},
		{args: []string{"history", "bisect", "--history", filepath.Join(dir, "none.db"), "--cell", "x"}, want: []string{"no history store at"}},
	})
}

// From a backfill to a culprit: a backfill of every other revision of a
// synthetic history finds a step whose range holds two commits; history
// bisect over it names the planted slowdown and records it, and history
// show then names the culprit beside the change point.
func TestHistoryBisect(t *testing.T) {
	fullSuiteOnly(t, "builds a git history and bisects it")
	t.Parallel()
	repo := gittest.New(t)
	var commits []string
	for i := range 10 {
		delay := 20
		if i >= 7 {
			delay = 60 // the culprit: commit 7
		}
		files := map[string]string{"go.mod": gittest.GoMod, "cmd/rootbench/main.go": fakeWorker(t, delay), "notes.txt": fmt.Sprintf("commit %d\n", i)}
		subject := fmt.Sprintf("change %d", i)
		if i == 7 {
			subject = "change 7: the planted slowdown"
		}
		commits = append(commits, repo.Commit(t, files, subject))
	}
	store := filepath.Join(t.TempDir(), "h.db")
	env := []string{"ROOTBENCH_CACHE=" + t.TempDir()}
	rootbench(t, env, "history", "backfill", "--history", store, "--repo", repo.Dir, "--since", commits[0], "--every", "2",
		"--cell", "ocaml", "--runs", "4").Must(t, 0)
	r := rootbench(t, env, "history", "show", "--history", store, "--repo", repo.Dir, "--metric", "wall")
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "↑1 "+commits[6][:7]+".."+commits[8][:7]+": +") {
		t.Fatalf("no change point over %s..%s:\n%s", commits[6][:7], commits[8][:7], r.Stdout)
	}

	r = rootbench(t, env, "history", "bisect", "--history", store, "--repo", repo.Dir, "--cell", "ocaml",
		"--looks", "12,24", "--max-time", "1m", "--fail-on-regression", "50%")
	r.Must(t, 0)
	t.Logf("history bisect:\n%s\n%s", r.Stdout, r.Stderr)
	if !strings.Contains(r.Stdout, "culprit: "+commits[7][:7]) {
		t.Errorf("no culprit %s named:\n%s", commits[7][:7], r.Stdout)
	}
	if !strings.Contains(r.Stderr, "history bisect: series ") || !strings.Contains(r.Stderr, "recorded in "+store+": change 1 of series") {
		t.Errorf("the bisection was not introduced and recorded:\n%s", r.Stderr)
	}
	r = rootbench(t, env, "history", "show", "--history", store, "--repo", repo.Dir, "--metric", "wall")
	r.Must(t, 0)
	if !strings.Contains(strings.Join(strings.Fields(r.Stdout), " "), "culprit: "+commits[7][:7]+" change 7: the planted slowdown (history bisect, ") {
		t.Errorf("history show does not name the culprit:\n%s", r.Stdout)
	}
}
