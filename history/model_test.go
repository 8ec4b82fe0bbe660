package history_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
)

// session is one measuring session of the model: a commit on a machine
// kind, its results, and what it carries.
type session struct {
	file *harness.File // every run
}

// genSession draws session i: a commit, a machine kind, whether the build
// was modified or its runs lack CPU time, and up to four results (two
// cells, two parameter sets) of up to three runs and a failed one.
func genSession(t *rapid.T, i int) session {
	commit := rapid.IntRange(1, 4).Draw(t, "commit")
	var specs []spec
	for _, cell := range []string{"a", "b"} {
		for _, params := range []map[string]string{nil, {"batch-size": "16"}} {
			if !rapid.Bool().Draw(t, "has result") {
				continue
			}
			specs = append(specs, spec{cell: cell, params: params,
				walls:  rapid.SliceOfN(rapid.Int64Range(1000, 5000), 0, 3).Draw(t, "walls"),
				failed: rapid.IntRange(0, 1).Draw(t, "failed")})
		}
	}
	f := resultsFile(rev(commit), t0.Add(time.Duration(i)*time.Hour), specs...)
	f.Machine.GOMAXPROCS = rapid.IntRange(1, 2).Draw(t, "gomaxprocs")
	f.Tool.Modified = rapid.IntRange(0, 5).Draw(t, "modified") == 0
	if rapid.IntRange(0, 3).Draw(t, "no cpu") == 0 {
		for j := range f.Results {
			for k := range f.Results[j].Runs {
				f.Results[j].Runs[k].CPUUserNs, f.Results[j].Runs[k].CPUSysNs = 0, 0
			}
		}
	}
	return session{f}
}

// prefix is a snapshot of the session: its first n runs (all when n is
// past them), as a results file written during the session holds them.
func (s session) prefix(n int) *harness.File {
	f := *s.file
	f.Results = nil
	for _, r := range s.file.Results {
		r.Runs = slices.DeleteFunc(slices.Clone(r.Runs), func(run harness.Run) bool { return run.Index >= n })
		f.Results = append(f.Results, r)
	}
	f.Partial = n < 100
	return &f
}

// genSources draws the files to add, in order: snapshots or whole files
// of the sessions, A/B files of two of them, and repeats.
func genSources(t *rapid.T, sessions []session) []*history.Source {
	var out []*history.Source
	for i := range rapid.IntRange(1, 8).Draw(t, "adds") {
		if i > 0 && rapid.IntRange(0, 4).Draw(t, "repeat") == 0 {
			out = append(out, out[rapid.IntRange(0, i-1).Draw(t, "repeated")])
			continue
		}
		pick := func(label string) *harness.File {
			s := sessions[rapid.IntRange(0, len(sessions)-1).Draw(t, label)]
			return s.prefix(rapid.SampledFrom([]int{1, 3, 100}).Draw(t, label+" runs"))
		}
		name := fmt.Sprintf("file%d", i)
		var src *history.Source
		var err error
		if rapid.IntRange(0, 3).Draw(t, "ab") == 0 {
			src, err = history.FromAB(name, abFile(pick("base"), pick("head")))
		} else {
			src, err = history.FromFile(name, pick("run"))
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, src)
	}
	return out
}

// drawSources draws up to four sessions and the files to add of them.
func drawSources(t *rapid.T) []*history.Source {
	var sessions []session
	for i := range rapid.IntRange(1, 4).Draw(t, "sessions") {
		sessions = append(sessions, genSession(t, i))
	}
	return genSources(t, sessions)
}

// model is what the store must hold, computed in memory: each file once,
// each run once (by commit, machine, parameters, cell, index, start and
// wall time), commits ordered by time then by the first file holding them.
type model struct {
	times     map[string]time.Time
	files     map[string]bool
	firstFile map[string]int
	runs      map[string]modelRun
}

type modelRun struct {
	key    string // the series key less the metric
	commit string
	run    harness.Run
}

func newModel(times map[string]time.Time) *model {
	return &model{times: times, files: map[string]bool{}, firstFile: map[string]int{}, runs: map[string]modelRun{}}
}

// add adds src and reports whether it was new.
func (m *model) add(src *history.Source) bool {
	if m.files[src.Hash] {
		return false
	}
	m.files[src.Hash] = true
	for _, side := range src.Sides {
		f := side.File
		commit := f.Tool.Revision
		if _, ok := m.firstFile[commit]; !ok {
			m.firstFile[commit] = len(m.files)
		}
		for _, r := range f.Results {
			key := fmt.Sprintf("gomaxprocs=%d %s %s", f.Machine.GOMAXPROCS, r.Cell, series.FormatParams(r.Params))
			for _, run := range r.Runs {
				id := fmt.Sprint(commit, key, run.Index, run.StartedAt.UnixNano(), run.WallNs)
				if _, ok := m.runs[id]; !ok && !f.Tool.Modified {
					m.runs[id] = modelRun{key, commit, run}
				} else if !ok {
					m.runs[id] = modelRun{} // stored, in no series
				}
			}
		}
	}
	return true
}

// series renders every series of the metrics wall and cpu with its points,
// as seriesText renders the store's.
func (m *model) series() string {
	value := map[string]func(harness.Run) (float64, bool){
		"wall": func(r harness.Run) (float64, bool) { return float64(r.WallNs) / float64(r.Cells), true },
		"cpu":  func(r harness.Run) (float64, bool) { return float64(r.CPUNs()) / float64(r.Cells), r.CPUNs() > 0 },
	}
	var runs []modelRun
	for _, r := range m.runs {
		if r.key != "" {
			runs = append(runs, r)
		}
	}
	slices.SortFunc(runs, func(a, b modelRun) int {
		return cmp.Or(m.times[a.commit].Compare(m.times[b.commit]), cmp.Compare(m.firstFile[a.commit], m.firstFile[b.commit]),
			cmp.Compare(a.commit, b.commit), a.run.StartedAt.Compare(b.run.StartedAt), cmp.Compare(a.run.Index, b.run.Index))
	})
	var out []string
	for _, metric := range []string{"wall", "cpu"} {
		keys := map[string]bool{}
		for _, r := range runs {
			if _, ok := value[metric](r.run); ok && !r.run.Failed {
				keys[r.key] = true
			}
		}
		for key := range keys {
			var ps []series.Point
			for _, r := range runs {
				if r.key != key {
					continue
				}
				if len(ps) == 0 || ps[len(ps)-1].Commit.Hash != r.commit {
					ps = append(ps, series.Point{Commit: series.Commit{Hash: r.commit}})
				}
				p := &ps[len(ps)-1]
				if v, ok := value[metric](r.run); r.run.Failed {
					p.Failed++
				} else if ok {
					p.Values = append(p.Values, v)
				}
			}
			ps = slices.DeleteFunc(ps, func(p series.Point) bool { return len(p.Values) == 0 && p.Failed == 0 })
			out = append(out, metric+" "+key+": "+pointsText(ps))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// seriesText renders the store's series of wall and cpu with their points.
func seriesText(t *rapid.T, s *history.Store) string {
	all, err := s.Series(context.Background(), history.Filter{Metrics: []string{"wall", "cpu"}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range all {
		ps, err := s.Points(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s gomaxprocs=%d %s %s: %s", x.Metric, x.MachineKind.GOMAXPROCS, x.Benchmark, x.ParamsText(), pointsText(ps)))
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// tempStore opens a store in a new directory, removed by the cleanup.
func tempStore(t *rapid.T) (path string, cleanup func()) {
	dir, err := os.MkdirTemp("", "history-model-")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "h.db"), func() { os.RemoveAll(dir) }
}

func openModelStore(t *rapid.T, path string) *history.Store {
	s, err := history.Open(context.Background(), path, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Adding files in any order, repeats and snapshots included, gives the
// series the model gives.
func TestAddMatchesTheModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		times := map[string]time.Time{}
		for c := 1; c <= 4; c++ {
			// Few distinct times: commits of one time are ordered by the
			// first file that held them.
			times[rev(c)] = t0.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, "commit time")) * time.Hour)
		}
		sources := drawSources(t)
		path, cleanup := tempStore(t)
		defer cleanup()
		s := openModelStore(t, path)
		defer s.Close()
		m := newModel(times)
		for _, src := range sources {
			a, err := s.Add(context.Background(), src, history.AddOptions{Commits: commitTimes(times)})
			if err != nil {
				t.Fatal(err)
			}
			if isNew := m.add(src); a.AlreadyStored == isNew {
				t.Fatalf("add %s: AlreadyStored = %v; the model says new = %v", src.Name, a.AlreadyStored, isNew)
			}
		}
		if got, want := seriesText(t, s), m.series(); got != want {
			t.Fatalf("store:\n%s\nmodel:\n%s", got, want)
		}
	})
}

// Two processes' worth of stores adding at once (two connections, each
// with its own locks) end with what the model holds for the same files
// in any order: the invariant is that each add is one transaction that
// sees every add committed before it. Commit times are distinct here, so
// that the order of adds does not matter.
func TestConcurrentAddsMatchTheModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		times := map[string]time.Time{}
		for c := 1; c <= 4; c++ {
			times[rev(c)] = t0.Add(time.Duration(c) * time.Hour)
		}
		sources := drawSources(t)
		path, cleanup := tempStore(t)
		defer cleanup()
		stores := []*history.Store{openModelStore(t, path), openModelStore(t, path)}
		m := newModel(times)
		added := make([]int, 2)
		var wg sync.WaitGroup
		errs := make(chan error, len(sources))
		for w, s := range stores {
			wg.Go(func() {
				for i, src := range sources {
					if i%2 != w && !(i == 0) {
						continue // both writers add the first file; each adds half of the others
					}
					a, err := s.Add(context.Background(), src, history.AddOptions{Commits: commitTimes(times)})
					if err != nil {
						errs <- err
						return
					}
					if !a.AlreadyStored {
						added[w]++
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		newFiles := 0
		for _, src := range sources {
			if m.add(src) {
				newFiles++
			}
		}
		if added[0]+added[1] != newFiles {
			t.Fatalf("%d + %d files added; the model holds %d", added[0], added[1], newFiles)
		}
		got := seriesText(t, stores[0])
		for _, s := range stores {
			s.Close()
		}
		if want := m.series(); got != want {
			t.Fatalf("store:\n%s\nmodel:\n%s", got, want)
		}
	})
}
