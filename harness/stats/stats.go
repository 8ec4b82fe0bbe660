// Package stats holds the statistics rootbench computes over the samples of a
// benchmark: the summary (mean, sample standard deviation, median, min, max,
// coefficient of variation), the relative speed of two benchmarks with its
// propagated uncertainty, outlier detection by modified z-score, and the
// sample-size rule for a confidence interval on the median.
//
// The formulas follow hyperfine (sharkdp/hyperfine) so that rootbench's figures
// read the same way, and golang.org/x/perf/benchmath for the median's
// confidence interval.
package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
	"gonum.org/v1/gonum/stat"
)

// OutlierThreshold is the modified z-score above which a sample is an outlier:
// 1.4826 converts the median absolute deviation into an estimate of the
// standard deviation of normally distributed data, and 10 is the number of
// standard deviations. It is hyperfine's OUTLIER_THRESHOLD.
const OutlierThreshold = 1.4826 * 10.0

// CVWarnThreshold is the coefficient of variation above which a benchmark is
// reported as noisy.
const CVWarnThreshold = 0.05

// MedianConfidence is the confidence level of the median's interval whose
// sample-size rule is checked.
const MedianConfidence = 0.95

// Summary describes one sample.
type Summary struct {
	N      int     // number of values
	Mean   float64 // arithmetic mean
	Stddev float64 // sample standard deviation (n-1 denominator); 0 when N < 2
	Median float64 // middle value; the mean of the two middle values when N is even
	Min    float64
	Max    float64
	CV     float64 // coefficient of variation Stddev/Mean; 0 when Mean is 0
}

// Describe summarizes xs. An empty xs gives the zero Summary. xs is not
// modified.
func Describe(xs []float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{}
	}
	s := Summary{N: n, Mean: stat.Mean(xs, nil), Median: Median(xs)}
	if n > 1 {
		s.Stddev = stat.StdDev(xs, nil)
	}
	s.Min, s.Max = slices.Min(xs), slices.Max(xs)
	if s.Mean != 0 {
		s.CV = s.Stddev / math.Abs(s.Mean)
	}
	return s
}

// Median returns the median of xs: the middle value, or the mean of the two
// middle values when len(xs) is even (as hyperfine's statistical crate
// computes it; gonum's empirical quantile would return the lower one). It
// returns 0 for an empty xs and does not modify xs.
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// epsilon is the MAD used when the median absolute deviation is zero (more
// than half the values are equal), as hyperfine does with f64::EPSILON: every
// value different from the median then scores as an outlier.
var epsilon = math.Nextafter(1, 2) - 1

// ModifiedZScores returns (x - median) / MAD for every x in xs, where MAD is
// the median absolute deviation from the median (not scaled: the 1.4826
// factor lives in OutlierThreshold). It returns nil for an empty xs.
func ModifiedZScores(xs []float64) []float64 {
	if len(xs) == 0 {
		return nil
	}
	med := Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	mad := Median(dev)
	if !(mad > 0) {
		mad = epsilon
	}
	z := make([]float64, len(xs))
	for i, x := range xs {
		z[i] = (x - med) / mad
	}
	return z
}

// Outliers flags every value whose modified z-score exceeds OutlierThreshold
// in absolute value, and returns the flags (one per value, in order) and
// their count.
func Outliers(xs []float64) ([]bool, int) {
	z := ModifiedZScores(xs)
	flags := make([]bool, len(xs))
	n := 0
	for i, s := range z {
		if math.Abs(s) > OutlierThreshold {
			flags[i] = true
			n++
		}
	}
	return flags, n
}

// SlowFirstRun reports whether the first value (in run order) is an outlier
// on the slow side: hyperfine's "first benchmarking run was significantly
// slower than the rest" condition.
func SlowFirstRun(xs []float64) bool {
	z := ModifiedZScores(xs)
	return len(z) > 0 && z[0] > OutlierThreshold
}

// Relative returns mean/refMean and its standard deviation by first-order
// error propagation, assuming independent samples (hyperfine's formula):
//
//	r = a/b,  σr = r·sqrt((σa/a)² + (σb/b)²)
//
// ok is false when either mean is not positive (the ratio is undefined).
func Relative(mean, stddev, refMean, refStddev float64) (ratio, ratioStddev float64, ok bool) {
	if !(mean > 0) || !(refMean > 0) {
		return 0, 0, false
	}
	r := mean / refMean
	return r, r * math.Hypot(stddev/mean, refStddev/refMean), true
}

// MedianCIWarnings returns benchmath's warnings about a confidence interval
// on the median of xs at the given confidence (AssumeNothing, the
// non-parametric assumption benchstat uses): with too few values the interval
// is unbounded, and benchmath says how many are needed ("need >= 6 samples for
// confidence interval at level 0.95"). It returns nil when the interval is
// finite or xs is empty.
func MedianCIWarnings(xs []float64, confidence float64) []string {
	if len(xs) == 0 {
		return nil
	}
	s := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, confidence)
	var out []string
	for _, w := range sum.Warnings {
		out = append(out, w.Error())
	}
	return out
}
