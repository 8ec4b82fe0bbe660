// Package charts draws rootbench results with gonum/plot: bars of the mean
// time per configuration with ±1σ error bars, box plots of every sample,
// parameter-scan lines (time per cell against a parameter, log axes) and
// run-progression charts (time against run index, to spot drift).
//
// Every function writes one file; the path's extension picks the format,
// .svg or .png. Output depends only on the input, so regenerating a report
// from the same results gives the same files.
package charts

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
	"github.com/rootbench/rootbench/report"
)

// Option adjusts a chart.
type Option func(*config)

type config struct {
	names []string
}

// WithNames names the files of a multi-file chart in its legend (file
// names, machine names); by default each file is named by its machine's
// host name, else its CPU model, else "file N".
func WithNames(names []string) Option {
	return func(c *config) { c.names = names }
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
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

// spread is how far apart the configurations' medians are: the largest
// over the smallest (1 with one configuration).
func spread(files ...*harness.File) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, f := range files {
		for i := range f.Results {
			if m := stats.Median(f.Results[i].WallSeconds()); m > 0 {
				lo, hi = math.Min(lo, m), math.Max(hi, m)
			}
		}
	}
	if hi == 0 {
		return 1
	}
	return hi / lo
}

// longestRun is the longest successful run's workload time, in seconds;
// 0 when there is no such run (or every one took no time).
func longestRun(files ...*harness.File) (hi float64) {
	for _, f := range files {
		for i := range f.Results {
			for _, x := range f.Results[i].WallSeconds() {
				hi = math.Max(hi, x)
			}
		}
	}
	return hi
}

// wideSpread is the spread beyond which one time axis cannot show every
// configuration's own variation: bars switch to a log axis, boxes and
// progression to times relative to each configuration's median.
const wideSpread = 10

// timeUnit picks the unit that keeps values around max readable (the
// terminal output's choice) and the factor from seconds to it.
func timeUnit(max float64) (name string, scale float64) {
	u := report.UnitFor(max)
	return u.String(), 1 / u.Seconds()
}

// Sizes, in the units gonum/plot draws with.
var (
	chartHeight = 12 * vg.Centimeter
	minWidth    = 16 * vg.Centimeter
)

const pngDPI = 150

// save renders p, with an optional legend to its right (outside the data,
// so it never hides any), to path in the format its extension names.
func save(p *plot.Plot, legend *plot.Legend, w, h vg.Length, path string) error {
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
	return p
}

// rotateX tilts long category labels so they do not overlap, and says
// whether it did.
func rotateX(p *plot.Plot, labels []string, width vg.Length) bool {
	longest := 0
	for _, l := range labels {
		longest = max(longest, len([]rune(l)))
	}
	// About 5.5 points per character at 10 points.
	if vg.Length(longest)*5.5*vg.Length(len(labels)) > width*0.8 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		return true
	}
	return false
}

func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = 10
	l.Padding = vg.Points(2)
	l.ThumbnailWidth = vg.Points(18)
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

// logTicks labels a log axis readably whatever its span: every power of ten,
// and 2× and 5× as well when the axis spans fewer than three decades (with
// LogTicks alone an axis from 20 to 80 has no label at all).
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max > min) {
		return nil
	}
	dense := math.Log10(max/min) < 3
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		p := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := p * float64(m)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (dense && (m == 2 || m == 5)) {
				t.Label = formatTick(v)
			}
			ticks = append(ticks, t)
		}
	}
	// An axis within one 1-2-5 step would show no label: label its ends.
	labelled := 0
	for _, t := range ticks {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		ticks = append(ticks, plot.Tick{Value: min, Label: formatTick(min)}, plot.Tick{Value: max, Label: formatTick(max)})
	}
	return ticks
}

func formatTick(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6 || (a < 1e-3 && a > 0):
		return fmt.Sprintf("%.3g", v)
	case a >= 1:
		return fmt.Sprintf("%.4g", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// logAxis sets a log scale on ax spanning [lo, hi], padded a little.
func logAxis(ax *plot.Axis, lo, hi float64) {
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{}
	ax.Min, ax.Max = lo/1.12, hi*1.12
}

// seriesColor is the i'th series colour, and lighter its fill variant.
func seriesColor(i int) color.Color { return plotutil.Color(i) }

func lighter(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8((v>>8)/2 + 128) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 255}
}
