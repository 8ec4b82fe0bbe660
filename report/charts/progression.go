package charts

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

func shape(i int) draw.GlyphDrawer { return plotutil.Shape(i) }

// Progression writes every successful run's workload time against its run
// index (its position in the whole session), one series per configuration
// (label), to show drift: with interleaved runs, a trend shared by every
// series is the machine, not the cells. When the configurations' medians
// are more than 10× apart, each run is drawn relative to its
// configuration's median, so that every series' drift shows on one axis.
func Progression(f *harness.File, path string) error {
	if f == nil {
		return errors.New("progression chart: no results file")
	}
	hi := longestRun(f)
	if hi == 0 {
		return errors.New("progression chart: no successful run to draw")
	}
	unit, scale := timeUnit(hi)
	relative := spread(f) > wideSpread
	title, yLabel := "Run progression: workload time in run order (drift check)", "time ("+unit+")"
	if relative {
		title, yLabel = "Run progression: each run relative to its configuration's median (drift check)", "time / median"
	}
	p := newPlot(title, "run index (session order)", yLabel)
	p.Add(plotter.NewGrid())
	legend := newLegend()
	for i := range f.Results {
		r := &f.Results[i]
		k := scale
		if relative {
			k = 1 / stats.Median(r.WallSeconds())
		}
		var xys plotter.XYs
		for _, run := range r.Runs {
			if !run.Failed {
				xys = append(xys, plotter.XY{X: float64(run.Index), Y: float64(run.WallNs) / 1e9 * k})
			}
		}
		if len(xys) == 0 {
			continue
		}
		slices.SortFunc(xys, func(a, b plotter.XY) int { return cmpFloat(a.X, b.X) })
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("progression chart %s: %w", r.Label, err)
		}
		line.Color = seriesColor(i)
		line.Width = vg.Points(0.75)
		points.Color = seriesColor(i)
		points.Shape = shape(i)
		points.Radius = vg.Points(2.5)
		p.Add(line, points)
		legend.Add(r.Label, line, points)
	}
	return save(p, legend, minWidth+4*vg.Centimeter, chartHeight, path)
}
