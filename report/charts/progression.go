package charts

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// Progression writes every successful run's time per unit of work (ns per
// cell or per call) against its run index (its position in the whole
// session), one series per configuration (label), to show drift: with
// interleaved runs, a trend shared by every series is the machine, not the
// cells. The value axis is absolute, logarithmic when the values span more
// than wideSpread. It draws at most MaxSeries configurations: pick them
// with WithLabels (SeriesGroups splits a file into such groups); more is an
// error.
func Progression(f *harness.File, path string, opts ...Option) error {
	if f == nil {
		return errors.New("progression chart: no results file")
	}
	cfg := newConfig(opts)
	labels := cfg.selected([]*harness.File{f})
	if len(labels) > MaxSeries {
		return fmt.Errorf("progression chart: %d configurations, at most %d fit one chart: split them with SeriesGroups", len(labels), MaxSeries)
	}
	type series struct {
		label string
		xys   plotter.XYs
	}
	var all []series
	lo, hi := math.Inf(1), 0.0
	for _, l := range labels {
		r := find(f, l)
		var xys plotter.XYs
		for _, run := range r.Runs {
			if !run.Failed && run.Cells > 0 && run.WallNs > 0 {
				y := float64(run.WallNs) / float64(run.Cells)
				xys = append(xys, plotter.XY{X: float64(run.Index), Y: y})
				lo, hi = math.Min(lo, y), math.Max(hi, y)
			}
		}
		if len(xys) > 0 {
			slices.SortFunc(xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
			all = append(all, series{l, xys})
		}
	}
	if len(all) == 0 {
		return errors.New("progression chart: no successful run with a unit count to draw")
	}
	unit := analysis.Unit(f)
	p := newPlot(cfg.titled(fmt.Sprintf("Time per %s in run order (drift check)", unit)), "run index (session order)", "ns per "+unit)
	if valueAxis(&p.Y, lo, hi, false) {
		p.Y.Label.Text += " (log scale)"
	}
	p.Add(plotter.NewGrid())
	legend := newLegend()
	for i, s := range all {
		style := styleOf(i)
		line, points, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return fmt.Errorf("progression chart %s: %w", s.label, err)
		}
		line.LineStyle = style.lineStyle(vg.Points(1))
		points.GlyphStyle = style.glyphStyle(vg.Points(2.5))
		p.Add(line, points)
		legend.Add(s.label, line, points)
	}
	return save(p, legend, lineHeight, path)
}
