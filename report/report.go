// Package report prints what people read in the terminal, in hyperfine's
// shape: one block per benchmark as its runs finish (Benchmark), a summary
// table with hyperfine's "ran N times faster than" sentences (Summary), the
// GC table (GCTable) and machine warnings (Warnings).
//
// Every function takes a *harness.File whose statistics the harness has
// already computed; report only formats them. The helpers shared with the
// exporters (Relative, TableUnit, Order, Successful) live here, and the
// reference is harness.File.ReferenceResult, so the terminal, Markdown and
// CSV outputs agree on every figure.
package report

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// Options controls the terminal output.
type Options struct {
	// Style decides colour (Style.Color); resolve AutoStyle with ResolveStyle
	// first, an unresolved AutoStyle prints without colour.
	Style Style
	// Unit is the time unit; Auto picks one per figure (Benchmark) or once
	// per table from the slowest mean (Summary, see TableUnit).
	Unit TimeUnit
	// Sort orders the summary: SortAuto (""), SortCell or SortMean; see
	// ParseSort.
	Sort string
}

// The --sort values.
const (
	// SortAuto orders by mean (fastest first) when every result has the
	// same parameters (a comparison of cells), and keeps the input order
	// when parameters vary (a parameter scan, which reads best as a series).
	SortAuto = "auto"
	// SortCell keeps the input order (the order cells were given in).
	SortCell = "cell"
	// SortMean orders by mean time, fastest first; results without a
	// successful run go last.
	SortMean = "mean"
)

// ParseSort parses a --sort value: auto (or empty), cell or mean,
// case-insensitively; hyperfine's names "command" and "mean-time" are
// accepted for cell and mean. It returns the canonical name.
func ParseSort(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return SortAuto, nil
	case "cell", "command", "input":
		return SortCell, nil
	case "mean", "mean-time", "time":
		return SortMean, nil
	}
	return "", fmt.Errorf("unknown sort order %q: accepted values are auto, cell (input order) and mean (fastest first)", s)
}

// Successful returns how many of r's runs succeeded: the runs the
// statistics are computed over.
func Successful(r *harness.Result) int {
	n := 0
	for i := range r.Runs {
		if !r.Runs[i].Failed {
			n++
		}
	}
	return n
}

// measured reports whether r has statistics to show.
func measured(r *harness.Result) bool { return Successful(r) > 0 }

// Relative returns r's mean divided by ref's, and the standard deviation of
// that ratio by first-order error propagation, as hyperfine computes it:
// ratio × sqrt((σr/r)² + (σref/ref)²). The reference against itself is
// exactly 1 ± 0. ok is false when either result has no successful run or a
// non-positive mean.
func Relative(r, ref *harness.Result) (ratio, stddev float64, ok bool) {
	if r == nil || ref == nil || !measured(r) || !measured(ref) || !(r.Mean > 0) || !(ref.Mean > 0) {
		return 0, 0, false
	}
	if r == ref || r.Label == ref.Label {
		return 1, 0, true
	}
	return stats.Relative(r.Mean, r.Stddev, ref.Mean, ref.Stddev)
}

// TableUnit returns the unit for a table of f's results: u itself, or when
// u is Auto the unit that suits the slowest mean, so that no mean in the
// table needs more than three digits before the point (the seed's table
// reads 0.776 … 10.731 s).
func TableUnit(f *harness.File, u TimeUnit) TimeUnit {
	if u != Auto {
		return u
	}
	slowest := 0.0
	for i := range f.Results {
		if r := &f.Results[i]; measured(r) && r.Mean > slowest {
			slowest = r.Mean
		}
	}
	return UnitFor(slowest)
}

// Order returns the indices of f.Results in the order by (SortAuto, SortCell
// or SortMean; anything else is taken as SortAuto).
func Order(f *harness.File, by string) []int {
	idx := make([]int, len(f.Results))
	for i := range idx {
		idx[i] = i
	}
	if by == SortCell || (by != SortMean && paramsVary(f)) {
		return idx
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ra, rb := &f.Results[idx[a]], &f.Results[idx[b]]
		ma, mb := measured(ra), measured(rb)
		if ma != mb {
			return ma
		}
		return ma && ra.Mean < rb.Mean
	})
	return idx
}

// paramsVary reports whether f's results differ in their parameters.
func paramsVary(f *harness.File) bool {
	for i := 1; i < len(f.Results); i++ {
		if !sameParams(f.Results[0].Params, f.Results[i].Params) {
			return true
		}
	}
	return false
}

func sameParams(a, b map[string]string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// workUnit is what Run.Cells counts in f: "cell" (the default) or "call".
func workUnit(f *harness.File) string {
	if f == nil || f.Unit == "" {
		return "cell"
	}
	return f.Unit
}
