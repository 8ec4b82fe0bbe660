package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/report/historyreport"
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
	// The culprit: commit 7 triples the time.
	repo, commits := plantedHistory(t, []int{20, 20, 20, 20, 20, 20, 20, 60, 60, 60}, 7)
	store := filepath.Join(t.TempDir(), "h.db")
	env := []string{"ROOTBENCH_CACHE=" + t.TempDir()}
	rootbench(t, env, "history", "backfill", "--history", store, "--repo", repo.Dir, "--since", commits[0], "--every", "2",
		"--cell", "ocaml", "--runs", "4").Must(t, 0)
	r := rootbench(t, env, "history", "show", "--history", store, "--repo", repo.Dir, "--metric", "wall", "--format", "json")
	r.Must(t, 0)
	doc, err := historyreport.Decode([]byte(r.Stdout), "show")
	if err != nil || len(doc.Series) != 1 {
		t.Fatalf("history show: %v\n%s", err, r.Stdout)
	}
	c := stepAt(doc.Series[0], commits[8])
	if c == nil || c.LastGood.Hash != commits[6] {
		t.Fatalf("no change point over %s..%s: %+v", commits[6][:7], commits[8][:7], doc.Series[0].ChangePoints)
	}

	r = rootbench(t, env, "history", "bisect", "--history", store, "--repo", repo.Dir, "--cell", "ocaml", "--change", fmt.Sprint(c.Number),
		"--looks", "12,24", "--max-time", "1m", "--fail-on-regression", "50%")
	r.Must(t, 0)
	t.Logf("history bisect:\n%s\n%s", r.Stdout, r.Stderr)
	if !strings.Contains(r.Stdout, "culprit: "+commits[7][:7]) {
		t.Errorf("no culprit %s named:\n%s", commits[7][:7], r.Stdout)
	}
	if !strings.Contains(r.Stderr, "history bisect: series ") || !strings.Contains(r.Stderr, "recorded in "+store+": change "+fmt.Sprint(c.Number)+" of series") {
		t.Errorf("the bisection was not introduced and recorded:\n%s", r.Stderr)
	}
	r = rootbench(t, env, "history", "show", "--history", store, "--repo", repo.Dir, "--metric", "wall")
	r.Must(t, 0)
	if !strings.Contains(strings.Join(strings.Fields(r.Stdout), " "), "culprit: "+commits[7][:7]+" change 7: the planted slowdown (history bisect, ") {
		t.Errorf("history show does not name the culprit:\n%s", r.Stdout)
	}
}
