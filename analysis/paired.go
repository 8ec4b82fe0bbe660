package analysis

// This file is the rank machinery of MethodHL for pairs: the null
// distribution of the Wilcoxon signed-rank count (exact up to
// signedRankExactLimit pairs, then normal with the tie correction) and
// Tukey's interval over the Walsh averages. It assumes that the pairs are
// independent and that each pair's log ratio is symmetric about the true
// shift; the machine may change between pairs, not within one.

import (
	"math"
)

// signedRankExactLimit is the largest number of pairs for which the null
// distribution of the Wilcoxon signed-rank statistic is computed exactly;
// beyond it the normal approximation (with continuity and tie corrections)
// is used. The exact table costs about n³/6 additions: 1.3 million at 200.
const signedRankExactLimit = 200

// signedRankCDF returns the null distribution function of the count
// T = #{Walsh averages < 0} for n pairs: cdf(c) = P(T ≤ c) when the pair
// differences are independent and symmetric about zero. T ranges over
// 0..n(n+1)/2 and, without ties, equals the sum of the ranks of |d| over
// the negative differences (the signed-rank statistic). abs holds |d| for
// the tie correction of the normal approximation.
func signedRankCDF(n int, abs []float64) nullCDF {
	if n <= signedRankExactLimit {
		return signedRankExact(n)
	}
	return signedRankNormal(n, abs)
}

// signedRankExact tabulates P(T ≤ c): rank k is negative with probability
// 1/2, independently, so p_k(s) = (p_{k−1}(s) + p_{k−1}(s−k))/2.
func signedRankExact(n int) nullCDF {
	total := n * (n + 1) / 2
	p := make([]float64, total+1)
	p[0] = 1
	top := 0
	for k := 1; k <= n; k++ {
		top += k
		for s := top; s >= 0; s-- {
			v := p[s]
			if s >= k {
				v += p[s-k]
			}
			p[s] = v / 2
		}
	}
	return tableCDF(p)
}

// signedRankNormal approximates P(T ≤ c) by the normal distribution with
// mean n(n+1)/4, the variance n(n+1)(2n+1)/24 corrected for ties in abs,
// and the continuity correction.
func signedRankNormal(n int, abs []float64) nullCDF {
	nf := float64(n)
	variance := nf*(nf+1)*(2*nf+1)/24 - tieSum(abs)/48
	return normalCountCDF(nf*(nf+1)/4, variance, n*(n+1)/2)
}

// pairedShift is the Hodges-Lehmann comparison of paired log times: the
// one-sample analogue of shift, for runs of the two sides made back to
// back (ab's pairs), so that whatever the machine did over the session is
// common to both runs of a pair and cancels in its difference. The
// candidates are the n(n+1)/2 Walsh averages (d_i + d_j)/2, i ≤ j, of the
// differences d, and the count is Wilcoxon's signed-rank statistic.
type pairedShift struct{ rankShifts }

// newPairedShift prepares the comparison of pairs (xs[i], ys[i]) of log
// times, base and head; xs and ys have equal lengths.
func newPairedShift(xs, ys []float64) *pairedShift {
	n := len(xs)
	d := make([]float64, n)
	abs := make([]float64, n)
	for i := range d {
		d[i] = ys[i] - xs[i]
		abs[i] = math.Abs(d[i])
	}
	w := make([]float64, 0, n*(n+1)/2)
	for i := range d {
		for j := i; j < n; j++ {
			w = append(w, (d[i]+d[j])/2)
		}
	}
	return &pairedShift{newRankShifts(w, signedRankCDF(n, abs))}
}

// minRuns is the fewest pairs that give a finite interval at alpha/mult.
func (s *pairedShift) minRuns(mult, alpha float64) int {
	return minPairsFor(mult, alpha, 200)
}

// minPairsFor returns the smallest n such that n pairs give a finite
// interval at alpha/mult (at most limit; limit+1 when even that is not
// enough).
func minPairsFor(mult, alpha float64, limit int) int {
	for n := 1; n <= limit; n++ {
		if critical(signedRankCDF(n, nil), n*(n+1)/2, mult, alpha) >= 0 {
			return n
		}
	}
	return limit + 1
}
