package history_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
)

// The cost goals (docs/DESIGN.md, "History store"): `history add` of a
// results file under 50 ms, reading every series of a store of 10,000 runs
// (what `history show` reads) under 1 s. Run them with
//
//	go test -run XXX -bench . ./history

// benchCells are the cells of a default `rootbench run`.
var benchCells = []string{"ocaml", "ref", "generational", "cgo-handle", "boxroot", "bxboxed", "boxroot-handle"}

// benchFile is a results file of commit n: every cell of benchCells with
// runs runs, started at hour n.
func benchFile(n, runs int) *harness.File {
	var specs []spec
	for _, cell := range benchCells {
		walls := make([]int64, runs)
		for j := range walls {
			walls[j] = int64(1_000_000 + 1000*n + j)
		}
		specs = append(specs, spec{cell: cell, walls: walls})
	}
	return resultsFile(rev(n), t0.Add(time.Duration(n)*time.Hour), specs...)
}

// benchStore is a store of commits files of benchFile(i, runs), every
// commit's time known.
func benchStore(b *testing.B, commits, runs int) (*history.Store, commitTimes) {
	s := openStore(b)
	times := commitTimes{}
	for i := range 1000 {
		times[rev(i)] = t0.Add(time.Duration(i) * time.Hour)
	}
	for i := range commits {
		add(b, s, source(b, fmt.Sprint(i), benchFile(i, runs)), history.AddOptions{Commits: times})
	}
	return s, times
}

// BenchmarkAdd reads a results file from disk and adds it to a store that
// holds 10,500 runs already (50 commits of 7 cells x 30 runs): a results
// file of a default run (7 cells x 30 runs), and an A/B session of 4
// cells x 120 pairs.
func BenchmarkAdd(b *testing.B) {
	for _, tc := range []struct {
		name string
		file func(n int) any
	}{
		{"run-7x30", func(n int) any { return benchFile(n, 30) }},
		{"ab-4x120x2", func(n int) any {
			base, head := benchFile(n, 120), benchFile(n+1, 120)
			base.Results, head.Results = base.Results[:4], head.Results[:4]
			return abFile(base, head)
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s, times := benchStore(b, 50, 30)
			dir := b.TempDir()
			paths := make([]string, b.N)
			for i := range paths {
				paths[i] = writeJSON(b, dir, fmt.Sprint(i, ".json"), tc.file(100+2*i))
			}
			b.ResetTimer()
			for i := range b.N {
				src, err := history.ReadFile(paths[i])
				if err != nil {
					b.Fatal(err)
				}
				if a := add(b, s, src, history.AddOptions{Commits: times}); a.AlreadyStored {
					b.Fatal("a new file was already stored")
				}
			}
		})
	}
}

// BenchmarkSeries reads every series of a store of 10,500 runs (50
// commits of 7 cells x 30 runs), each with its points, as `history show`
// does.
func BenchmarkSeries(b *testing.B) {
	s, _ := benchStore(b, 50, 30)
	ctx := context.Background()
	for b.Loop() {
		all, err := s.Series(ctx, history.Filter{})
		if err != nil {
			b.Fatal(err)
		}
		values := 0
		for _, x := range all {
			ps, err := s.Points(ctx, x)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range ps {
				values += len(p.Values)
			}
		}
		if want := 10_500 * len(history.Metrics); values != want {
			b.Fatalf("%d values read; want %d", values, want)
		}
	}
}
