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
//     of Window points (starts at most half a window apart, the last
//     window ending at the last point; the whole series when it is no
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
// The test of a split: the difference of the two segments' mean log
// values, over its standard error with the variance pooled over every
// segment of the series as it is cut at that moment (of the window, in
// the split step), as in a one-way analysis of variance of the segments:
// Student's t with N − K degrees of freedom (N observations, K segments),
// two-sided. Pooling over all segments, not only the two tested, keeps a
// test between short segments (one point and two) from resting on one or
// two degrees of freedom. The estimate is reported as the ratio of the
// segments' geometric means, with its t interval at 1 − StrictLevel:
// every change point reported has an interval that excludes no change
// (ratio 1), because its p-value passed the same level. A segment of one
// point is allowed (the others supply the variance), so a step right after
// the first point can be found; pieces of fewer than three points are not
// searched for a split.
//
// What it assumes:
//   - Between change points the point values are independent draws from
//     one normal distribution (on the log scale), with one spread over the
//     whole series (the test pools it): no trend, no correlation between
//     neighbours. A
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
// the chosen split and every split of its two segments whose residual sum
// of squares (one mean each side, on the point values) is within
// x = 2·ln(2/(1 − γ)) variances of the best split's, the variance pooled
// over the series' segments and γ = ChangePointLocationConfidence. This is
// the likelihood-ratio set for the location of one step: with the
// variance known, (RSS(true split) − RSS(best split))/σ² is the larger of
// two independent random walks' maxima, one each side of the true split,
// each walk drifting down as fast as the step is large; each maximum
// exceeds x with probability at most e^(−x/2) (the drifted Brownian
// motion's bound, which the discrete walk stays below), whatever the
// step's size. So the range holds the true step with probability γ or
// more; estimating the variance and the means makes it a little less, and
// results/history.md measures it.

import (
	"fmt"
	"math"
	"slices"
)

// Defaults of ChangePointOptions, each with its reason. The two levels
// and the window trade the power on small steps against change points in
// pure noise; make history-check measures both at these defaults and at
// the neighbouring choices, Otava's (0.001, 10, 50) among them, in
// results/history.md's table of settings.
const (
	// DefaultChangePointStrictLevel is the level every reported change
	// point passes. With one value per commit, Otava's 0.001 finds a 5%
	// step in 3% noise over 40 commits in fewer than the 95% of series
	// the target asks; 0.003 meets that target and keeps pure noise below
	// one change point per 1,000 commits.
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
		weak = append(weak, splitWindow(s.z, win, func(cuts []int, from, tau, to int) bool {
			ss, df := s.pooled(win.from, win.to, cuts, false)
			return s.test(from, tau, to, ss, df).p <= o.RelaxedLevel
		})...)
	}
	slices.Sort(weak)
	kept := s.merge(slices.Compact(weak), o)
	ss, df := s.pooled(0, len(s.z), kept, false)
	ptSS, ptDF := s.pooled(0, len(s.z), kept, true)
	out := make([]ChangePoint, len(kept))
	for i, tau := range kept {
		from, to := neighbours(kept, i, len(s.z))
		out[i] = s.changePoint(from, tau, to, s.test(from, tau, to, ss, df), o.StrictLevel)
		out[i].LastGood, out[i].FirstBad = s.locationRange(from, tau, to, ptSS/max(ptDF, 1))
	}
	return out, nil
}

// merge drops weak change points (sorted) until every one passes the
// strict level and the minimum magnitude, one at a time: the largest
// p-value first, then the smallest change.
func (s *logSeries) merge(cps []int, o ChangePointOptions) []int {
	for len(cps) > 0 {
		ss, df := s.pooled(0, len(s.z), cps, false)
		tests := make([]splitTest, len(cps))
		worstP, smallest := 0, 0
		for i, tau := range cps {
			from, to := neighbours(cps, i, len(s.z))
			tests[i] = s.test(from, tau, to, ss, df)
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

// neighbours are the ends of change point i's segments among cps (sorted)
// in a series of n points: the change points before and after it, or the
// series' ends.
func neighbours(cps []int, i, n int) (from, to int) {
	from, to = 0, n
	if i > 0 {
		from = cps[i-1]
	}
	if i+1 < len(cps) {
		to = cps[i+1]
	}
	return from, to
}
