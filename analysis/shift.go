package analysis

// This file is the rank machinery of MethodHL for two samples: the null
// distribution of the Mann-Whitney count (exact up to exactLimit runs per
// side, then normal with the tie correction), the critical count, and
// Moses' interval for the Hodges-Lehmann shift with the p-value that
// agrees with it. It assumes that the two samples are independent, each
// of independent runs, and that under no change they come from one
// continuous distribution (ties are handled conservatively).

import (
	"math"
	"slices"
)

// exactLimit is the largest sample size per side for which the null
// distribution of the Mann-Whitney statistic is computed exactly; beyond it
// the normal approximation (with the tie correction) is used. The exact
// table costs about m·n·(m·n)/2 additions: 3 million at 50 + 50.
const exactLimit = 50

// nullCDF is the null distribution function of the Mann-Whitney count
// U = #{(i, j): y_j − x_i < 0} for samples of sizes m and n: cdf(c) =
// P(U ≤ c) when the two samples come from one continuous distribution.
// It is non-decreasing in c, 0 below 0 and 1 from m·n up.
type nullCDF func(c int) float64

// newNullCDF returns the exact distribution for small samples and the
// normal approximation otherwise. pooled holds both samples (for the tie
// correction of the normal approximation's variance).
func newNullCDF(m, n int, pooled []float64) nullCDF {
	if m <= exactLimit && n <= exactLimit {
		return exactCDF(m, n)
	}
	return normalCDF(m, n, pooled)
}

// exactCDF tabulates P(U ≤ c) from the counts of arrangements, by the
// recurrence N(u; i, j) = N(u − j; i − 1, j) + N(u; i, j − 1) (the largest
// of the i + j values comes from the second sample, or not), which uses
// additions only, so float64 keeps the counts accurate.
func exactCDF(m, n int) nullCDF {
	width := m*n + 1
	// prev and cur hold N(u; i−1, j) and N(u; i, j) at [j*width+u].
	prev := make([]float64, (n+1)*width)
	cur := make([]float64, (n+1)*width)
	for j := 0; j <= n; j++ {
		prev[j*width] = 1 // i = 0: one arrangement, U = 0
	}
	for i := 1; i <= m; i++ {
		clear(cur)
		cur[0] = 1 // j = 0: one arrangement, U = 0
		for j := 1; j <= n; j++ {
			row, left, up := cur[j*width:], cur[(j-1)*width:], prev[j*width:]
			for u := 0; u <= i*j; u++ {
				v := left[u]
				if u >= j {
					v += up[u-j]
				}
				row[u] = v
			}
		}
		prev, cur = cur, prev
	}
	return tableCDF(prev[n*width : (n+1)*width])
}

// tableCDF is the distribution function of the counts 0..len(weights)−1
// with the given (unnormalised) weights.
func tableCDF(weights []float64) nullCDF {
	cum := make([]float64, len(weights))
	total := 0.0
	for u, v := range weights {
		total += v
		cum[u] = total
	}
	for u := range cum {
		cum[u] /= total
	}
	return func(c int) float64 {
		switch {
		case c < 0:
			return 0
		case c >= len(cum)-1:
			return 1
		}
		return cum[c]
	}
}

// normalCDF approximates P(U ≤ c) by the normal distribution with the
// continuity correction and the variance corrected for ties in pooled.
func normalCDF(m, n int, pooled []float64) nullCDF {
	mf, nf := float64(m), float64(n)
	total := mf + nf
	variance := mf * nf / 12 * ((total + 1) - tieSum(pooled)/(total*(total-1)))
	return normalCountCDF(mf*nf/2, variance, m*n)
}

// tieSum is Σ(t³ − t) over the groups of t equal values of xs, the tie
// correction of rank statistics' variances.
func tieSum(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	ties := 0.0
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	return ties
}

// normalCountCDF approximates the distribution of a count ranging over
// 0..top by the normal distribution of that mean and variance, with the
// continuity correction.
func normalCountCDF(mean, variance float64, top int) nullCDF {
	sd := math.Sqrt(math.Max(variance, 0))
	return func(c int) float64 {
		switch {
		case c < 0:
			return 0
		case c >= top:
			return 1
		case sd == 0:
			if float64(c)+0.5 >= mean {
				return 1
			}
			return 0
		}
		return 0.5 * math.Erfc(-(float64(c)+0.5-mean)/(sd*math.Sqrt2))
	}
}

// critical returns the largest count c (−1 when there is none) whose
// two-sided tail, multiplied by mult, is at most alpha:
// mult·(2·cdf(c)) ≤ alpha. The expression is the one pValue's callers
// compare with alpha, so that a row is significant exactly when its
// interval excludes zero.
func critical(cdf nullCDF, mn int, mult, alpha float64) int {
	if !(mult*(2*cdf(0)) <= alpha) {
		return -1
	}
	lo, hi := 0, mn // invariant: ok(lo), and hi is past the last ok
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if mult*(2*cdf(mid)) <= alpha {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// rankShifts is what both rank methods share: the sorted candidate shifts
// (shift's pairwise differences, pairedShift's Walsh averages), whose
// median is the Hodges-Lehmann estimate; the null distribution of the
// count of them below zero; and u, the smaller tail count observed,
// min(#{v ≤ 0}, #{v ≥ 0}), with values of exactly zero counted on both
// sides (conservative).
type rankShifts struct {
	sorted []float64
	cdf    nullCDF
	u      int
}

// newRankShifts sorts vals (in place) and counts its tails.
func newRankShifts(vals []float64, cdf nullCDF) rankShifts {
	slices.Sort(vals)
	le, ge := 0, 0
	for _, v := range vals {
		if v <= 0 {
			le++
		}
		if v >= 0 {
			ge++
		}
	}
	return rankShifts{sorted: vals, cdf: cdf, u: min(le, ge)}
}

// estimate is the Hodges-Lehmann estimate: the median of the candidates.
func (s *rankShifts) estimate() float64 { return medianSorted(s.sorted) }

// pValue is the two-sided p-value of the test of no shift: 2·P(count ≤ u),
// capped at 1.
func (s *rankShifts) pValue() float64 { return min(1, 2*s.cdf(s.u)) }

// interval is the distribution-free interval for the shift, the set of
// shifts the test at level alpha/mult does not reject: [v_(k), v_(N+1−k)]
// over the N sorted candidates, with k − 1 the critical count (Moses' for
// two samples, Tukey's for pairs). It is (−Inf, +Inf) when no count is
// critical (too few runs). Since the test rejects exactly when u is at most
// the critical count, exactly when this interval excludes zero, the two
// agree by construction.
func (s *rankShifts) interval(mult, alpha float64) (lo, hi float64) {
	c := critical(s.cdf, len(s.sorted), mult, alpha)
	if c < 0 {
		return math.Inf(-1), math.Inf(1)
	}
	k := c + 1 // 1-based rank
	return s.sorted[k-1], s.sorted[len(s.sorted)-k]
}

// medianSorted is the median of sorted xs (NaN when empty): stats.Median
// without its copy and sort, for candidates already sorted.
func medianSorted(xs []float64) float64 {
	k := len(xs)
	if k == 0 {
		return math.NaN()
	}
	if k%2 == 1 {
		return xs[k/2]
	}
	return (xs[k/2-1] + xs[k/2]) / 2
}

// shift is the Hodges-Lehmann comparison of two samples of log times: the
// candidates are the m·n differences y_j − x_i, and the count is
// Mann-Whitney's.
type shift struct{ rankShifts }

// newShift prepares the comparison of base xs and head ys (log times).
func newShift(xs, ys []float64) *shift {
	d := make([]float64, 0, len(xs)*len(ys))
	for _, y := range ys {
		for _, x := range xs {
			d = append(d, y-x)
		}
	}
	pooled := append(slices.Clone(xs), ys...)
	return &shift{newRankShifts(d, newNullCDF(len(xs), len(ys), pooled))}
}

// minRuns is the fewest runs per side that give a finite interval at
// alpha/mult.
func (s *shift) minRuns(mult, alpha float64) int { return minRunsFor(mult, alpha, 200) }

// minRunsFor returns the smallest n such that two samples of n runs each
// give a finite interval at alpha/mult (at most limit; limit+1 when even
// that is not enough).
func minRunsFor(mult, alpha float64, limit int) int {
	for n := 2; n <= limit; n++ {
		var cdf nullCDF
		if n <= exactLimit {
			cdf = exactCDF(n, n)
		} else {
			cdf = normalCDF(n, n, nil)
		}
		if critical(cdf, n*n, mult, alpha) >= 0 {
			return n
		}
	}
	return limit + 1
}
