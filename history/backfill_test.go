package history_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// A commit counts as measured under a plan, once per whole measurement
// in which every benchmark of the plan has runs on that machine kind with
// those parameters: a partial file, a modified build, another machine,
// other parameters or a missing cell leave it unmeasured; two whole files
// of it count twice.
func TestMeasuredVisits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t)
	both := func(commit string, at time.Time) *harness.File {
		return resultsFile(commit, at, spec{cell: "a", walls: []int64{1000}}, spec{cell: "b", walls: []int64{1000}})
	}
	add(t, s, source(t, "whole", both(rev(1), t0)), history.AddOptions{})
	add(t, s, source(t, "twice", both(rev(7), t0.Add(6*time.Hour))), history.AddOptions{})
	add(t, s, source(t, "twice, again", both(rev(7), t0.Add(7*time.Hour))), history.AddOptions{})
	partial := both(rev(2), t0.Add(time.Hour))
	partial.Partial = true
	add(t, s, source(t, "partial", partial), history.AddOptions{})
	modified := both(rev(3), t0.Add(2*time.Hour))
	modified.Tool.Modified = true
	add(t, s, source(t, "modified", modified), history.AddOptions{})
	add(t, s, source(t, "one cell", resultsFile(rev(4), t0.Add(3*time.Hour), spec{cell: "a", walls: []int64{1000}})), history.AddOptions{})
	other := both(rev(5), t0.Add(4*time.Hour))
	other.Machine.LogicalCPUs++
	add(t, s, source(t, "other machine", other), history.AddOptions{})
	add(t, s, source(t, "other params", resultsFile(rev(6), t0.Add(5*time.Hour),
		spec{cell: "a", params: map[string]string{"niters": "7"}, walls: []int64{1000}},
		spec{cell: "b", params: map[string]string{"niters": "7"}, walls: []int64{1000}})), history.AddOptions{})

	f := harnesstest.File()
	plan := history.Plan{Machine: history.KindOf(f.Machine).Fingerprint(), Workload: f.Workload,
		Configs: []history.Config{{Benchmark: "a", Params: f.Params}, {Benchmark: "b", Params: f.Params}}}
	got, err := s.MeasuredVisits(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[rev(1)] != 1 || got[rev(7)] != 2 {
		t.Errorf("measured visits %v; want %s once and %s twice", got, rev(1), rev(7))
	}
}

// A skip is recorded per plan and commit, its reason replaced when
// recorded again, and forgotten on request; another plan does not see it.
func TestBackfillSkips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t)
	plan := history.Plan{Machine: "m", Workload: "msgpass", Configs: []history.Config{{Benchmark: "a", Params: map[string]string{"niters": "1"}}}}
	other := plan
	other.Configs = []history.Config{{Benchmark: "a", Params: map[string]string{"niters": "2"}}}
	for _, reason := range []string{"does not build", "no cell a"} {
		if err := s.RecordSkip(ctx, rev(1), plan, reason); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Skipped(ctx, plan)
	if err != nil || len(got) != 1 || got[rev(1)] != "no cell a" {
		t.Errorf("skipped %v, %v; want %s with the last reason", got, err, rev(1))
	}
	if got, _ := s.Skipped(ctx, other); len(got) != 0 {
		t.Errorf("another plan sees the skips %v", got)
	}
	if err := s.ForgetSkip(ctx, rev(1), plan); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Skipped(ctx, plan); len(got) != 0 {
		t.Errorf("a forgotten skip is still recorded: %v", got)
	}
}

// Bisections are recorded per series and read back in order.
func TestBisections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t)
	add(t, s, source(t, "f", resultsFile(rev(1), t0, spec{cell: "a", walls: []int64{1000}})), history.AddOptions{})
	x := seriesNamed(t, s, "a", "wall")
	want := []series.Bisection{
		{SeriesID: x.ID, Good: rev(1), Bad: rev(2), Outcome: "not confirmed", Detail: "not confirmed", At: t0},
		{SeriesID: x.ID, Good: rev(1), Bad: rev(2), Outcome: "found", Culprit: rev(2), Detail: "culprit", At: t0.Add(time.Hour)},
	}
	for _, b := range want {
		if err := s.AddBisection(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddBisection(ctx, series.Bisection{SeriesID: x.ID + 100, Good: rev(1), Bad: rev(2), Outcome: "found"}); err == nil {
		t.Error("a bisection of a series that does not exist was recorded")
	}
	got, err := s.Bisections(ctx, x.ID)
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("bisections %+v, %v; want %+v", got, err, want)
	}
}

// FindCommit finds a stored commit by a prefix of its hash, says when
// none has it, and refuses a prefix that names several.
func TestFindCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t)
	a, b := "abc1"+rev(1)[4:], "abc2"+rev(2)[4:]
	add(t, s, source(t, "a", resultsFile(a, t0, spec{cell: "a", walls: []int64{1000}})), history.AddOptions{})
	add(t, s, source(t, "b", resultsFile(b, t0.Add(time.Hour), spec{cell: "a", walls: []int64{1000}})), history.AddOptions{})
	if c, ok, err := s.FindCommit(ctx, "ABC1"); err != nil || !ok || c.Hash != a {
		t.Errorf("FindCommit(ABC1) = %+v, %v, %v; want %s", c, ok, err, a)
	}
	if _, ok, err := s.FindCommit(ctx, "def"); err != nil || ok {
		t.Errorf("FindCommit(def) = %v, %v; want not found", ok, err)
	}
	if _, ok, err := s.FindCommit(ctx, "main"); err != nil || ok {
		t.Errorf("FindCommit(main) = %v, %v; want not found (not hex)", ok, err)
	}
	if _, _, err := s.FindCommit(ctx, "abc"); !errors.Is(err, history.ErrAmbiguousCommit) {
		t.Errorf("FindCommit(abc) = %v; want ErrAmbiguousCommit", err)
	}
}
