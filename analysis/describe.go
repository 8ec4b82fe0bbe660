package analysis

// This file describes a result's runs: the count, minimum, median,
// maximum, mean and standard deviation of any per-run figure over the
// successful runs (harness/stats computes them), the CPU time per unit of
// work, the change of a figure's median between two sides, and the medians
// of an implementation's counters. It is descriptive: it assumes nothing about how the runs are
// distributed and tests nothing.

import (
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// DescribeRuns summarises value over r's successful runs with
// stats.Describe: N is the number of successful runs (0 when none, and
// the rest zero), and Stddev is 0 for a single run.
func DescribeRuns(r *harness.Result, value func(*harness.Run) float64) stats.Summary {
	var xs []float64
	for i := range r.Runs {
		if !r.Runs[i].Failed {
			xs = append(xs, value(&r.Runs[i]))
		}
	}
	return stats.Describe(xs)
}

// DescribeUnitTimes summarises UnitTimes(r), r's times per unit of work in
// nanoseconds over its successful runs that did some work, with
// stats.Describe (N 0 when there is none).
func DescribeUnitTimes(r *harness.Result) stats.Summary {
	return stats.Describe(UnitTimes(r))
}

// CPUPerUnit is r's CPU time per unit of work in nanoseconds: the CPU time
// of the measured passes (harness.Run.CPUNs) summed over the successful
// runs that measured it, over the units of work those runs did, as the
// wall time's NsPerCell is computed (the mean time per unit, each run
// weighted by its work). ok is false when no successful run measured it
// (files of schema rootbench/v1, workers that predate it).
func CPUPerUnit(r *harness.Result) (ns float64, ok bool) {
	var cpu, cells float64
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.Failed || run.CPUNs() <= 0 || run.Cells <= 0 {
			continue
		}
		cpu += float64(run.CPUNs())
		cells += float64(run.Cells)
	}
	if cells == 0 {
		return 0, false
	}
	return cpu / cells, true
}

// HasCPU reports whether some result of f has a CPU time per unit of work
// (CPUPerUnit): whether the reports show that figure.
func HasCPU(f *harness.File) bool {
	if f == nil {
		return false
	}
	for i := range f.Results {
		if _, ok := CPUPerUnit(&f.Results[i]); ok {
			return true
		}
	}
	return false
}

// MedianChange is how a figure's median changed from base to head, as a
// fraction: head/base − 1. ok is false when either side has no run or the
// base's median is 0.
func MedianChange(base, head stats.Summary) (change float64, ok bool) {
	if base.N == 0 || head.N == 0 || base.Median == 0 {
		return 0, false
	}
	return head.Median/base.Median - 1, true
}

// CounterMedians returns the implementation counters (harness.Run.Stats,
// from cell.Stater) of r's successful runs: each counter's median over the
// runs that report it, and nonzero, the counters that are not zero in at
// least one run. Both are empty when no successful run reports a counter.
func CounterMedians(r *harness.Result) (medians map[string]float64, nonzero map[string]bool) {
	per := map[string][]float64{}
	nonzero = map[string]bool{}
	for _, run := range r.Runs {
		if run.Failed {
			continue
		}
		for k, v := range run.Stats {
			per[k] = append(per[k], float64(v))
			if v != 0 {
				nonzero[k] = true
			}
		}
	}
	medians = make(map[string]float64, len(per))
	for k, xs := range per {
		medians[k] = stats.Median(xs)
	}
	return medians, nonzero
}
