package charts

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rootbench/rootbench/harness"
	hstats "github.com/rootbench/rootbench/harness/stats"
)

// labelsOf returns every label of files, in first-seen order.
func labelsOf(files []*harness.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		for _, r := range f.Results {
			if !seen[r.Label] {
				seen[r.Label] = true
				out = append(out, r.Label)
			}
		}
	}
	return out
}

func find(f *harness.File, label string) *harness.Result {
	for i := range f.Results {
		if f.Results[i].Label == label {
			return &f.Results[i]
		}
	}
	return nil
}

func checkFiles(files []*harness.File, what string) error {
	if len(files) == 0 {
		return fmt.Errorf("%s chart: no results file", what)
	}
	for i, f := range files {
		if f == nil {
			return fmt.Errorf("%s chart: results file %d is missing", what, i+1)
		}
	}
	return nil
}

// groupLayout places m series side by side in each of n categories: the
// canvas width, the bar width, and the x offset of series j (data units).
func groupLayout(n, m int, legend bool) (w, bar vg.Length, offset func(j int) float64) {
	w = max(minWidth, vg.Length(n*m)*0.7*vg.Centimeter+5*vg.Centimeter)
	legendW := vg.Length(0)
	if legend {
		legendW = 4 * vg.Centimeter
		w += legendW
	}
	slot := (w - legendW - 3*vg.Centimeter) / vg.Length(n) // data unit, in canvas length
	const group = 0.8
	bar = slot * group / vg.Length(m)
	offset = func(j int) float64 { return -group/2 + (float64(j)+0.5)*group/float64(m) }
	return w, bar, offset
}

// Bars writes a bar chart of the mean workload time of every configuration
// (label) with ±1σ error bars, one bar per file side by side when several
// files are given (named in a legend). The time axis is logarithmic when
// the largest mean exceeds 10× the smallest.
func Bars(files []*harness.File, path string, opts ...Option) error {
	if err := checkFiles(files, "bars"); err != nil {
		return err
	}
	cfg := newConfig(opts)
	labels := labelsOf(files)
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
			xs := r.WallSeconds()
			if len(xs) == 0 {
				continue
			}
			d := hstats.Describe(xs)
			m, s := d.Mean, d.Stddev
			stats[j][i] = ms{m, s, true}
			lo, hi = math.Min(lo, m), math.Max(hi, m+s)
		}
	}
	if hi == 0 || math.IsInf(lo, 1) {
		return errors.New("bars chart: no successful run to draw")
	}
	unit, scale := timeUnit(hi)
	logScale := lo > 0 && hi/lo > wideSpread

	title := "Mean workload time per configuration (error bars ±1σ)"
	if logScale {
		title += ", log scale"
	}
	p := newPlot(title, "", "mean time ("+unit+")")
	multi := len(files) > 1
	w, barW, offset := groupLayout(len(labels), len(files), multi)
	var legend = newLegend()
	floor := 0.0
	if logScale {
		floor = math.Pow(10, math.Floor(math.Log10(lo*scale*0.8)))
	}
	p.Add(plotter.NewGrid())
	for j := range files {
		vals := make(plotter.Values, len(labels))
		var errs plotter.XYs
		var yerr plotter.YErrors
		for i, s := range stats[j] {
			if !s.ok {
				continue
			}
			vals[i] = s.mean*scale - floor
			low := s.std * scale
			if logScale {
				// A log axis cannot show the bar reaching below its floor.
				low = math.Min(low, (s.mean*scale-floor)*0.99)
			}
			errs = append(errs, plotter.XY{X: float64(i) + offset(j), Y: s.mean * scale})
			yerr = append(yerr, struct{ Low, High float64 }{low, s.std * scale})
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return fmt.Errorf("bars chart: %w", err)
		}
		bars.XMin = offset(j)
		bars.Color = seriesColor(j)
		bars.LineStyle.Width = vg.Points(0.5)
		if logScale {
			base, err := plotter.NewBarChart(constant(len(labels), floor), barW)
			if err != nil {
				return fmt.Errorf("bars chart: %w", err)
			}
			base.XMin = offset(j)
			bars.StackOn(base) // drawn from the floor, not from 0
		}
		p.Add(bars)
		if len(errs) > 0 {
			eb, err := plotter.NewYErrorBars(errorBars{errs, yerr})
			if err != nil {
				return fmt.Errorf("bars chart: %w", err)
			}
			eb.LineStyle.Width = vg.Points(1)
			eb.CapWidth = min(barW*0.5, vg.Points(10))
			p.Add(eb)
		}
		legend.Add(cfg.fileName(files, j), swatch{seriesColor(j)})
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	if !rotateX(p, labels, w) {
		// Upright labels fit in their slots: no room to leave for the
		// first one, as NominalX does (it would detach the axis).
		p.Y.Padding = 0
	}
	if logScale {
		logAxis(&p.Y, floor, hi*scale)
		p.Y.Min = floor
	} else {
		p.Y.Min = 0
	}
	if !multi {
		legend = nil
	}
	return save(p, legend, w, chartHeight, path)
}

func constant(n int, v float64) plotter.Values {
	out := make(plotter.Values, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// errorBars feeds plotter.NewYErrorBars.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}
