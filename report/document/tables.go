package document

import (
	"fmt"
	"math"
	"strings"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// summary is the file's summary table: one row per configuration, one unit
// per column, named in its header. Times are in the unit that keeps the
// fastest mean at or above 1 (so no column mixes µs and ms, and none reads
// 0.001004), each row's σ, median and range with its mean's decimals.
func (d *doc) summary(f *harness.File) {
	if len(f.Results) == 0 {
		d.line("No results.")
		d.line("")
		return
	}
	fastest := math.Inf(1)
	for _, r := range f.Results {
		if report.Successful(&r) > 0 && r.Mean > 0 {
			fastest = math.Min(fastest, r.Mean)
		}
	}
	unit := report.UnitFor(fastest) // Second when no result has a mean
	scale := 1 / unit.Seconds()
	u := analysis.Unit(f)
	relHeader, rel, ref := relativeColumn(f)

	header := []string{"Configuration", "Mean ± σ [" + unit.String() + "]", "Median [" + unit.String() + "]",
		"Min [" + unit.String() + "]", "Max [" + unit.String() + "]", "ns/" + u}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
	if relHeader != "" {
		header = append(header, relHeader)
		align = append(align, tw.AlignRight)
	}
	header = append(header, "Runs")
	align = append(align, tw.AlignRight)

	rows := make([][]string, 0, len(f.Results))
	for i := range f.Results {
		r := &f.Results[i]
		label := report.MdEscape(r.Label)
		if i == ref {
			label += " (reference)"
		}
		ok := report.Successful(r)
		runs := fmt.Sprint(ok)
		if r.Failed > 0 {
			runs += fmt.Sprintf(" (%d failed)", r.Failed)
		}
		row := []string{label, report.Missing, report.Missing, report.Missing, report.Missing, report.Missing}
		if ok > 0 && r.Mean > 0 {
			dec := report.SignificantDecimals(r.Mean * scale)
			sd := report.Sigma(r.Stddev*scale, ok, func(x float64) string { return report.Fixed(x, dec) })
			row = []string{label, report.Fixed(r.Mean*scale, dec) + " ± " + sd, report.Fixed(r.Median*scale, dec),
				report.Fixed(r.Min*scale, dec), report.Fixed(r.Max*scale, dec), report.FourDigits(r.NsPerCell)}
		}
		if relHeader != "" {
			row = append(row, rel[i])
		}
		rows = append(rows, append(row, runs))
	}
	d.tableOrNote(header, align, rows)
}

// relativeColumn is the one place REPORT.md takes relative figures from:
// the summary's column header, one cell per result of f, and the index of
// the reference result (-1 for none; with several groups of equal work the
// references are marked in the cells instead). The figures are
// analysis.Relate's: on mean wall time when every configuration does the
// same work, per unit of work (labelled so) with one reference per
// parameter set when they differ.
func relativeColumn(f *harness.File) (header string, cells []string, ref int) {
	rel := analysis.Relate(f)
	header = "Relative ± σ"
	if b := rel.BasisLabel(); b != "" {
		header = "Relative " + b + " ± σ"
	}
	ref = -1
	if len(rel.Groups) == 1 {
		ref = rel.Groups[0].Reference
	}
	cells = make([]string, len(f.Results))
	for i, row := range rel.Rows {
		cells[i] = report.RelativeText(row)
		if row.OK && row.IsReference && ref < 0 {
			cells[i] += " (reference)" // several groups: mark each reference
		}
	}
	return header, cells, ref
}

// gcColumns are the GC table's columns: report.GCColumns without the
// workload's total time, which the summary already shows.
func gcColumns() []int {
	var out []int
	for k, c := range report.GCColumns {
		if c.Name != "total time" {
			out = append(out, k)
		}
	}
	return out
}

// gcNote explains the GC tables, once at the top of the report.
const gcNote = "Each file's GC table (the one with *gc cycles*) gives medians over each configuration's successful runs: *gc time* is the GC's CPU time on every thread, *gc cpu* its share of the process's CPU, *stopping time* the time taken to stop the world."

// gc writes ONE table for the file: a row per configuration, a column per
// GC figure (its unit in the header), each cell the median over the
// configuration's successful runs: counts as they are (3, or 2.5 for a
// median), times, shares and sizes with three significant digits
// (threeDigits).
func (d *doc) gc(f *harness.File) {
	cols := gcColumns()
	var labels []string
	var medians [][]float64
	for i := range f.Results {
		sums, n := report.GCSummary(&f.Results[i])
		if n == 0 {
			continue
		}
		labels = append(labels, f.Results[i].Label)
		row := make([]float64, len(cols))
		for j, k := range cols {
			row[j] = sums[k].Median
		}
		medians = append(medians, row)
	}
	if len(labels) == 0 {
		return
	}
	header := []string{"Configuration"}
	align := []tw.Align{tw.AlignLeft}
	for _, k := range cols {
		c := report.GCColumns[k]
		h := c.Name
		if c.Unit != "" {
			h += " [" + c.Unit + "]"
		}
		header = append(header, h)
		align = append(align, tw.AlignRight)
	}
	rows := make([][]string, len(labels))
	for i, l := range labels {
		rows[i] = []string{report.MdEscape(l)}
		for j, k := range cols {
			cell := threeDigits(medians[i][j])
			if report.GCColumns[k].Count {
				cell = report.Fixed(medians[i][j], -1) // as they are: 3, or 2.5 for a median
			}
			rows[i] = append(rows[i], cell)
		}
	}
	d.tableOrNote(header, align, rows)
}

// counters writes ONE table of the implementations' own counters
// (cell.Stater): a row per configuration that reports any, a column per
// counter that is not zero in every run, each cell the median over the
// configuration's successful runs.
func (d *doc) counters(f *harness.File) {
	type row struct {
		label   string
		medians map[string]float64
	}
	var rows []row
	nonzero := map[string]bool{}
	all := map[string]bool{}
	for i := range f.Results {
		r := &f.Results[i]
		medians, nz := analysis.CounterMedians(r)
		if len(medians) == 0 {
			continue
		}
		rows = append(rows, row{r.Label, medians})
		for k := range medians {
			all[k] = true
		}
		for k := range nz {
			nonzero[k] = true
		}
	}
	if len(rows) == 0 {
		return
	}
	names := report.SortedKeys(nonzero)
	var zero []string
	for _, k := range report.SortedKeys(all) {
		if !nonzero[k] {
			zero = append(zero, report.MdCode(k))
		}
	}
	intro := "Implementation counters (cell.Stater), median over each configuration's successful runs"
	if len(zero) > 0 {
		intro += "; zero in every run: " + strings.Join(zero, ", ")
	}
	d.line(intro + ".")
	d.line("")
	if len(names) == 0 {
		return
	}
	header := append([]string{"Configuration"}, names...)
	align := []tw.Align{tw.AlignLeft}
	for range names {
		align = append(align, tw.AlignRight)
	}
	cells := make([][]string, len(rows))
	for i, r := range rows {
		cells[i] = []string{report.MdEscape(r.label)}
		for _, k := range names {
			m, ok := r.medians[k]
			if !ok {
				cells[i] = append(cells[i], report.Missing)
				continue
			}
			cells[i] = append(cells[i], report.Fixed(m, -1))
		}
	}
	d.tableOrNote(header, align, cells)
}

// threeDigits writes v with three significant digits (all the integer
// digits from 100 up), and zero as "0": 22442, 403, 4.80, 0.104.
func threeDigits(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return report.Missing
	}
	return report.Fixed(v, max(0, 2-int(math.Floor(math.Log10(a)))))
}
