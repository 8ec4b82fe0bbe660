package history_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// testCells is the units of work of every test run.
const testCells = 1000

// spec is one result of a test file: a cell, its own parameters (added to
// the file's), each successful run's wall time in ns, then failed runs.
type spec struct {
	cell   string
	params map[string]string
	walls  []int64
	failed int
}

// rev is a test commit hash: n in 40 hex digits.
func rev(n int) string { return fmt.Sprintf("%040x", n) }

// resultsFile is a results file of commit rev on harnesstest's machine,
// measured from start: its runs start one millisecond apart, each with a
// CPU time of 3/4 of its wall time and a load of 1.
func resultsFile(commit string, start time.Time, specs ...spec) *harness.File {
	f := harnesstest.File()
	f.Tool.Revision = commit
	f.StartedAt = start
	idx := 0
	for _, s := range specs {
		params := map[string]string{}
		for k, v := range f.Params {
			params[k] = v
		}
		for k, v := range s.params {
			params[k] = v
		}
		r := harness.Result{Cell: s.cell, Label: strings.TrimSpace(s.cell + " " + series.FormatParams(s.params)), Params: params}
		for i := 0; i < len(s.walls)+s.failed; i++ {
			run := harness.Run{Index: idx, StartedAt: start.Add(time.Duration(idx) * time.Millisecond)}
			if i < len(s.walls) {
				run.WallNs, run.Cells = s.walls[i], testCells
				run.CPUUserNs, run.CPUSysNs = s.walls[i]/2, s.walls[i]/4
				run.UserNs, run.SysNs, run.PeakRSSBytes = 2*s.walls[i], s.walls[i], 1<<20
				run.Env = &harness.RunEnv{Load1: 1, RunQueue: 1}
			} else {
				run.Failed, run.Error = true, "boom"
			}
			r.Runs = append(r.Runs, run)
			idx++
		}
		f.Results = append(f.Results, r)
	}
	return f
}

// source is f as a Source named name.
func source(t testing.TB, name string, f *harness.File) *history.Source {
	t.Helper()
	src, err := history.FromFile(name, f)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// openStore opens a new store in a temporary directory.
func openStore(t testing.TB) *history.Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "history.db"))
}

// openAt opens the store at path, closed when t ends.
func openAt(t testing.TB, path string) *history.Store {
	t.Helper()
	s, err := history.Open(context.Background(), path, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// add adds src to s, failing t on an error.
func add(t testing.TB, s *history.Store, src *history.Source, opt history.AddOptions) history.Added {
	t.Helper()
	a, err := s.Add(context.Background(), src, opt)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// commitTimes is a CommitLookup from a map of hashes to times, on branch
// main.
type commitTimes map[string]time.Time

func (c commitTimes) LookupCommit(_ context.Context, hash string) (series.Commit, bool, error) {
	t, ok := c[hash]
	return series.Commit{Hash: hash, Time: t, Branch: "main"}, ok, nil
}

// seriesNamed returns the series of benchmark cell and metric; it fails t
// unless exactly one exists.
func seriesNamed(t testing.TB, s *history.Store, cell, metric string) series.Series {
	t.Helper()
	all, err := s.Series(context.Background(), history.Filter{Benchmarks: []string{cell}, Metrics: []string{metric}})
	if err != nil || len(all) != 1 {
		t.Fatalf("series of %s %s: %d, %v; want one", cell, metric, len(all), err)
	}
	return all[0]
}

// points reads a series' points, failing t on an error.
func points(t testing.TB, s *history.Store, x series.Series) []series.Point {
	t.Helper()
	ps, err := s.Points(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// pointsText renders points as "commit:v1,v2(failed N) ...", commits by
// their last digits.
func pointsText(ps []series.Point) string {
	var parts []string
	for _, p := range ps {
		vs := make([]string, len(p.Values))
		for i, v := range p.Values {
			vs[i] = fmt.Sprint(v)
		}
		s := strings.TrimLeft(p.Commit.Hash, "0") + ":" + strings.Join(vs, ",")
		if p.Failed > 0 {
			s += fmt.Sprintf("(failed %d)", p.Failed)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}
