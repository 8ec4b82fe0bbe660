package analysis

// The series ChangePoints works on (changepoint.go): the points' values on
// the log scale, with prefix sums that give any segment's moments in O(1);
// the t-test of a split with the variance pooled over a segmentation; and
// a change point's range.

import (
	"fmt"
	"math"

	"github.com/rootbench/rootbench/harness/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// logSeries is a series ready for the method: z holds the points' values
// (median log value), less the first point's, so that a constant series is
// exactly zero. Prefix sums give any segment's count, sum and sum of
// squares in O(1): obs* of what the t-test observes (the points, or every
// run with ObserveRuns), pt* of the point values (for the range).
type logSeries struct {
	z                   []float64
	offset              float64 // the first point's value, added back to the means
	obsN, obsSum, obsSq []float64
	ptSum, ptSq         []float64
}

func newLogSeries(points []SeriesPoint, obs ChangePointObservations) (*logSeries, error) {
	n := len(points)
	s := &logSeries{z: make([]float64, n)}
	logs := make([][]float64, n)
	for i, p := range points {
		if len(p.Values) == 0 {
			return nil, fmt.Errorf("change points: point %d has no values", i)
		}
		logs[i] = make([]float64, len(p.Values))
		for j, v := range p.Values {
			if !(v > 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("change points: point %d, value %d is %g; values are positive, finite times", i, j, v)
			}
			logs[i][j] = math.Log(v)
		}
		s.z[i] = stats.Median(logs[i])
	}
	if n > 0 {
		s.offset = s.z[0]
	}
	for i := range s.z {
		s.z[i] -= s.offset
	}
	s.obsN, s.obsSum, s.obsSq = make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
	s.ptSum, s.ptSq = make([]float64, n+1), make([]float64, n+1)
	for i, z := range s.z {
		s.ptSum[i+1], s.ptSq[i+1] = s.ptSum[i]+z, s.ptSq[i]+z*z
		c, sum, sq := 1.0, z, z*z
		if obs == ObserveRuns {
			c, sum, sq = float64(len(logs[i])), 0, 0
			for _, l := range logs[i] {
				d := l - s.offset
				sum, sq = sum+d, sq+d*d
			}
		}
		s.obsN[i+1], s.obsSum[i+1], s.obsSq[i+1] = s.obsN[i]+c, s.obsSum[i]+sum, s.obsSq[i]+sq
	}
	return s, nil
}

// moments are the count, mean and sum of squared deviations of [from, to):
// of the point values with points, else of the t-test's observations.
func (s *logSeries) moments(from, to int, points bool) (n, mean, ss float64) {
	n, sum, sq := s.obsN[to]-s.obsN[from], s.obsSum[to]-s.obsSum[from], s.obsSq[to]-s.obsSq[from]
	if points {
		n, sum, sq = float64(to-from), s.ptSum[to]-s.ptSum[from], s.ptSq[to]-s.ptSq[from]
	}
	if n == 0 {
		return 0, 0, 0
	}
	mean = sum / n
	return n, mean, max(0, sq-sum*mean)
}

// pooled is the within-segment sum of squares of [from, to) cut at cuts
// (sorted, each in (from, to)), and its degrees of freedom: observations
// less segments.
func (s *logSeries) pooled(from, to int, cuts []int, points bool) (ss, df float64) {
	prev, segments := from, 0.0
	for i := 0; i <= len(cuts); i++ {
		end := to
		if i < len(cuts) {
			end = cuts[i]
		}
		_, _, w := s.moments(prev, end, points)
		ss, prev, segments = ss+w, end, segments+1
	}
	n, _, _ := s.moments(from, to, points)
	return ss, n - segments
}

// splitTest is the t-test of a split: the segments' mean logs, their
// difference (right less left), its standard error, the degrees of
// freedom and the two-sided p-value.
type splitTest struct {
	meanL, meanR, diff, se, df, p float64
}

// test compares the means of [from, tau) and [tau, to) with Student's t,
// the variance pooled over a segmentation: ss and df from pooled.
func (s *logSeries) test(from, tau, to int, ss, df float64) splitTest {
	n1, m1, _ := s.moments(from, tau, false)
	n2, m2, _ := s.moments(tau, to, false)
	t := splitTest{meanL: m1, meanR: m2, diff: m2 - m1, df: df, p: 1, se: math.Inf(1)}
	if df < 1 {
		return t
	}
	t.se = math.Sqrt(ss / df * (1/n1 + 1/n2))
	switch {
	case t.se > 0:
		t.p = min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t.diff)/t.se))
	case t.diff != 0:
		t.p = 0
	}
	return t
}

// changePoint reports the split of [from, to) at tau by its test t, with
// the interval at 1 − level (the range is the caller's).
func (s *logSeries) changePoint(from, tau, to int, t splitTest, level float64) ChangePoint {
	half := math.Inf(1)
	if !math.IsInf(t.se, 1) {
		half = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.df}.Quantile(1-level/2) * t.se
	}
	return ChangePoint{
		Index: tau, From: from, To: to,
		Before: math.Exp(t.meanL + s.offset), After: math.Exp(t.meanR + s.offset),
		Ratio: math.Exp(t.diff), Lo: math.Exp(t.diff - half), Hi: math.Exp(t.diff + half),
		P: t.p,
	}
}

// rss is the residual sum of squares of the point values of [from, to)
// fitted with one mean on each side of tau.
func (s *logSeries) rss(from, tau, to int) float64 {
	_, _, l := s.moments(from, tau, true)
	_, _, r := s.moments(tau, to, true)
	return l + r
}

// locationRange is the range of a change point at tau in [from, to): the
// splits whose residual sum of squares is within 2·ln(2/(1 − γ))·variance
// of the best one's (changepoint.go), and tau, as LastGood and FirstBad.
// variance is the point values' pooled over the series' segments.
func (s *logSeries) locationRange(from, tau, to int, variance float64) (lastGood, firstBad int) {
	best := math.Inf(1)
	for t := from + 1; t < to; t++ {
		best = min(best, s.rss(from, t, to))
	}
	bound := best + 2*math.Log(2/(1-ChangePointLocationConfidence))*variance
	lo, hi := tau, tau
	for t := from + 1; t < to; t++ {
		if s.rss(from, t, to) <= bound {
			lo, hi = min(lo, t), max(hi, t)
		}
	}
	return lo - 1, hi
}
