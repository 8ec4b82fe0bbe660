// Package charts draws rootbench results with gonum/plot, always on an
// absolute scale shared by every implementation: the time per unit of work
// (ns per cell for the message-passing workload, ns per call for the
// callback one), never a figure normalised to some configuration.
//
//   - Bars: the mean time per unit of each configuration, ±1σ, laid out
//     horizontally so that any number of configurations fits the width.
//   - Boxes: every run's time per unit, one box per configuration, likewise.
//   - Progression: every run's time per unit against its place in the
//     session, one series per configuration (at most MaxSeries per chart:
//     SeriesGroups splits the rest), to spot drift.
//   - Scan: time per unit against a scanned parameter, one line per cell
//     (and per value of the other varying parameters).
//   - History: one series of a history store by commit: each commit's
//     median with its interval, the change points' ranges as bands and the
//     segments' levels as a step line (as analysis found them).
//
// What holds for every chart: it is 22 cm wide at its default size (1299
// pixels in PNG, under 1600), whatever the number of configurations; it
// never mixes workloads or units of work (Bars and Boxes refuse files that
// do); a value axis is logarithmic only when the values span more than
// wideSpread (10×), and every tick it draws carries a label; series differ
// in colour or dash pattern (styleOf), for up to 40 series and so for the
// at most MaxSeries a chart draws. Every function writes one file, whose
// extension picks the format, .svg or .png. Output depends only on the
// input, so regenerating a report from the same results gives the same
// files.
package charts

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// Option adjusts a chart.
type Option func(*config)

type config struct {
	names  []string
	labels []string
	title  string
}

// WithNames names the files of a multi-file chart in its legend (file
// names, machine names); by default each file is named by its machine's
// host name, else its CPU model, else "file N".
func WithNames(names []string) Option {
	return func(c *config) { c.names = names }
}

// WithLabels restricts a chart to the configurations with these labels, in
// this order (SeriesGroups gives groups that fit one progression chart).
// Labels absent from every file are ignored.
func WithLabels(labels []string) Option {
	return func(c *config) { c.labels = labels }
}

// WithTitle appends a qualifier to the chart's title, such as the group a
// progression chart shows ("producers=2").
func WithTitle(qualifier string) Option {
	return func(c *config) { c.title = qualifier }
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

// title is base with the WithTitle qualifier, if any.
func (c config) titled(base string) string {
	if c.title == "" {
		return base
	}
	return base + ": " + c.title
}

// fileName is the legend name of file i.
func (c config) fileName(files []*harness.File, i int) string {
	if i < len(c.names) && c.names[i] != "" {
		return c.names[i]
	}
	m := files[i].Machine
	switch {
	case m.Hostname != "":
		return m.Hostname
	case m.CPUModel != "":
		return m.CPUModel
	}
	return fmt.Sprintf("file %d", i+1)
}

// selected returns the labels a chart of files draws: the WithLabels ones
// present in some file, else every label in first-seen order.
func (c config) selected(files []*harness.File) []string {
	all := labelsOf(files)
	if c.labels == nil {
		return all
	}
	var out []string
	for _, l := range c.labels {
		if slices.Contains(all, l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

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

// prepare starts a chart of several files (the what chart, for errors):
// it refuses an empty file list, a missing file, and files that do
// different kinds of work (workloads or units of work), which one axis
// cannot show, and returns the chart's configuration and the labels it
// draws.
func prepare(files []*harness.File, what string, opts []Option) (config, []string, error) {
	if len(files) == 0 {
		return config{}, nil, fmt.Errorf("%s chart: no results file", what)
	}
	for i, f := range files {
		if f == nil {
			return config{}, nil, fmt.Errorf("%s chart: results file %d is missing", what, i+1)
		}
	}
	for i, f := range files[1:] {
		if f.Workload != files[0].Workload || analysis.Unit(f) != analysis.Unit(files[0]) {
			return config{}, nil, fmt.Errorf("%s chart: file %d is workload %q in ns per %s, file 1 workload %q in ns per %s: draw one chart per workload",
				what, i+2, f.Workload, analysis.Unit(f), files[0].Workload, analysis.Unit(files[0]))
		}
	}
	cfg := newConfig(opts)
	return cfg, cfg.selected(files), nil
}

// slot is where file j of m sits in a configuration's row, as an offset
// from the row's centre line in rows: the first file on top, the m files
// spread evenly over 0.8 of the row.
func slot(j, m int) float64 { return (float64(m-1)/2 - float64(j)) * 0.8 / float64(m) }

// saveRows finishes and saves a horizontal chart of one row per label,
// the first label on top, each row row high and holding m files' marks
// (the legend naming the files only when there are several).
func saveRows(p *plot.Plot, legend *plot.Legend, labels []string, m int, row vg.Length, path string) error {
	n := len(labels)
	names := make([]string, n)
	for i, l := range labels {
		names[n-1-i] = l
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	if m == 1 {
		legend = nil
	}
	return save(p, legend, vg.Length(n)*row+frameHeight, path)
}

// wideSpread is the ratio of the largest to the smallest value beyond which
// a value axis is logarithmic: on a linear one the small values would
// flatten against zero.
const wideSpread = 10

// Sizes, in the units gonum/plot draws with. Every chart is chartWidth
// wide; line charts are lineHeight tall, and horizontal bar and box charts
// grow with their number of rows.
var (
	chartWidth  = 22 * vg.Centimeter
	lineHeight  = 12 * vg.Centimeter
	rowPitch    = 0.55 * vg.Centimeter
	frameHeight = 4.5 * vg.Centimeter
	minHeight   = 8 * vg.Centimeter
)

const pngDPI = 150

// maxWidthPixels is the width of every chart in PNG pixels: 22 cm at 150
// dots per inch, 1299 pixels.
var maxWidthPixels = int(math.Ceil(float64(chartWidth) / vg.Inch.Points() * pngDPI))

// save renders p, with an optional legend to its right (outside the data,
// so it never hides any), to path in the format its extension names.
func save(p *plot.Plot, legend *plot.Legend, h vg.Length, path string) error {
	w, h := chartWidth, max(h, minHeight)
	ext := strings.ToLower(filepath.Ext(path))
	var cw vg.CanvasWriterTo
	switch ext {
	case ".svg":
		cw = vgsvg.New(w, h)
	case ".png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	default:
		return fmt.Errorf("chart %s: unsupported extension %q: use .svg or .png", path, ext)
	}
	c := draw.New(cw)
	if ext == ".svg" {
		// A PNG canvas starts white; an SVG one transparent, which dark
		// viewers would show black.
		c.SetColor(color.White)
		c.Fill(c.Rectangle.Path())
	}
	p.BackgroundColor = nil // filled once, above or by the PNG canvas
	pad := vg.Length(6)
	pc := draw.Crop(c, pad, -pad, pad, -pad)
	if legend != nil {
		r := legend.Rectangle(pc)
		lw := r.Max.X - r.Min.X + 2*pad
		p.Draw(draw.Crop(pc, 0, -lw, 0, 0))
		lc := draw.Crop(pc, pc.Max.X-pc.Min.X-lw+2*pad, 0, 0, -(titleHeight(p) + pad))
		legend.Top = true
		legend.Left = true
		legend.Draw(lc)
	} else {
		p.Draw(pc)
	}
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return fmt.Errorf("chart %s: render: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("chart %s: %w", path, err)
	}
	return nil
}

func titleHeight(p *plot.Plot) vg.Length {
	if p.Title.Text == "" {
		return 0
	}
	r := p.Title.TextStyle.Rectangle(p.Title.Text)
	return r.Max.Y - r.Min.Y + p.Title.Padding
}

// newPlot is a plot with the common style: a title, a grid, larger text.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 13
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Label.TextStyle.Font.Size = 11
	p.Y.Label.TextStyle.Font.Size = 11
	p.X.Tick.Label.Font.Size = 10
	p.Y.Tick.Label.Font.Size = 10
	p.X.Tick.Marker = linearTicks{}
	p.Y.Tick.Marker = linearTicks{}
	return p
}

func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = 10
	l.Padding = vg.Points(2)
	l.ThumbnailWidth = vg.Points(24)
	return &l
}

// swatch is a legend thumbnail: a filled square.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	inset := (r.Max.Y - r.Min.Y) * 0.15
	pts := []vg.Point{
		{X: r.Min.X + inset, Y: r.Min.Y + inset}, {X: r.Min.X + inset, Y: r.Max.Y - inset},
		{X: r.Max.X - inset, Y: r.Max.Y - inset}, {X: r.Max.X - inset, Y: r.Min.Y + inset},
	}
	c.FillPolygon(s.c, pts)
}

// logTicks labels a log axis readably whatever its span, and draws no tick
// without a label: 1×, 2× and 5× every power of ten when the axis spans
// fewer than four decades (with powers of ten alone an axis from 20 to 80
// has no label at all), the powers of ten beyond; an axis within one such
// step gets its two ends.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max > min) {
		return nil
	}
	dense := math.Log10(max/min) < 4
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		p := math.Pow(10, e)
		for _, m := range []float64{1, 2, 5} {
			v := p * m
			if v < min*(1-1e-9) || v > max*(1+1e-9) || (m != 1 && !dense) {
				continue
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v)})
		}
	}
	if len(ticks) < 2 {
		ticks = []plot.Tick{{Value: min, Label: formatTick(min)}, {Value: max, Label: formatTick(max)}}
	}
	return ticks
}

// linearTicks labels a linear axis at round steps (1, 2 or 5 times a power
// of ten, about five to ten of them) and draws no tick without a label.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return nil
	}
	raw := (max - min) / 6
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := p * 10
	for _, m := range []float64{1, 2, 5} {
		if p*m >= raw {
			step = p * m
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v)})
	}
	return ticks
}

// valueTicks is one labelled tick at each of values: the scanned values of
// a parameter, each named on the axis.
func valueTicks(values []float64) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(values))
	for i, v := range values {
		ticks[i] = plot.Tick{Value: v, Label: formatTick(v)}
	}
	return ticks
}

// formatTick writes a tick value with up to four significant digits (all
// the integer digits from 1000 up) and no exponent between 0.001 and a
// million: 0.5, 20, 1500, 13873, 16384.
func formatTick(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6 || (a < 1e-3 && a > 0):
		return fmt.Sprintf("%.3g", v)
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// valueAxis sets ax to span [lo, hi] (positive values), logarithmic when
// they are more than wideSpread apart; otherwise linear, from zero when
// fromZero (bars, whose length must be proportional to the value) or else
// around the data (distributions and drift, where the spread matters). It
// reports whether it chose a log scale.
func valueAxis(ax *plot.Axis, lo, hi float64, fromZero bool) bool {
	switch {
	case lo > 0 && hi/lo > wideSpread:
		ax.Scale = plot.LogScale{}
		ax.Tick.Marker = logTicks{}
		ax.Min, ax.Max = lo/1.15, hi*1.15
		return true
	case fromZero:
		ax.Min, ax.Max = 0, hi*1.08
	default:
		pad := max(hi-lo, hi*0.02) * 0.08
		ax.Min, ax.Max = max(0, lo-pad), hi+pad
	}
	return false
}
