package analysis

// This file estimates the autocorrelation of series of log ratios (a
// benchmark's pairs, in their order within one session), pooled over
// several series: how much each pair's log ratio follows the one lag
// places before it. The signed-rank test takes the pairs as independent;
// this measures how far they are not.
//
// What it assumes: each series is stationary about its own mean (centring
// each series on its mean removes a shift it has of its own), and every
// series has one common autocorrelation, which pooling the lagged
// products of all of them estimates. The estimator is the usual one of
// time series (the lagged sum of products over the sum of squares, both
// unnormalised), which is biased towards 0 in short series.

import "gonum.org/v1/gonum/stat"

// PooledAutocorrelation accumulates series and gives their pooled
// autocorrelation at lags 1 to the maxLag it was made with. The zero
// value has no lag; use NewPooledAutocorrelation.
type PooledAutocorrelation struct {
	// c[k] is the sum over the series, and over i ≥ k within each, of
	// (d_i − mean)(d_{i−k} − mean), mean the series' own.
	c []float64
	n int
}

// NewPooledAutocorrelation accumulates lags 1 to maxLag.
func NewPooledAutocorrelation(maxLag int) *PooledAutocorrelation {
	return &PooledAutocorrelation{c: make([]float64, maxLag+1)}
}

// Add adds one series, centred on its own mean.
func (a *PooledAutocorrelation) Add(d []float64) {
	mean := stat.Mean(d, nil)
	for i := range d {
		x := d[i] - mean
		a.c[0] += x * x
		for k := 1; k < len(a.c) && k <= i; k++ {
			a.c[k] += x * (d[i-k] - mean)
		}
	}
	a.n += len(d)
}

// Values is the number of values added, over every series.
func (a *PooledAutocorrelation) Values() int { return a.n }

// At is the pooled autocorrelation at lag (1 ≤ lag ≤ maxLag): the lagged
// sum of products over the sum of squares; 0 when the series added have
// no spread.
func (a *PooledAutocorrelation) At(lag int) float64 {
	if !(a.c[0] > 0) {
		return 0
	}
	return a.c[lag] / a.c[0]
}
