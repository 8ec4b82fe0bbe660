package charts

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rootbench/rootbench/report/historyreport"
)

// History writes one series of a history (rootbench history show, report
// --history): each commit's median, in commit order, with its interval as
// a whisker; each change point's range (last good..first bad: the commits
// a bisection searches) as a shaded band, red where the level rose and
// green where it fell, labelled with the change; and the level of each
// segment between change points (the geometric mean analysis compared) as
// a step line. Commits are named by short hash under the axis (as many as
// fit: every k-th, the first bad commit of each change point always). The
// value axis is absolute, logarithmic when the values span more than
// wideSpread. A commit whose runs all failed has no mark.
func History(s historyreport.Series, path string) error {
	var meds plotter.XYs
	var errs plotter.YErrors
	lo, hi := math.Inf(1), 0.0
	for i, p := range s.Points {
		if p.Median == nil {
			continue
		}
		m := *p.Median
		low, high := m, m
		if p.Lo != nil && p.Hi != nil {
			low, high = *p.Lo, *p.Hi
		}
		meds = append(meds, plotter.XY{X: float64(i), Y: m})
		errs = append(errs, struct{ Low, High float64 }{m - low, high - m})
		lo, hi = math.Min(lo, low), math.Max(hi, high)
	}
	if len(meds) == 0 {
		return errors.New("history chart: no commit with a successful run to draw")
	}
	yLabel := s.Unit
	if yLabel == "" {
		yLabel = s.Metric // a figure without a unit: the load, steal
	}
	p := newPlot(fmt.Sprintf("%s, %s by commit (series %d)", s.Benchmark, s.Metric, s.ID), "commit (oldest first)", yLabel)
	if valueAxis(&p.Y, lo, hi, false) {
		p.Y.Label.Text += " (log scale)"
	}
	// Room above the data for the change points' labels.
	if _, log := p.Y.Scale.(plot.LogScale); log {
		p.Y.Max *= 1.15
	} else {
		p.Y.Max += (p.Y.Max - p.Y.Min) * 0.12
	}
	n := len(s.Points)
	p.X.Min, p.X.Max = -0.6, float64(n)-0.4
	p.X.Tick.Marker = commitTicks(s)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Add(plotter.NewGrid())
	legend := newLegend()

	// Translucent fills (not premultiplied: NRGBA), so that the grid and
	// the whiskers show through.
	up, down := color.NRGBA{0xd6, 0x27, 0x28, 0x38}, color.NRGBA{0x2c, 0xa0, 0x2c, 0x38}
	var labels plotter.XYLabels
	rose, fell := false, false
	for k, c := range s.ChangePoints {
		fill := down
		if c.Up() {
			fill = up
		}
		rose, fell = rose || c.Up(), fell || !c.Up()
		band, err := plotter.NewPolygon(plotter.XYs{
			{X: float64(c.LastGoodIndex), Y: p.Y.Min}, {X: float64(c.FirstBadIndex), Y: p.Y.Min},
			{X: float64(c.FirstBadIndex), Y: p.Y.Max}, {X: float64(c.LastGoodIndex), Y: p.Y.Max},
		})
		if err != nil {
			return fmt.Errorf("history chart: %w", err)
		}
		band.Color = fill
		band.LineStyle.Width = 0
		p.Add(band)
		// Neighbouring labels alternate between two heights.
		labels.XYs = append(labels.XYs, plotter.XY{X: float64(c.LastGoodIndex+c.FirstBadIndex) / 2, Y: labelHeight(p, k%2)})
		labels.Labels = append(labels.Labels, fmt.Sprintf("(%d) %+.1f%%", c.Number, 100*(c.Ratio-1)))
	}
	if rose {
		legend.Add("range of a rise", swatch{up})
	}
	if fell {
		legend.Add("range of a fall", swatch{down})
	}

	steps, err := levelSteps(s)
	if err != nil {
		return err
	}
	if steps != nil {
		steps.LineStyle = draw.LineStyle{Color: color.RGBA{0x7f, 0x7f, 0x7f, 0xff}, Width: vg.Points(1.5), Dashes: dashPatterns[1]}
		p.Add(steps)
		legend.Add("segment level", steps)
	}

	style := styleOf(0)
	eb, err := plotter.NewYErrorBars(yErrorBars{meds, errs})
	if err != nil {
		return fmt.Errorf("history chart: %w", err)
	}
	eb.LineStyle = style.lineStyle(vg.Points(1))
	eb.CapWidth = vg.Points(4)
	points, err := plotter.NewScatter(meds)
	if err != nil {
		return fmt.Errorf("history chart: %w", err)
	}
	points.GlyphStyle = style.glyphStyle(vg.Points(2.5))
	p.Add(eb, points)
	legend.Add("median, interval", points)

	if len(labels.Labels) > 0 {
		text, err := plotter.NewLabels(labels)
		if err != nil {
			return fmt.Errorf("history chart: %w", err)
		}
		for k := range text.TextStyle {
			text.TextStyle[k].Font.Size = 9
			text.TextStyle[k].XAlign = draw.XCenter
		}
		p.Add(text)
	}
	return save(p, legend, lineHeight, path)
}

// labelHeight is where the change points' labels sit: near the top of the
// value axis, in the room left above the data, on one of two rows.
func labelHeight(p *plot.Plot, row int) float64 {
	if _, log := p.Y.Scale.(plot.LogScale); log {
		return p.Y.Max / math.Pow(1.05, float64(1+row))
	}
	return p.Y.Max - (p.Y.Max-p.Y.Min)*0.05*float64(1+row)
}

// levelSteps is the step line of the segments' levels: each segment
// between change points at its geometric mean, from half a commit before
// its first point to half a commit after its last; nil without change
// points (the series has one segment, which analysis did not summarise).
func levelSteps(s historyreport.Series) (*plotter.Line, error) {
	if len(s.ChangePoints) == 0 {
		return nil, nil
	}
	var xys plotter.XYs
	segment := func(from, to int, level float64) {
		xys = append(xys, plotter.XY{X: float64(from) - 0.5, Y: level}, plotter.XY{X: float64(to) - 0.5, Y: level})
	}
	for _, c := range s.ChangePoints {
		segment(c.From, c.Index, c.Before)
	}
	last := s.ChangePoints[len(s.ChangePoints)-1]
	segment(last.Index, last.To, last.After)
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("history chart: %w", err)
	}
	return line, nil
}

// maxCommitTicks is the most commits named at regular steps under the
// axis; tickRoom is how many vertical labels the axis has room for side by
// side.
const (
	maxCommitTicks = 24
	tickRoom       = 40
)

// commitTicks names commits under the axis by short hash, as many as fit
// without overlapping (tickGap apart): first each change point's first bad
// commit, then its last good one (the range to bisect), then every k-th
// commit (at most maxCommitTicks).
func commitTicks(s historyreport.Series) plot.ConstantTicks {
	n := len(s.Points)
	gap := float64(n) / tickRoom
	named := map[int]bool{}
	name := func(i int) {
		for j := range named {
			if math.Abs(float64(i-j)) < gap {
				return
			}
		}
		named[i] = true
	}
	for _, c := range s.ChangePoints {
		name(c.FirstBadIndex)
	}
	for _, c := range s.ChangePoints {
		name(c.LastGoodIndex)
	}
	every := max(1, int(math.Ceil(float64(n)/maxCommitTicks)))
	for i := 0; i < n; i += every {
		name(i)
	}
	var ticks plot.ConstantTicks
	for i := range n {
		if named[i] {
			// A trailing space keeps the vertical label off its tick mark.
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: s.Points[i].Short + " "})
		}
	}
	return ticks
}

// yErrorBars feeds plotter.NewYErrorBars.
type yErrorBars struct {
	plotter.XYs
	plotter.YErrors
}
