package charts

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// Boxes writes horizontal box plots of every successful run's time per unit
// of work (ns per cell or per call), one box per configuration (label), top
// to bottom in first-seen order, all on one absolute axis so that
// configurations compare directly: the box spans the quartiles with the
// median inside, whiskers reach the furthest runs within 1.5 IQR, and runs
// beyond are drawn as points. With several files, each configuration gets
// one box per file, coloured and named in a legend; the files must share
// their workload and unit of work. The axis is logarithmic when the
// slowest run exceeds wideSpread times the fastest: a box then shows its
// runs' relative spread at the same width whatever its magnitude.
func Boxes(files []*harness.File, path string, opts ...Option) error {
	cfg, labels, err := prepare(files, "box", opts)
	if err != nil {
		return err
	}
	lo, hi := math.Inf(1), 0.0
	for _, f := range files {
		for _, l := range labels {
			if r := find(f, l); r != nil {
				for _, x := range analysis.UnitTimes(r) {
					lo, hi = math.Min(lo, x), math.Max(hi, x)
				}
			}
		}
	}
	if hi == 0 {
		return errors.New("box chart: no successful run with a unit count to draw")
	}
	unit := analysis.Unit(files[0])
	// The box's meaning goes in a second title line: gonum centres an
	// axis label on the arithmetic middle of its range, which a long label
	// on a log axis pushes off the chart.
	p := newPlot(cfg.titled(fmt.Sprintf("Time per %s of every run", unit))+
		"\nbox: quartiles and median; whiskers: furthest run within 1.5 IQR; points: runs beyond", "ns per "+unit, "")
	if valueAxis(&p.X, lo, hi, false) {
		p.X.Label.Text += ", log scale"
	} else if p.X.Min > 0 {
		p.X.Label.Text += " (axis from " + formatTick(p.X.Min) + ", not 0)"
	}
	n, m := len(labels), len(files)
	row := rowPitch * vg.Length(max(1, m))
	boxW := rowPitch * 0.7
	p.Add(plotter.NewGrid())
	legend := newLegend()
	for j, f := range files {
		style := styleOf(j)
		for i, l := range labels {
			r := find(f, l)
			if r == nil {
				continue
			}
			xs := analysis.UnitTimes(r)
			if len(xs) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(boxW, float64(n-1-i)+slot(j, m), plotter.Values(xs))
			if err != nil {
				return fmt.Errorf("box chart %s: %w", l, err)
			}
			b.Horizontal = true
			b.FillColor = lighter(style.Color)
			b.BoxStyle.Color = style.Color
			b.BoxStyle.Width = vg.Points(1)
			b.MedianStyle.Color = style.Color
			b.MedianStyle.Width = vg.Points(2)
			b.WhiskerStyle.Width = vg.Points(1)
			b.WhiskerStyle.Dashes = nil
			b.CapWidth = boxW * 0.5
			b.GlyphStyle.Color = style.Color
			p.Add(b)
		}
		legend.Add(cfg.fileName(files, j), swatch{lighter(style.Color)})
	}
	return saveRows(p, legend, labels, m, row, path)
}
