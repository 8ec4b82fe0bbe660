package charts

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// params returns a result's effective parameters: the file's, overridden
// by the result's own.
func params(f *harness.File, r *harness.Result) map[string]string {
	m := make(map[string]string, len(f.Params)+len(r.Params))
	maps.Copy(m, f.Params)
	maps.Copy(m, r.Params)
	return m
}

// number parses a parameter value as a number, accepting _ separators
// (100_000) as the command line does.
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), "_", ""), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// varying returns the parameters (other than the cell) that take more than
// one value across f's results, sorted.
func varying(f *harness.File) []string {
	values := map[string]map[string]bool{}
	for i := range f.Results {
		for k, v := range params(f, &f.Results[i]) {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][v] = true
		}
	}
	var out []string
	for _, k := range report.SortedKeys(values) {
		if len(values[k]) > 1 && !strings.EqualFold(k, "cell") {
			out = append(out, k)
		}
	}
	return out
}

// ScanParams returns the parameters f scans: those that take at least two
// values across its results, every one a positive number (a log axis needs
// them), sorted by name. Scan draws each of them.
func ScanParams(f *harness.File) []string {
	var out []string
	for _, k := range varying(f) {
		ok := true
		for i := range f.Results {
			v, isNum := number(params(f, &f.Results[i])[k])
			if !isNum || v <= 0 {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, k)
		}
	}
	return out
}

// nsPerUnit is the mean over successful runs of wall time per unit of work
// (cell or call), in nanoseconds.
func nsPerUnit(r *harness.Result) (float64, bool) {
	d := analysis.DescribeUnitTimes(r)
	return d.Mean, d.N > 0 && d.Mean > 0
}

// Scan writes a line chart of the time per unit of work (ns per cell, or
// per call) against the parameter param, both axes logarithmic, one line per
// cell (and per combination of the other varying parameters). param must
// be one of ScanParams(f); the error lists them otherwise.
func Scan(f *harness.File, param string, path string) error {
	if f == nil {
		return errors.New("scan chart: no results file")
	}
	scans := ScanParams(f)
	if !slices.Contains(scans, param) {
		accepted := "none: the file scans no numeric parameter"
		if len(scans) > 0 {
			accepted = strings.Join(scans, ", ")
		}
		return fmt.Errorf("scan chart: parameter %q is not scanned with numeric values in this file; accepted: %s", param, accepted)
	}
	others := slices.DeleteFunc(varying(f), func(k string) bool { return k == param })

	type point struct{ x, y float64 }
	series := map[string][]point{}
	var order []string
	cellIndex, otherIndex := map[string]int{}, map[string]int{}
	style := map[string][2]int{}
	xlo, xhi, ylo, yhi := math.Inf(1), 0.0, math.Inf(1), 0.0
	for i := range f.Results {
		r := &f.Results[i]
		ps := params(f, r)
		x, _ := number(ps[param])
		y, ok := nsPerUnit(r)
		if !ok {
			continue
		}
		name, rest := r.Cell, ""
		for _, k := range others {
			rest += " " + k + "=" + ps[k]
		}
		name += rest
		if _, seen := series[name]; !seen {
			order = append(order, name)
			if _, ok := cellIndex[r.Cell]; !ok {
				cellIndex[r.Cell] = len(cellIndex)
			}
			if _, ok := otherIndex[rest]; !ok {
				otherIndex[rest] = len(otherIndex)
			}
			style[name] = [2]int{cellIndex[r.Cell], otherIndex[rest]}
		}
		series[name] = append(series[name], point{x, y})
		xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
		ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
	}
	if len(order) == 0 {
		return errors.New("scan chart: no successful run with a unit count to draw")
	}
	unit := analysis.Unit(f)
	p := newPlot(fmt.Sprintf("Mean time per %s against %s", unit, param), param+" (log scale)", "ns per "+unit)
	p.Add(plotter.NewGrid())
	legend := newLegend()
	// Colour follows the cell and the dash pattern the other parameters'
	// values while both fit their palettes; beyond, each series takes the
	// next styleOf, distinct for up to 40 series.
	grid := len(cellIndex) <= len(palette) && len(otherIndex) <= len(dashPatterns)
	var xs []float64
	for n, name := range order {
		pts := series[name]
		c, o := style[name][0], style[name][1]
		st := styleOf(n)
		if grid {
			st = gridStyle(c, o, o)
		}
		slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.x, b.x) })
		xys := make(plotter.XYs, len(pts))
		for k, pt := range pts {
			xys[k] = plotter.XY{X: pt.x, Y: pt.y}
			if !slices.Contains(xs, pt.x) {
				xs = append(xs, pt.x)
			}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("scan chart %s: %w", name, err)
		}
		line.LineStyle = st.lineStyle(vg.Points(1.5))
		points.GlyphStyle = st.glyphStyle(vg.Points(3))
		p.Add(line, points)
		legend.Add(name, line, points)
	}
	// The scanned values, each a labelled tick, on a log axis.
	slices.Sort(xs)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = valueTicks(xs)
	p.X.Min, p.X.Max = xlo/1.25, xhi*1.25
	if valueAxis(&p.Y, ylo, yhi, true) {
		p.Y.Label.Text += " (log scale)"
	}
	return save(p, legend, lineHeight, path)
}
