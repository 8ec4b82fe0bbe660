package analysis

// This file computes MethodBenchstat rows exactly as benchstat does
// (golang.org/x/perf/benchmath): medians with their distribution-free
// intervals and the Mann-Whitney U test, at Alpha per row (AssumeNothing);
// for a unit declared assume=exact, the value itself, a change whenever
// the sides' values differ (AssumeExact). It assumes that each side's runs
// are independent and identically distributed, nothing about their shape
// (or, declared exact, no error at all). Its delta interval combines the
// two medians' intervals at their extremes: conservative, and it can
// disagree with the test.

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// medianSummaries summarises both sides as benchstat does: benchmath's
// median with its interval at DefaultConfidence under the metric's
// assumption (AssumeNothing, or AssumeExact for a unit declared exact).
func medianSummaries(base, head []float64, th *benchmath.Thresholds, m Metric) (bs, hs *benchmath.Sample, bsum, hsum benchmath.Summary) {
	bs = benchmath.NewSample(slices.Clone(base), th)
	hs = benchmath.NewSample(slices.Clone(head), th)
	a := m.assumption()
	return bs, hs, a.Summary(bs, DefaultConfidence), a.Summary(hs, DefaultConfidence)
}

// benchstatRow computes a row from two samples exactly as benchstat
// summarises and compares them, plus the conservative delta interval of the
// benchstat method (see the package documentation). It does not modify its
// arguments.
func benchstatRow(base, head []float64, m Metric, o Options) Row {
	th := &benchmath.Thresholds{CompareAlpha: o.Alpha}
	bs, hs, bsum, hsum := medianSummaries(base, head, th, m)
	a := m.assumption()
	cmp := a.Compare(bs, hs)

	row := Row{
		Base:      Summary{Median: bsum.Center, Lo: bsum.Lo, Hi: bsum.Hi, Confidence: bsum.Confidence, N: len(base)},
		Head:      Summary{Median: hsum.Center, Lo: hsum.Lo, Hi: hsum.Hi, Confidence: hsum.Confidence, N: len(head)},
		P:         cmp.P,
		PAdjusted: cmp.P,
		Alpha:     o.Alpha,
		mult:      1,
	}
	row.Delta = ratio(hsum.Center, bsum.Center) - 1

	// The delta interval: each median's CI at √Confidence, combined at
	// their extremes.
	dc := math.Sqrt(DefaultConfidence)
	bd, hd := a.Summary(bs, dc), a.Summary(hs, dc)
	row.Level = DefaultConfidence
	row.DeltaLo = ratio(hd.Lo, bd.Hi) - 1
	row.DeltaHi = ratio(hd.Hi, bd.Lo) - 1
	if math.IsNaN(row.DeltaLo) || math.IsInf(bd.Hi, 0) || math.IsInf(hd.Lo, 0) {
		row.DeltaLo = math.Inf(-1)
	}
	if math.IsNaN(row.DeltaHi) || math.IsInf(bd.Lo, 0) || math.IsInf(hd.Hi, 0) {
		row.DeltaHi = math.Inf(1)
	}

	// The verdict follows benchmath's Comparison.FormatDelta, which is what
	// benchstat prints: "~" when p > alpha, and no direction when the
	// medians are equal (AssumeExact's comparison has no alpha: it is a
	// change whenever the values differ).
	up, down := directions(m)
	switch {
	case cmp.P > cmp.Alpha || hsum.Center == bsum.Center:
		row.Verdict = Same
	case hsum.Center > bsum.Center:
		row.Verdict = up
	default:
		row.Verdict = down
	}

	// benchmath's own warnings (too few samples for an interval or for the
	// test to ever reject), then ours about the delta interval.
	for _, w := range bsum.Warnings {
		row.Warnings = append(row.Warnings, fmt.Sprintf("base: %v (have %d)", w, len(base)))
	}
	for _, w := range hsum.Warnings {
		row.Warnings = append(row.Warnings, fmt.Sprintf("head: %v (have %d)", w, len(head)))
	}
	for _, w := range cmp.Warnings {
		row.Warnings = append(row.Warnings, fmt.Sprint(w))
	}
	if len(bsum.Warnings) == 0 && len(hsum.Warnings) == 0 && (math.IsInf(row.DeltaLo, 0) || math.IsInf(row.DeltaHi, 0)) {
		row.Warnings = append(row.Warnings, fmt.Sprintf("too few runs for a finite delta interval at %v (have %d+%d, need >= %d per side)",
			DefaultConfidence, len(base), len(head), minRuns(dc)))
	}
	return row
}

// minRuns is the smallest sample size whose widest median interval (its
// minimum to its maximum, of confidence 1 − 2·0.5ⁿ) reaches confidence.
func minRuns(confidence float64) int {
	n := 2
	for 1-2*math.Pow(0.5, float64(n)) < confidence && n < 1000 {
		n++
	}
	return n
}

// ratio is a/b, with 0/0 = 1 as benchstat treats it.
func ratio(a, b float64) float64 {
	if a == b {
		return 1
	}
	return a / b
}
