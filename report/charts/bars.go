package charts

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// Bars writes a horizontal bar chart of the mean time per unit of work (ns
// per cell or per call) of every configuration (label), top to bottom in
// first-seen order, with ±1σ error bars and the mean written beside each
// bar. With several files, each configuration gets one bar per file,
// coloured and named in a legend: the files must share their workload and
// unit of work. The chart grows in height, not width, with the number of
// bars; its value axis is logarithmic when the largest mean exceeds
// wideSpread times the smallest.
func Bars(files []*harness.File, path string, opts ...Option) error {
	cfg, labels, err := prepare(files, "bars", opts)
	if err != nil {
		return err
	}
	type ms struct {
		mean, std float64
		ok        bool
	}
	stats := make([][]ms, len(files))
	lo, hi := math.Inf(1), 0.0
	for j, f := range files {
		stats[j] = make([]ms, len(labels))
		for i, l := range labels {
			r := find(f, l)
			if r == nil {
				continue
			}
			d := analysis.DescribeUnitTimes(r)
			if d.N == 0 {
				continue
			}
			m, s := d.Mean, d.Stddev
			stats[j][i] = ms{m, s, true}
			lo, hi = math.Min(lo, m), math.Max(hi, m+s)
		}
	}
	if hi == 0 || math.IsInf(lo, 1) {
		return errors.New("bars chart: no successful run with a unit count to draw")
	}
	unit := analysis.Unit(files[0])
	p := newPlot(cfg.titled(fmt.Sprintf("Mean time per %s (error bars ±1σ)", unit)), "ns per "+unit, "")
	logScale := valueAxis(&p.X, lo, hi, true)
	if logScale {
		p.Title.Text += ", log scale"
		p.X.Max *= 1.6 // room for the figures beside the bars
	} else {
		p.X.Max = hi * 1.15
	}
	floor := p.X.Min // where bars start: 0, or the left edge of a log axis

	n, m := len(labels), len(files)
	row := rowPitch * vg.Length(max(1, m))
	barW := rowPitch * 0.8
	pos := func(i int) float64 { return float64(n - 1 - i) } // first label on top

	p.Add(plotter.NewGrid())
	legend := newLegend()
	for j := range files {
		style := styleOf(j)
		var errs plotter.XYs
		var xerr plotter.XErrors
		var figures plotter.XYLabels
		for i, s := range stats[j] {
			if !s.ok {
				continue // no bar, not even an empty one
			}
			y := pos(i) + slot(j, m)
			// One bar per value, stacked on the axis' left edge so that a
			// log axis draws it from there.
			base, err := plotter.NewBarChart(plotter.Values{floor}, barW)
			if err != nil {
				return fmt.Errorf("bars chart: %w", err)
			}
			base.Horizontal, base.XMin = true, y
			bar, err := plotter.NewBarChart(plotter.Values{s.mean - floor}, barW)
			if err != nil {
				return fmt.Errorf("bars chart: %w", err)
			}
			bar.Horizontal = true
			bar.Color = lighter(style.Color)
			bar.LineStyle.Color = style.Color
			bar.LineStyle.Width = vg.Points(0.75)
			bar.StackOn(base)
			p.Add(bar)
			low := s.std
			if logScale {
				// A log axis cannot show an error bar reaching below its edge.
				low = math.Min(low, (s.mean-floor)*0.99)
			}
			errs = append(errs, plotter.XY{X: s.mean, Y: y})
			xerr = append(xerr, struct{ Low, High float64 }{low, s.std})
			figures.XYs = append(figures.XYs, plotter.XY{X: s.mean + s.std, Y: y})
			figures.Labels = append(figures.Labels, report.FourDigits(s.mean))
		}
		if len(errs) > 0 {
			eb, err := plotter.NewXErrorBars(xErrorBars{errs, xerr})
			if err != nil {
				return fmt.Errorf("bars chart: %w", err)
			}
			eb.LineStyle.Width = vg.Points(1)
			eb.CapWidth = barW * 0.6
			text, err := plotter.NewLabels(figures)
			if err != nil {
				return fmt.Errorf("bars chart: %w", err)
			}
			for k := range text.TextStyle {
				text.TextStyle[k].Font.Size = 9
				text.TextStyle[k].YAlign = -0.5 // centred on the bar
			}
			text.Offset = vg.Point{X: vg.Points(4)}
			p.Add(eb, text)
		}
		legend.Add(cfg.fileName(files, j), swatch{lighter(style.Color)})
	}
	return saveRows(p, legend, labels, m, row, path)
}

// xErrorBars feeds plotter.NewXErrorBars.
type xErrorBars struct {
	plotter.XYs
	plotter.XErrors
}
