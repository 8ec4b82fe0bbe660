package history_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// One file: every run stored, failed ones marked, one series per metric
// its runs carry, values per unit of work.
func TestAddStoresEveryRunAndItsSeries(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	f := resultsFile(rev(1), t0, spec{cell: "boxroot", walls: []int64{2000, 3000}, failed: 1}, spec{cell: "ocaml", walls: []int64{1000}})
	a := add(t, s, source(t, "one.json", f), history.AddOptions{Commits: commitTimes{rev(1): t0}})
	if a.AlreadyStored || a.Runs() != 4 || len(a.Sides) != 1 || a.Sides[0].Repeated != 0 || a.Sides[0].Commit.Branch != "main" {
		t.Fatalf("Added = %+v; want 4 runs of one side on main", a)
	}
	all, err := s.Series(context.Background(), history.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	// The test runs carry every metric: CPU time, process times, RSS and
	// the load as well as wall time and GC figures.
	if want := 2 * len(history.Metrics); len(all) != want || a.Series != want {
		t.Errorf("%d series listed, %d touched; want %d (every metric of two cells)", len(all), a.Series, want)
	}
	wall := seriesNamed(t, s, "boxroot", "wall")
	if wall.Unit != "ns/cell" || wall.Params["niters"] != "1000" || wall.MachineKind.CPUModel != "Test CPU" {
		t.Errorf("series = %+v", wall)
	}
	if got := pointsText(points(t, s, wall)); got != "1:2,3(failed 1)" {
		t.Errorf("wall points = %s; want 1:2,3(failed 1)", got)
	}
	if got := pointsText(points(t, s, seriesNamed(t, s, "boxroot", "cpu"))); got != "1:1.5,2.25(failed 1)" {
		t.Errorf("cpu points = %s", got)
	}
	files, err := s.Files(context.Background())
	if err != nil || len(files) != 1 || files[0].Runs != 4 || files[0].Name != "one.json" {
		t.Errorf("Files() = %+v, %v", files, err)
	}
	if err := s.Check(context.Background()); err != nil {
		t.Error(err)
	}
}

// The same content again adds nothing and says so.
func TestAddSameContentTwiceIsANoOp(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	f := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000, 1100}})
	add(t, s, source(t, "a.json", f), history.AddOptions{})
	again := add(t, s, source(t, "copy.json", f), history.AddOptions{})
	if !again.AlreadyStored || again.Runs() != 0 {
		t.Errorf("second add = %+v; want AlreadyStored and nothing added", again)
	}
	if got := pointsText(points(t, s, seriesNamed(t, s, "ocaml", "wall"))); got != "1:1,1.1" {
		t.Errorf("points = %s; want each run once", got)
	}
}

// A snapshot written during a session, then the final file: the runs they
// share count once.
func TestSnapshotThenFinalFileCountsEachRunOnce(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	final := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000, 1100, 1200}})
	snapshot := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000, 1100}})
	snapshot.Partial = true
	add(t, s, source(t, "snapshot.json", snapshot), history.AddOptions{})
	a := add(t, s, source(t, "final.json", final), history.AddOptions{})
	if a.Runs() != 3 || a.Sides[0].Repeated != 2 {
		t.Errorf("final add = %+v; want 3 runs, 2 of them repeated", a)
	}
	if got := pointsText(points(t, s, seriesNamed(t, s, "ocaml", "wall"))); got != "1:1,1.1,1.2" {
		t.Errorf("points = %s; want each run once", got)
	}
}

// abFile is an A/B session of base and head.
func abFile(base, head *harness.File) *harness.ABFile {
	return &harness.ABFile{Schema: harness.ABSchema, Base: base, Head: head}
}

// An A/B session stores each side as a measurement of its own commit; an
// A/A session's two sides are one commit, hence one point.
func TestABSidesAreMeasurementsOfTheirCommits(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	base := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000, 1100}})
	head := resultsFile(rev(2), t0.Add(time.Microsecond), spec{cell: "ocaml", walls: []int64{1200, 1300}})
	src, err := history.FromAB("ab.json", abFile(base, head))
	if err != nil {
		t.Fatal(err)
	}
	a := add(t, s, src, history.AddOptions{Commits: commitTimes{rev(1): t0, rev(2): t0.Add(time.Hour)}})
	if len(a.Sides) != 2 || a.Sides[0].Name != "base" || a.Sides[1].Commit.Hash != rev(2) {
		t.Fatalf("Added = %+v", a)
	}
	if got := pointsText(points(t, s, seriesNamed(t, s, "ocaml", "wall"))); got != "1:1,1.1 2:1.2,1.3" {
		t.Errorf("A/B points = %s; want one point per side's commit", got)
	}

	aa := openStore(t)
	head.Tool.Revision = rev(1)
	src, err = history.FromAB("aa.json", abFile(base, head))
	if err != nil {
		t.Fatal(err)
	}
	add(t, aa, src, history.AddOptions{})
	if got := pointsText(points(t, aa, seriesNamed(t, aa, "ocaml", "wall"))); got != "1:1,1.2,1.1,1.3" {
		t.Errorf("A/A points = %s; want one point with both sides' runs, in the order they started", got)
	}
}

// A build with uncommitted changes measured no commit: its runs are
// stored, in no series.
func TestModifiedBuildIsInNoSeries(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	f := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000}})
	f.Tool.Modified = true
	a := add(t, s, source(t, "dirty.json", f), history.AddOptions{})
	if !a.Sides[0].Modified || a.Runs() != 1 || a.Series != 0 {
		t.Errorf("Added = %+v; want 1 run of a modified build, no series", a)
	}
	if all, err := s.Series(context.Background(), history.Filter{}); err != nil || len(all) != 0 {
		t.Errorf("Series() = %v, %v; want none", all, err)
	}
}

// Runs of another machine kind or other parameters are other series.
func TestSeriesNeverMixMachinesOrParameters(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	a := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000}})
	b := resultsFile(rev(2), t0.Add(time.Second), spec{cell: "ocaml", walls: []int64{2000}})
	b.Machine.GOMAXPROCS = 1
	c := resultsFile(rev(3), t0.Add(2*time.Second), spec{cell: "ocaml", params: map[string]string{"batch-size": "16"}, walls: []int64{3000}})
	d := resultsFile(rev(4), t0.Add(3*time.Second), spec{cell: "ocaml", walls: []int64{4000}})
	d.Machine.Hostname, d.Machine.Kernel, d.Machine.LoadAvg = "other-runner", "Linux 7", []float64{9}
	for i, f := range []*harness.File{a, b, c, d} {
		add(t, s, source(t, string(rune('a'+i))+".json", f), history.AddOptions{})
	}
	all, err := s.Series(context.Background(), history.Filter{Benchmarks: []string{"ocaml"}, Metrics: []string{"wall"}})
	if err != nil || len(all) != 3 {
		t.Fatalf("Series = %+v, %v; want 3: two machines, two parameter sets", all, err)
	}
	var got []string
	for _, x := range all {
		got = append(got, x.ParamsText()+" GOMAXPROCS "+string(rune('0'+x.MachineKind.GOMAXPROCS))+" "+pointsText(points(t, s, x)))
	}
	slices.Sort(got)
	want := []string{
		"batch-size=16 niters=1000 scheduler=parallel GOMAXPROCS 2 3:3",
		"niters=1000 scheduler=parallel GOMAXPROCS 1 2:2",
		"niters=1000 scheduler=parallel GOMAXPROCS 2 1:1 4:4", // another host of the same kind
	}
	if !slices.Equal(got, want) {
		t.Errorf("series:\n%q\nwant\n%q", got, want)
	}
}

// Points are in commit time order, unknown times last, equal times in the
// order first added; an explicit branch replaces the stored one.
func TestPointsInCommitOrder(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	times := commitTimes{rev(1): t0.Add(2 * time.Hour), rev(2): t0, rev(3): t0, rev(5): t0.Add(time.Hour)}
	for i, n := range []int{1, 4, 3, 2, 5} {
		f := resultsFile(rev(n), t0.Add(time.Duration(i)*time.Second), spec{cell: "ocaml", walls: []int64{int64(n) * 1000}})
		add(t, s, source(t, rev(n), f), history.AddOptions{Commits: times})
	}
	ps := points(t, s, seriesNamed(t, s, "ocaml", "wall"))
	if got := pointsText(ps); got != "3:3 2:2 5:5 1:1 4:4" {
		t.Errorf("points = %s; want 3:3 2:2 5:5 1:1 4:4 (time, then first added; unknown last)", got)
	}
	if ps[4].Commit.Branch != "" || !ps[4].Commit.Time.IsZero() || ps[0].Commit.Branch != "main" {
		t.Errorf("commits = %+v", ps)
	}
	// An add that knows commit 4 fills its time; --branch replaces main.
	f := resultsFile(rev(4), t0.Add(time.Minute), spec{cell: "ocaml", walls: []int64{4100}})
	a := add(t, s, source(t, "4 again", f), history.AddOptions{Commits: commitTimes{rev(4): t0.Add(-time.Hour)}, Branch: "release"})
	if a.Sides[0].Commit.Branch != "release" || !a.Sides[0].Commit.Time.Equal(t0.Add(-time.Hour)) {
		t.Errorf("commit 4 after a second add = %+v", a.Sides[0].Commit)
	}
	if got := pointsText(points(t, s, seriesNamed(t, s, "ocaml", "wall"))); got != "4:4,4.1 3:3 2:2 5:5 1:1" {
		t.Errorf("points = %s; want commit 4 first now that its time is known", got)
	}
}

// GitCommits knows a commit of the repository (its committer time and
// branch) and not one outside it.
func TestGitCommits(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	repo, err := gitrev.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	two := g.Commit(t, nil, "the commit")
	head, err := repo.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.CommitTime(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	lookup := history.GitCommits(repo)
	c, found, err := lookup.LookupCommit(context.Background(), two)
	if err != nil || !found || c.Branch != "main" || !c.Time.Equal(want) || c.Hash != two {
		t.Errorf("LookupCommit(two) = %+v, %v, %v; want main at %v", c, found, err, want)
	}
	if c, found, err := lookup.LookupCommit(context.Background(), rev(7)); err != nil || found {
		t.Errorf("LookupCommit(a commit of no repository) = %+v, %v, %v; want not found", c, found, err)
	}
}

// countingLookup counts the lookups it answers (as commitTimes).
type countingLookup struct {
	commitTimes
	n int
}

func (c *countingLookup) LookupCommit(ctx context.Context, hash string) (series.Commit, bool, error) {
	c.n++
	return c.commitTimes.LookupCommit(ctx, hash)
}

// A commit stored with its time and branch is not looked up again.
func TestKnownCommitIsNotLookedUpAgain(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	lookup := &countingLookup{commitTimes: commitTimes{rev(1): t0}}
	for i := range 3 {
		f := resultsFile(rev(1), t0.Add(time.Duration(i)*time.Second), spec{cell: "ocaml", walls: []int64{1000}})
		add(t, s, source(t, fmt.Sprint(i), f), history.AddOptions{Commits: lookup})
	}
	if lookup.n != 1 {
		t.Errorf("%d lookups of one commit over three adds; want 1", lookup.n)
	}
}
