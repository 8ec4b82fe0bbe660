package main

// Running analysis.ChangePoints on many series and counting what it
// reports against the true steps. Series run in parallel; each has its own
// random source, so the counts do not depend on the schedule.

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rootbench/rootbench/analysis"
)

// experiment is one row of the report: series of one shape under one noise
// model, judged with one setting of the method.
type experiment struct {
	shape  shape
	noise  noise
	opts   analysis.ChangePointOptions
	series int
}

// outcome is what the method reported on one series, against its truth.
type outcome struct {
	changePoints int  // reported
	found        bool // at least one reported
	located      bool // one's range LastGood..FirstBad holds a true step
	exact        bool // one's Index is a true step
	width        int  // FirstBad − LastGood of the first that located a step
}

// tally sums the outcomes of an experiment's series.
type tally struct {
	series, points int
	changePoints   int // reported in all
	found          int // series with at least one
	located        int // series where one's range holds a true step
	exact          int // series where one's Index is a true step
	width          int // sum of the located ranges' widths
}

// judge compares the change points of a series with its true steps.
func judge(cps []analysis.ChangePoint, steps []int) outcome {
	o := outcome{changePoints: len(cps), found: len(cps) > 0}
	for _, c := range cps {
		for _, s := range steps {
			if c.LastGood < s && s <= c.FirstBad && !o.located {
				o.located, o.width = true, c.FirstBad-c.LastGood
			}
			o.exact = o.exact || c.Index == s
		}
	}
	return o
}

// runExperiments evaluates every experiment, calling done after each
// series (from any goroutine), and returns their tallies in order.
//
// Concurrency: GOMAXPROCS workers take (experiment, series) jobs from one
// channel. A series' outcome depends only on its job (its own random
// source, from the seed, the shape, the noise and its index), each worker
// writes only the outcome slot of its job, and the slots are read only
// after every worker has ended (wg.Wait); so the tallies, summed in order
// afterwards, are those of a sequential run whatever the schedule.
func runExperiments(seed uint64, exps []experiment, done func()) ([]tally, error) {
	type job struct{ exp, series int }
	jobs := make(chan job)
	results := make([][]outcome, len(exps))
	for e, x := range exps {
		results[e] = make([]outcome, x.series)
	}
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				x := exps[j.exp]
				src := source(seed, x.shape, x.noise, j.series)
				t := x.shape.make(rand.New(src))
				cps, err := analysis.ChangePoints(x.noise.draw(src, t.levels), x.opts)
				if err != nil {
					err = fmt.Errorf("%s, %v, series %d: %w", x.shape.name, x.noise, j.series, err)
					failed.CompareAndSwap(nil, &err)
				}
				results[j.exp][j.series] = judge(cps, t.steps)
				done()
			}
		}()
	}
	for e, x := range exps {
		for i := range x.series {
			jobs <- job{e, i}
		}
	}
	close(jobs)
	wg.Wait()
	if err := failed.Load(); err != nil {
		return nil, *err
	}
	out := make([]tally, len(exps))
	for e, rs := range results {
		t := &out[e]
		t.series, t.points = len(rs), len(rs)*exps[e].shape.points
		for _, o := range rs {
			t.changePoints += o.changePoints
			t.width += o.width
			t.found += b2i(o.found)
			t.located += b2i(o.located)
			t.exact += b2i(o.exact)
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
