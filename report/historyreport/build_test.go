package historyreport

import (
	"fmt"
	"testing"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/history/series"
)

// SeriesOf maps analysis' indices, which count the points with values,
// back to the series' points (a commit whose runs all failed is one of
// them but none of analysis'), marks the first bad commit's row, and
// gives a change point the bisections whose range its segments hold.
func TestSeriesOf(t *testing.T) {
	t.Parallel()
	hash := func(i int) string { return fmt.Sprintf("%040x", i+1) }
	var points []series.Point
	var sp []analysis.SeriesPoint
	var medians []analysis.Summary
	for i := range 10 {
		p := series.Point{Commit: series.Commit{Hash: hash(i), Time: time.Unix(int64(i), 0)}}
		v := 10.0
		if i >= 6 {
			v = 15
		}
		if i == 2 {
			p.Failed = 3
		} else {
			p.Values = []float64{v, v * 1.01, v * 0.99, v * 1.005, v * 0.995, v * 1.002}
			sp = append(sp, analysis.SeriesPoint{Values: p.Values})
		}
		points = append(points, p)
		medians = append(medians, analysis.MedianSummary(p.Values))
	}
	cps, err := analysis.ChangePoints(sp, analysis.ChangePointOptions{})
	if err != nil || len(cps) != 1 {
		t.Fatalf("change points %+v, %v; want one", cps, err)
	}
	bisections := []series.Bisection{
		{Good: hash(5), Bad: hash(6), Outcome: "found", Culprit: hash(6)},
		{Good: hash(0), Bad: hash(1), Outcome: "no regression"}, // another range
	}
	s := SeriesOf(series.Series{ID: 3, Benchmark: "a", Metric: "wall", Unit: "ns/cell"}, points,
		Found{Medians: medians, ChangePoints: cps, Level: 0.997}, bisections, map[string]string{hash(6): "the slowdown"})
	if len(s.ChangePoints) != 1 {
		t.Fatalf("%d change points", len(s.ChangePoints))
	}
	c := s.ChangePoints[0]
	if c.Index != 6 || c.FirstBadIndex != 6 || c.FirstBad.Hash != hash(6) || c.LastGood.Hash != hash(c.LastGoodIndex) || c.To != 10 || c.From != 0 {
		t.Errorf("change point %+v; want the step at point 6 of 10", c)
	}
	if s.Points[6].Change != 1 || s.Points[2].Median != nil || s.Points[2].Failed != 3 || *s.Points[3].Median != medians[3].Median {
		t.Errorf("points: %+v", s.Points)
	}
	if len(c.Bisections) != 1 || c.Culprit() == nil || c.Culprit().Subject != "the slowdown" {
		t.Errorf("bisections %+v; want the one over 5..6 with its culprit's subject", c.Bisections)
	}
}
