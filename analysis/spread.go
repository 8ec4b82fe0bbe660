package analysis

// This file measures how far estimates of one quantity spread beyond
// their own standard errors: the root mean square over the estimates of
// (x_i − mean x) / se_i, with n − 1 in the denominator. gatecheck applies
// it to the shifts recorded A/A sessions measured, each with its
// bootstrap standard error (MedianBootstrapError).
//
// What it assumes: the estimates are independent and close to normal,
// each about its standard error from one common value. Then the figure is
// about 1; above 1, each estimate has a shift of its own beyond its
// noise; below 1, the standard errors overstate the noise.

import "math"

// SpreadInStandardErrors is the spread of xs in units of their standard
// errors ses (one per x, each positive): sqrt(Σ((x_i − m)/se_i)² / (n − 1)),
// m the plain mean of xs (accumulated as Σ x_i/n). It is 0 with fewer than
// two estimates.
func SpreadInStandardErrors(xs, ses []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	mean, ss := 0.0, 0.0
	for _, x := range xs {
		mean += x / float64(n)
	}
	for i, x := range xs {
		z := (x - mean) / ses[i]
		ss += z * z
	}
	return math.Sqrt(ss / float64(n-1))
}
