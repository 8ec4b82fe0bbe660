package analysis

// This file gives the median of one sample with its confidence interval:
// benchmath's (golang.org/x/perf/benchmath), the one benchstat and every
// comparison row of this package show for each side. It assumes that the
// values are independent and identically distributed, nothing about their
// shape (AssumeNothing: the interval is read off the order statistics, so
// it exists from six values at 95%).

import (
	"slices"

	"golang.org/x/perf/benchmath"
)

// MedianSummary is the median of values with benchmath's distribution-free
// interval at DefaultConfidence, as a comparison row summarises each side:
// Lo and Hi are ±Inf when there are too few values for an interval (fewer
// than six at 95%). values is not modified; an empty slice gives the zero
// Summary.
func MedianSummary(values []float64) Summary {
	if len(values) == 0 {
		return Summary{}
	}
	s := benchmath.NewSample(slices.Clone(values), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, DefaultConfidence)
	return Summary{Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Confidence: sum.Confidence, N: len(values)}
}
