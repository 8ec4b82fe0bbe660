package analysis

// This file computes MethodHL rows: the Hodges-Lehmann estimate of the
// change in log time, with the rank test whose interval it inverts
// (shift.go: two samples, Mann-Whitney with Moses' interval; paired.go:
// pairs, Wilcoxon signed-rank with Tukey's interval). It assumes that the
// runs (or the pairs) are independent, and that the two sides' log times
// differ by a shift (two samples) or that the pairs' log ratios are
// symmetric about it (pairs); nothing about the distributions' shape.

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// shiftTest is a rank comparison of log times whose interval and test
// agree by construction: shift (two samples) or pairedShift (pairs).
type shiftTest interface {
	estimate() float64
	pValue() float64
	interval(mult, alpha float64) (lo, hi float64)
	// minRuns is the fewest runs (per side, or pairs) giving a finite
	// interval at alpha/mult.
	minRuns(mult, alpha float64) int
}

// hlRow prepares a MethodHL row: the medians (for display), and sh's
// Hodges-Lehmann estimate and raw p-value. The interval and verdict wait
// for the correction (finish).
func hlRow(base, head []float64, sh shiftTest, m Metric, o Options) Row {
	_, _, bsum, hsum := medianSummaries(base, head, &benchmath.DefaultThresholds, m)
	p := sh.pValue()
	row := Row{
		Base:      Summary{Median: bsum.Center, Lo: bsum.Lo, Hi: bsum.Hi, Confidence: bsum.Confidence, N: len(base)},
		Head:      Summary{Median: hsum.Center, Lo: hsum.Lo, Hi: hsum.Hi, Confidence: hsum.Confidence, N: len(head)},
		Delta:     math.Expm1(sh.estimate()),
		P:         p,
		PAdjusted: p,
		Alpha:     o.Alpha,
		mult:      1,
		sh:        sh,
	}
	if m.Exact { // benchmath's warning when a side's values vary
		for _, w := range bsum.Warnings {
			row.Warnings = append(row.Warnings, fmt.Sprintf("base: %v", w))
		}
		for _, w := range hsum.Warnings {
			row.Warnings = append(row.Warnings, fmt.Sprintf("head: %v", w))
		}
	}
	return row
}

// logs returns the natural logarithms of xs (every x is positive: files
// are validated on load).
func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}
