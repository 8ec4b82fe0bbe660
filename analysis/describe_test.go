package analysis

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// TestDescribeRunsLeavesOutFailedRuns: the summary covers the successful
// runs only, in the definitions of harness/stats.
func TestDescribeRunsLeavesOutFailedRuns(t *testing.T) {
	t.Parallel()
	walls := []int64{30, 10, 20, 50}
	r := &harness.Result{}
	for _, w := range walls {
		r.Runs = append(r.Runs, harness.Run{WallNs: w, Cells: 10})
	}
	r.Runs = append(r.Runs, harness.Run{Failed: true, WallNs: 1_000_000})
	wall := func(run *harness.Run) float64 { return float64(run.WallNs) }
	got := DescribeRuns(r, wall)
	xs := []float64{30, 10, 20, 50}
	if got.N != len(xs) || got.Min != 10 || got.Max != 50 || got.Median != stats.Median(xs) || got.Mean != stat.Mean(xs, nil) ||
		math.Abs(got.Stddev-stat.StdDev(xs, nil)) > 1e-12 {
		t.Errorf("DescribeRuns = %+v, want the summary of %v", got, xs)
	}
	if u := DescribeUnitTimes(r); u.N != len(xs) || u.Median != stats.Median(xs)/10 {
		t.Errorf("DescribeUnitTimes = %+v, want the summary of %v / 10", u, xs)
	}
	none := &harness.Result{Runs: []harness.Run{{Failed: true, WallNs: 5}}}
	if got := DescribeRuns(none, wall); got.N != 0 {
		t.Errorf("DescribeRuns with no successful run = %+v, want N 0", got)
	}
}

// TestMedianChange: head/base − 1 of the medians, and no change without
// runs on both sides or with a zero base.
func TestMedianChange(t *testing.T) {
	t.Parallel()
	base := stats.Describe([]float64{4, 5, 6})
	head := stats.Describe([]float64{5, 6, 7})
	if d, ok := MedianChange(base, head); !ok || !near(d, 6.0/5-1) {
		t.Errorf("MedianChange = %v, %v; want %v, true", d, ok, 6.0/5-1)
	}
	for name, c := range map[string][2]stats.Summary{
		"no base run":      {{}, head},
		"no head run":      {base, {}},
		"zero base median": {stats.Describe([]float64{0, 0, 1}), head},
	} {
		if d, ok := MedianChange(c[0], c[1]); ok {
			t.Errorf("%s: MedianChange = %v, true; want no change", name, d)
		}
	}
}

// TestCounterMedians: each counter's median over the successful runs that
// report it, and the counters that are non-zero somewhere.
func TestCounterMedians(t *testing.T) {
	t.Parallel()
	r := &harness.Result{Runs: []harness.Run{
		{Stats: map[string]int64{"pools": 3, "orphans": 0, "slow": 0}},
		{Stats: map[string]int64{"pools": 5, "orphans": 0}},
		{Stats: map[string]int64{"pools": 4, "orphans": 0, "slow": 2}},
		{Failed: true, Stats: map[string]int64{"pools": 100, "orphans": 9}},
	}}
	med, nonzero := CounterMedians(r)
	want := map[string]float64{"pools": 4, "orphans": 0, "slow": 1}
	if len(med) != len(want) {
		t.Errorf("medians = %v, want %v", med, want)
	}
	for k, v := range want {
		if med[k] != v {
			t.Errorf("median of %s = %v, want %v", k, med[k], v)
		}
	}
	if len(nonzero) != 2 || !nonzero["pools"] || !nonzero["slow"] {
		t.Errorf("nonzero = %v, want pools and slow", nonzero)
	}
	if med, _ := CounterMedians(&harness.Result{Runs: []harness.Run{{WallNs: 1}}}); len(med) != 0 {
		t.Errorf("medians without counters = %v, want none", med)
	}
}

// TestRatioInverse: inverting a/b gives b/a with the σ stats.Relative
// gives b/a, and the inverse of the inverse is the ratio.
func TestRatioInverse(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.Float64Range(1e-3, 1e3).Draw(t, "a")
		b := rapid.Float64Range(1e-3, 1e3).Draw(t, "b")
		sa := rapid.Float64Range(0, a).Draw(t, "sa")
		sb := rapid.Float64Range(0, b).Draw(t, "sb")
		r, s, _ := stats.Relative(a, sa, b, sb)
		wantR, wantS, _ := stats.Relative(b, sb, a, sa)
		inv := Ratio{Ratio: r, Stddev: s, OK: true}.Inverse()
		if !inv.OK || !near(inv.Ratio, wantR) || !near(inv.Stddev, wantS) {
			t.Fatalf("(%v ± %v).Inverse() = %+v, want %v ± %v", r, s, inv, wantR, wantS)
		}
		if back := inv.Inverse(); !near(back.Ratio, r) || !near(back.Stddev, s) {
			t.Fatalf("inverse of the inverse = %+v, want %v ± %v", back, r, s)
		}
	})
	for _, r := range []Ratio{{}, {Ratio: 0, OK: true}, {Ratio: -1, OK: true}} {
		if inv := r.Inverse(); inv.OK {
			t.Errorf("%+v.Inverse() = %+v, want not OK", r, inv)
		}
	}
}
