package analysis

// This file finds change points in a series of measurements in commit
// order: E-divisive means with a Student's t-test significance level, as
// Hunter and Apache Otava do (Fleming et al., "Hunter: Using Change Point
// Detection to Hunt for Performance Regressions", ICPE 2023), on the log
// of per-unit times.
//
// The series and its points: each point is one commit (one build) with
// one or more runs' values (per-unit times, positive). A point's value is
// the median of its runs' log values. The test compares commits, not
// runs: the noise that matters between commits includes the build's own
// offset (function layout moves a build's speed by a few percent, and
// every run of one build shares it), which runs of one commit cannot
// show; a t-test over runs would take that shared offset for a change and
// find change points in pure noise. With one value per commit, the spread
// the test uses is the spread between commits, whatever its sources
// (results/history.md measures both, as ObserveRuns and the default).
//
// The method, in two steps:
//
//  1. Split (edivisive.go): the series is searched in overlapping windows
//     of Window points (each start about half a window from the last, the
//     last window ending at the last point; the whole series when it is no
//     longer). In each window E-divisive means proposes the split that
//     makes the two sides most different; the t-test below judges it at
//     the relaxed level (RelaxedLevel); an accepted split divides the
//     window and the search goes on in its pieces until the best remaining
//     candidate fails. The union over windows gives the weak change
//     points. Windows keep a long history from hiding a change between
//     two others, and the relaxed level keeps a change that only shows
//     once its neighbours are split off.
//  2. Merge: every weak change point is tested again, between its
//     neighbours over the whole series, at the strict level (StrictLevel):
//     the one with the largest p-value above it is dropped, its neighbours
//     are tested again with their new segments, and so on until every one
//     left passes. Then, if MinMagnitude is set, the smallest change below
//     it is dropped the same way, one at a time.
//
// The test of a split: Student's two-sample t-test (pooled variance,
// n₁ + n₂ − 2 degrees of freedom) on the point values of the two
// segments, two-sided. Its estimate is the difference of the segments'
// mean log values, reported as the ratio of their geometric means, with
// the t interval at 1 − StrictLevel: every change point reported has an
// interval that excludes no change (ratio 1), because its p-value passed
// the same level. A segment of one point is allowed (the other supplies
// the variance), so a step right after the first point can be found.
//
// What it assumes:
//   - Between change points the point values are independent draws from
//     one normal distribution (on the log scale): the same spread on both
//     sides of a change, no trend, no correlation between neighbours. A
//     change point is a shift of the level; a change of the spread alone
//     may be proposed but is judged by its means.
//   - The p-value is the t-test's for the split that was found; the search
//     chose that split because it looked most different, so the p-value
//     of a pre-chosen split it is not. The levels are set so that the
//     measured rate of change points in pure noise stays within the target
//     (make history-check; results/history.md), not by the nominal level.
//   - An outlying commit (one slow build) can show as two change points
//     around it; a slow creep shows as one or more changes where it has
//     added up to something the test can see.
//
// The commit range: a change point's Index is the split the method chose
// (the first point of the new level). Its range LastGood..FirstBad holds
// every split of its segments whose residual sum of squares (two means,
// one each side) is within 2·ln(2/(1 − γ))·s² of the best split's (s² the
// best split's pooled variance; γ = ChangePointLocationConfidence), and
// the chosen split. The bound is the likelihood-ratio set for the
// location of one step: with the noise known, the log-likelihood ratio of
// the true split against the others is the larger of two independent
// drifted random walks' maxima, each above x/2 with probability at most
// e^(−x/2) (the continuous-time bound, which the discrete walk stays
// below), whatever the step's size. So the range contains the true step
// with probability about γ or more; the estimated variance makes it a
// little less; results/history.md measures it.

import (
	"fmt"
	"math"
	"slices"

	"github.com/rootbench/rootbench/harness/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// Defaults of ChangePointOptions, each with its reason. The two levels
// and the window trade the power on small steps against change points in
// pure noise; make history-check measures both at these defaults and at
// the neighbouring choices, Otava's (0.001, 10, 50) among them, in
// results/history.md's table of settings.
const (
	// DefaultChangePointStrictLevel is the level every reported change
	// point passes. With one value per commit, Otava's 0.001 misses the
	// target on a 5% step in 3% noise over 40 commits (found in 95% of
	// series); 0.003 meets it and keeps pure noise below one change
	// point per 1,000 commits.
	DefaultChangePointStrictLevel = 0.003
	// DefaultChangePointRelaxedFactor times the strict level is the
	// relaxed level of the split step. Weak change points let a change
	// show once a neighbouring one splits the window; but each weak point
	// also gives the merge step one more chosen split to keep, so pure
	// noise yields change points far more often at Otava's factor of 10
	// than at 2, for little power.
	DefaultChangePointRelaxedFactor = 2
	// DefaultChangePointWindow is the window of the split step, in points.
	// Windows keep the search local, so that a long history does not hide
	// a small change; but overlapping windows search every stretch twice,
	// each with its own chosen split, so shorter windows find more change
	// points in noise. 100 holds a step with 50 commits on each side.
	DefaultChangePointWindow = 100
	// ChangePointLocationConfidence is γ of a change point's range: the
	// probability with which the range LastGood..FirstBad holds the true
	// step, by the likelihood-ratio bound above.
	ChangePointLocationConfidence = 0.95
	// minChangePointWindow is the shortest window: four points give the
	// t-test of a split two degrees of freedom.
	minChangePointWindow = 4
)

// ChangePointObservations says what the t-test of a split counts as its
// observations.
type ChangePointObservations int

const (
	// ObserveCommits tests the points' values, one per commit (the
	// default, and the one that holds its level when builds differ).
	ObserveCommits ChangePointObservations = iota
	// ObserveRuns tests every run's log value, as if the runs of one
	// commit were independent of each other. It exists to measure what
	// that assumption costs (results/history.md): a build's offset is
	// shared by all its runs, so under build-to-build noise this finds
	// change points in pure noise far more often than its level says.
	ObserveRuns
)

// SeriesPoint is one commit of a series: the values (per-unit times, each
// positive and finite) of its runs. Its position in the slice is its place
// in commit order.
type SeriesPoint struct {
	Values []float64
}

// ChangePointOptions tunes ChangePoints; the zero value gives the
// defaults.
type ChangePointOptions struct {
	// StrictLevel is the level every reported change point passes
	// (default DefaultChangePointStrictLevel), in (0, 1).
	StrictLevel float64
	// RelaxedLevel is the level of the split step (default
	// DefaultChangePointRelaxedFactor × StrictLevel, at most 0.5 unless
	// StrictLevel is larger), in [StrictLevel, 1).
	RelaxedLevel float64
	// Window is the window of the split step in points (default
	// DefaultChangePointWindow), at least 4.
	Window int
	// MinMagnitude, when positive, drops change points whose ratio r has
	// max(r, 1/r) − 1 below it (e.g. 0.02 for 2%). Default 0: the t-test
	// alone decides, so that a small step the series shows is kept.
	MinMagnitude float64
	// Observations is what the t-test counts (default ObserveCommits).
	Observations ChangePointObservations
}

// ChangePoint is one change of level in a series. Indices are positions
// in the series.
type ChangePoint struct {
	// Index is the first point of the new level: the split the method
	// chose.
	Index int
	// LastGood and FirstBad bound the change: it happened after point
	// LastGood, at or before point FirstBad (LastGood < Index ≤ FirstBad),
	// with probability ChangePointLocationConfidence.
	LastGood, FirstBad int
	// From and To are the segments tested: points [From, Index) and
	// [Index, To), up to the neighbouring change points.
	From, To int
	// Before and After are the segments' geometric means, in the values'
	// unit.
	Before, After float64
	// Ratio is After/Before; Lo and Hi its interval at 1 − StrictLevel.
	Ratio, Lo, Hi float64
	// P is the two-sided t-test's p-value of the split.
	P float64
}

// Percent is the change as a percentage: (Ratio − 1)·100.
func (c ChangePoint) Percent() float64 { return (c.Ratio - 1) * 100 }

// withDefaults fills the zero options and checks the others.
func (o ChangePointOptions) withDefaults() (ChangePointOptions, error) {
	if o.StrictLevel == 0 {
		o.StrictLevel = DefaultChangePointStrictLevel
	}
	if !(o.StrictLevel > 0 && o.StrictLevel < 1) {
		return o, fmt.Errorf("change points: strict level %g is outside (0, 1)", o.StrictLevel)
	}
	if o.RelaxedLevel == 0 {
		o.RelaxedLevel = max(o.StrictLevel, min(DefaultChangePointRelaxedFactor*o.StrictLevel, 0.5))
	}
	if !(o.RelaxedLevel >= o.StrictLevel && o.RelaxedLevel < 1) {
		return o, fmt.Errorf("change points: relaxed level %g is outside [strict level %g, 1)", o.RelaxedLevel, o.StrictLevel)
	}
	if o.Window == 0 {
		o.Window = DefaultChangePointWindow
	}
	if o.Window < minChangePointWindow {
		return o, fmt.Errorf("change points: window %d is below %d points", o.Window, minChangePointWindow)
	}
	if !(o.MinMagnitude >= 0 && !math.IsInf(o.MinMagnitude, 1)) {
		return o, fmt.Errorf("change points: minimum magnitude %g is not a finite ratio ≥ 0", o.MinMagnitude)
	}
	if o.Observations != ObserveCommits && o.Observations != ObserveRuns {
		return o, fmt.Errorf("change points: unknown observations %d", o.Observations)
	}
	return o, nil
}

// ChangePoints finds the change points of points (in commit order), in
// increasing Index, by E-divisive means with a t-test level (see this
// file's doc). A point without values, or a value not positive and
// finite, is an error; so are options out of range.
func ChangePoints(points []SeriesPoint, opts ChangePointOptions) ([]ChangePoint, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s, err := newLogSeries(points, o.Observations)
	if err != nil {
		return nil, err
	}
	var weak []int
	for _, win := range windows(len(s.z), o.Window) {
		weak = append(weak, splitWindow(s.z, win, func(from, tau, to int) bool {
			return s.test(from, tau, to).p <= o.RelaxedLevel
		})...)
	}
	slices.Sort(weak)
	kept := s.merge(slices.Compact(weak), o)
	out := make([]ChangePoint, len(kept))
	for i, tau := range kept {
		from, to := 0, len(s.z)
		if i > 0 {
			from = kept[i-1]
		}
		if i+1 < len(kept) {
			to = kept[i+1]
		}
		out[i] = s.changePoint(from, tau, to, o.StrictLevel)
	}
	return out, nil
}

// merge drops weak change points (sorted) until every one passes the
// strict level and the minimum magnitude, one at a time: the largest
// p-value first, then the smallest change.
func (s *logSeries) merge(cps []int, o ChangePointOptions) []int {
	for len(cps) > 0 {
		tests := make([]splitTest, len(cps))
		worstP, smallest := 0, 0
		for i, tau := range cps {
			from, to := 0, len(s.z)
			if i > 0 {
				from = cps[i-1]
			}
			if i+1 < len(cps) {
				to = cps[i+1]
			}
			tests[i] = s.test(from, tau, to)
			if tests[i].p > tests[worstP].p {
				worstP = i
			}
			if math.Abs(tests[i].diff) < math.Abs(tests[smallest].diff) {
				smallest = i
			}
		}
		switch {
		case tests[worstP].p > o.StrictLevel:
			cps = slices.Delete(cps, worstP, worstP+1)
		case math.Abs(tests[smallest].diff) < math.Log1p(o.MinMagnitude):
			cps = slices.Delete(cps, smallest, smallest+1)
		default:
			return cps
		}
	}
	return cps
}

// logSeries is a series ready for the method: z holds the points' values
// (median log value), less the first point's, so that a constant series
// is exactly zero; the prefix sums give any segment's count, sum and sum
// of squares in O(1): obs* of what the t-test observes, pt* of the point
// values (for the range).
type logSeries struct {
	z                   []float64
	offset              float64 // the first point's value, added back to the means
	obsN, obsSum, obsSq []float64
	ptSum, ptSq         []float64
	observations        ChangePointObservations
}

func newLogSeries(points []SeriesPoint, obs ChangePointObservations) (*logSeries, error) {
	n := len(points)
	s := &logSeries{z: make([]float64, n), observations: obs}
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

// moments are a segment's count, mean and sum of squared deviations.
func moments(n, sum, sq float64) (float64, float64, float64) {
	mean := sum / n
	return n, mean, max(0, sq-sum*mean)
}

// splitTest is the t-test of a split: the difference of mean logs (right
// less left), its standard error, degrees of freedom and p-value.
type splitTest struct {
	meanL, meanR, diff, se, df, p float64
}

// test is Student's two-sample t-test of [from, tau) against [tau, to).
func (s *logSeries) test(from, tau, to int) splitTest {
	n1, m1, ss1 := moments(s.obsN[tau]-s.obsN[from], s.obsSum[tau]-s.obsSum[from], s.obsSq[tau]-s.obsSq[from])
	n2, m2, ss2 := moments(s.obsN[to]-s.obsN[tau], s.obsSum[to]-s.obsSum[tau], s.obsSq[to]-s.obsSq[tau])
	t := splitTest{meanL: m1, meanR: m2, diff: m2 - m1, df: n1 + n2 - 2, p: 1}
	if t.df < 1 {
		t.se = math.Inf(1)
		return t
	}
	t.se = math.Sqrt((ss1 + ss2) / t.df * (1/n1 + 1/n2))
	switch {
	case t.se > 0:
		t.p = min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.df}.Survival(math.Abs(t.diff)/t.se))
	case t.diff != 0:
		t.p = 0
	}
	return t
}

// rss is the residual sum of squares of the point values of [from, to)
// fitted with one mean on each side of tau.
func (s *logSeries) rss(from, tau, to int) float64 {
	_, _, l := moments(float64(tau-from), s.ptSum[tau]-s.ptSum[from], s.ptSq[tau]-s.ptSq[from])
	_, _, r := moments(float64(to-tau), s.ptSum[to]-s.ptSum[tau], s.ptSq[to]-s.ptSq[tau])
	return l + r
}

// changePoint reports the split of [from, to) at tau: its test, interval
// at 1 − level, and range.
func (s *logSeries) changePoint(from, tau, to int, level float64) ChangePoint {
	t := s.test(from, tau, to)
	half := math.Inf(1)
	if !math.IsInf(t.se, 1) {
		half = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.df}.Quantile(1-level/2) * t.se
	}
	cp := ChangePoint{
		Index: tau, From: from, To: to,
		Before: math.Exp(t.meanL + s.offset), After: math.Exp(t.meanR + s.offset),
		Ratio: math.Exp(t.diff), Lo: math.Exp(t.diff - half), Hi: math.Exp(t.diff + half),
		P: t.p,
	}
	cp.LastGood, cp.FirstBad = s.locationRange(from, tau, to)
	return cp
}

// locationRange is the range of a change point at tau in [from, to): the
// splits whose residual sum of squares is within 2·ln(2/(1 − γ))·s² of the
// best one's (this file's doc), and tau, as LastGood and FirstBad.
func (s *logSeries) locationRange(from, tau, to int) (lastGood, firstBad int) {
	best := math.Inf(1)
	for t := from + 1; t < to; t++ {
		best = min(best, s.rss(from, t, to))
	}
	bound := best
	if to-from > 2 {
		bound += 2 * math.Log(2/(1-ChangePointLocationConfidence)) * best / float64(to-from-2)
	}
	lo, hi := tau, tau
	for t := from + 1; t < to; t++ {
		if s.rss(from, t, to) <= bound {
			lo, hi = min(lo, t), max(hi, t)
		}
	}
	return lo - 1, hi
}
