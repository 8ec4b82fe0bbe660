package historyreport

import (
	"fmt"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/history/series"
)

// MethodText names the change-point method at its strict level, for a
// Document's Method.
func MethodText(strict float64) string {
	return fmt.Sprintf("E-divisive means with a t-test (as Apache Otava) on each commit's median log value, "+
		"every change at level %g (its interval at %g); a range last good..first bad holds the step with probability %g",
		strict, 1-strict, analysis.ChangePointLocationConfidence)
}

// Found is what analysis found in a series: each point's median with its
// interval (analysis.MedianSummary; the zero Summary for a point whose
// runs all failed), and the change points analysis.ChangePoints found over
// the points that have values, in that order (their indices count those
// points only), their intervals at Level.
type Found struct {
	Medians      []analysis.Summary
	ChangePoints []analysis.ChangePoint
	Level        float64
	// Note says why no change point was sought ("" when they were).
	Note string
}

// SeriesOf assembles a Series from what the store holds (the series, its
// points in commit order, the bisections recorded for it), what analysis
// found in it, and the subjects git knows (by full hash; nil for none). A
// bisection belongs to the change point whose segments hold its range,
// good before the change's first point and bad at or after it.
func SeriesOf(x series.Series, points []series.Point, found Found, bisections []series.Bisection, subjects map[string]string) Series {
	s := Series{ID: x.ID, Machine: x.Machine, MachineKind: x.MachineKind.String(), Workload: x.Workload,
		Benchmark: x.Benchmark, Params: x.Params, Metric: x.Metric, Unit: x.Unit, Note: found.Note}
	if s.Params == nil {
		s.Params = map[string]string{}
	}
	at := map[string]int{} // a commit's index in points
	var valued []int       // the points with values, by their index in points
	for i, p := range points {
		pt := Point{Commit: commitOf(p.Commit, subjects), Runs: len(p.Values), Failed: p.Failed}
		if len(p.Values) > 0 && i < len(found.Medians) {
			m := found.Medians[i]
			pt.Median = &m.Median
			pt.Lo, pt.Hi, pt.Confidence = Finite(m.Lo), Finite(m.Hi), m.Confidence
			valued = append(valued, i)
		}
		at[p.Commit.Hash] = i
		s.Points = append(s.Points, pt)
	}
	index := func(k int) int {
		if k >= len(valued) {
			return len(points)
		}
		return valued[k]
	}
	for n, c := range found.ChangePoints {
		cp := ChangePoint{Number: n + 1, Index: index(c.Index), LastGoodIndex: index(c.LastGood), FirstBadIndex: index(c.FirstBad),
			From: index(c.From), To: index(c.To), Before: c.Before, After: c.After, Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi,
			Level: found.Level, P: c.P}
		cp.LastGood, cp.FirstBad = s.Points[cp.LastGoodIndex].Commit, s.Points[cp.FirstBadIndex].Commit
		for _, b := range bisections {
			good, okGood := at[b.Good]
			bad, okBad := at[b.Bad]
			if okGood && okBad && cp.From <= good && good < cp.Index && cp.Index <= bad && bad < cp.To {
				cp.Bisections = append(cp.Bisections, bisectionOf(b, subjects))
			}
		}
		s.Points[cp.FirstBadIndex].Change = cp.Number
		s.ChangePoints = append(s.ChangePoints, cp)
	}
	return s
}

// commitOf is a stored commit with its subject.
func commitOf(c series.Commit, subjects map[string]string) Commit {
	out := Commit{Hash: c.Hash, Short: c.Short(), Branch: c.Branch, Subject: subjects[c.Hash]}
	if !c.Time.IsZero() {
		t := c.Time
		out.Time = &t
	}
	return out
}

// bisectionOf is a recorded bisection with its culprit's subject.
func bisectionOf(b series.Bisection, subjects map[string]string) Bisection {
	out := Bisection{Good: b.Good, Bad: b.Bad, Outcome: b.Outcome, Detail: b.Detail, At: b.At}
	if b.Culprit != "" {
		c := commitOf(series.Commit{Hash: b.Culprit}, subjects)
		out.Culprit = &c
	}
	return out
}
