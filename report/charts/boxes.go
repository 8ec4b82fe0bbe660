package charts

import (
	"errors"
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// Boxes writes box plots of every successful run's workload time per
// configuration (label): the box spans the quartiles with the median
// inside, whiskers reach the furthest runs within 1.5 IQR, and runs beyond
// are drawn as points. Several files are drawn side by side, coloured and
// named in a legend. When the configurations' medians are more than 10×
// apart (a parameter scan, say), one time axis would flatten every box, so
// each run is drawn relative to its configuration's median instead (the
// bars chart shows the magnitudes).
func Boxes(files []*harness.File, path string, opts ...Option) error {
	if err := checkFiles(files, "box"); err != nil {
		return err
	}
	cfg := newConfig(opts)
	labels := labelsOf(files)
	hi := longestRun(files...)
	if hi == 0 {
		return errors.New("box chart: no successful run to draw")
	}
	unit, scale := timeUnit(hi)
	relative := spread(files...) > wideSpread

	title := "Workload time of every run (box: quartiles and median, whiskers: 1.5 IQR)"
	yLabel := "time (" + unit + ")"
	if relative {
		title = "Every run relative to its configuration's median (box: quartiles, whiskers: 1.5 IQR)"
		yLabel = "time / median"
	}
	p := newPlot(title, "", yLabel)
	p.Add(plotter.NewGrid())
	multi := len(files) > 1
	w, boxW, offset := groupLayout(len(labels), len(files), multi)
	boxW = min(boxW, 2*vg.Centimeter)
	legend := newLegend()
	for j, f := range files {
		for i, l := range labels {
			r := find(f, l)
			if r == nil {
				continue
			}
			xs := r.WallSeconds()
			if len(xs) == 0 {
				continue
			}
			vals := make(plotter.Values, len(xs))
			k := scale
			if relative {
				k = 1 / stats.Median(xs)
			}
			for n, x := range xs {
				vals[n] = x * k
			}
			b, err := plotter.NewBoxPlot(boxW, float64(i)+offset(j), vals)
			if err != nil {
				return fmt.Errorf("box chart %s: %w", l, err)
			}
			b.FillColor = lighter(seriesColor(j))
			b.BoxStyle.Color = seriesColor(j)
			b.BoxStyle.Width = vg.Points(1)
			b.MedianStyle.Width = vg.Points(2)
			b.WhiskerStyle.Width = vg.Points(1)
			b.GlyphStyle.Color = seriesColor(j)
			p.Add(b)
		}
		legend.Add(cfg.fileName(files, j), swatch{lighter(seriesColor(j))})
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	if !rotateX(p, labels, w) {
		// Upright labels fit in their slots: no room to leave for the
		// first one, as NominalX does (it would detach the axis).
		p.Y.Padding = 0
	}
	if !multi {
		legend = nil
	}
	return save(p, legend, w, chartHeight, path)
}
