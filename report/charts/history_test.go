package charts

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/report/historyreport"
)

// historySeries is a series of n commits, ten runs each in 3% noise, that
// steps up by 70% at n/3 and back down by 35% at 2n/3, with its change
// points found by analysis; a commit near the start has only failed runs.
func historySeries(t *testing.T, n int) historyreport.Series {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	var points []series.Point
	var sp []analysis.SeriesPoint
	var medians []analysis.Summary
	for i := range n {
		p := series.Point{Commit: series.Commit{Hash: fmt.Sprintf("%07x%033d", 0xa000000+i*4099, 0), Time: time.Unix(int64(i)*3600, 0)}}
		level := 10.0
		switch {
		case i >= 2*n/3:
			level = 11
		case i >= n/3:
			level = 17
		}
		if i == 3 {
			p.Failed = 10
		} else {
			for range 10 {
				p.Values = append(p.Values, level*(1+0.03*rng.NormFloat64()))
			}
			sp = append(sp, analysis.SeriesPoint{Values: p.Values})
		}
		points = append(points, p)
		medians = append(medians, analysis.MedianSummary(p.Values))
	}
	cps, err := analysis.ChangePoints(sp, analysis.ChangePointOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := series.Series{ID: 7, Benchmark: "boxroot-handle", Metric: "wall", Unit: "ns/cell"}
	return historyreport.SeriesOf(x, points, historyreport.Found{Medians: medians, ChangePoints: cps, Level: 0.997}, nil, nil)
}

// A history chart is drawn in both formats, with and without change
// points, for a short series and a long one (-short draws the long one as
// SVG only: the formats share the layout); a series without a successful
// run is refused.
func TestHistoryChart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if keep := os.Getenv("ROOTBENCH_CHART_DIR"); keep != "" {
		dir = keep // to look at the charts
	}
	for _, n := range []int{30, 90} {
		s := historySeries(t, n)
		if len(s.ChangePoints) != 2 {
			t.Errorf("%d commits: %d change points, want the two steps", n, len(s.ChangePoints))
		}
		flat := s
		flat.ChangePoints = nil
		for _, ext := range []string{".png", ".svg"} {
			if ext == ".png" && n > 30 && testing.Short() {
				continue
			}
			for name, x := range map[string]historyreport.Series{"steps": s, "flat": flat} {
				path := filepath.Join(dir, fmt.Sprintf("history-%s-%d%s", name, n, ext))
				if err := History(x, path); err != nil {
					t.Fatal(err)
				}
				if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
					t.Errorf("%s: %v", path, err)
				}
			}
		}
	}
	none := historySeries(t, 30)
	for i := range none.Points {
		none.Points[i].Median = nil
	}
	if err := History(none, filepath.Join(dir, "none.png")); err == nil {
		t.Error("a series without a successful run was drawn")
	}
}
