package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// GCColumn is one column of the GC table: a name, a unit and the figure
// taken from each run, already in that unit. Count marks whole-number
// figures.
type GCColumn struct {
	Name, Unit string
	Count      bool
	Value      func(*harness.Run) float64
}

// GCColumns are the GC table's columns, in the terminal (GCTable) and in
// REPORT.md alike, after the GC table of the runtime pull request in
// ../shared/reference/003. MB are 10⁶ bytes.
var GCColumns = []GCColumn{
	{Name: "total time", Unit: "ms", Value: func(r *harness.Run) float64 { return float64(r.WallNs) / 1e6 }},
	{Name: "gc cycles", Unit: "", Count: true, Value: func(r *harness.Run) float64 { return float64(r.GC.Cycles) }},
	// GC CPU time summed over every thread (/cpu/classes/gc/total).
	{Name: "gc time", Unit: "ms", Value: func(r *harness.Run) float64 { return float64(r.GC.CPUTotalNs) / 1e6 }},
	{Name: "gc cpu", Unit: "%", Value: func(r *harness.Run) float64 { return r.GC.CPUPercent }},
	{Name: "total pause", Unit: "ms", Value: func(r *harness.Run) float64 { return float64(r.GC.TotalPauseNs) / 1e6 }},
	{Name: "max pause", Unit: "ms", Value: func(r *harness.Run) float64 { return float64(r.GC.MaxPauseNs) / 1e6 }},
	// Total time spent stopping the world (time to safepoint).
	{Name: "stopping time", Unit: "µs", Value: func(r *harness.Run) float64 { return float64(r.GC.StoppingNs) / 1e3 }},
	{Name: "peak heap", Unit: "MB", Value: func(r *harness.Run) float64 { return float64(r.GC.PeakHeapBytes) / 1e6 }},
	{Name: "peak RSS", Unit: "MB", Value: func(r *harness.Run) float64 { return float64(r.PeakRSSBytes) / 1e6 }},
}

// GCStats is one GC column over a result's successful runs: the summary
// analysis.DescribeRuns computes (N runs, minimum, median, maximum,
// sample standard deviation), and Decimals, the number of decimals the
// column is shown with (chosen from its largest magnitude; none for
// counts).
type GCStats struct {
	stats.Summary
	Decimals int
	Count    bool // a whole-number column (GCColumn.Count)
}

// GCSummary returns the GCStats of every column of GCColumns over r's
// successful runs, and the number of those runs (nil stats when there are
// none).
func GCSummary(r *harness.Result) ([]GCStats, int) {
	out := make([]GCStats, len(GCColumns))
	for k, c := range GCColumns {
		s := GCStats{Summary: analysis.DescribeRuns(r, c.Value)}
		if s.N == 0 {
			return nil, 0
		}
		s.Decimals = ColumnDecimals(math.Max(math.Abs(s.Min), math.Abs(s.Max)))
		if c.Count {
			s.Decimals, s.Count = 0, true
		}
		out[k] = s
	}
	return out, out[0].N
}

// Cells formats s as the table's four cells: minimum, median, maximum and
// stdev (Missing for a single run, which has none). A median or stdev of
// counts that is not whole gets one decimal.
func (s GCStats) Cells() [4]string {
	var out [4]string
	for i, x := range []float64{s.Min, s.Median, s.Max, s.Stddev} {
		d := s.Decimals
		if s.Count && x != math.Trunc(x) && !math.IsNaN(x) {
			d = 1
		}
		out[i] = Fixed(x, d)
	}
	if s.N < 2 {
		out[3] = Missing
	}
	return out
}

// GCTable prints r's garbage-collector figures over its successful runs in
// the layout of the min/median/max/stdev GC tables of runtime pull requests:
// a title line with the label, then a box table whose header has two lines
// (the figure's name, then its unit) and whose rows are minimum, median,
// maximum and stdev (the sample standard deviation; "-" with a single run).
// The columns are GCColumns: total time (the workload's wall time, ms), gc
// cycles, gc time (GC CPU time summed over threads, ms), gc cpu (GC share of
// the process's CPU, %), total pause (stop-the-world, ms), max pause (ms),
// stopping time (total stop-the-world stopping time, µs), peak heap and peak
// RSS (MB = 10⁶ bytes). Each column keeps one number of decimals, chosen from
// its largest figure (GCSummary).
func GCTable(w io.Writer, r *harness.Result, o Options) {
	p := painter(o.Style.Color())
	sums, n := GCSummary(r)
	fmt.Fprintf(w, "%s (%d successful run%s)\n", p.paint("GC: "+r.Label, ansiBold), n, Plural(n))
	if n == 0 {
		fmt.Fprintln(w, "  no successful runs: no GC figures.")
		return
	}
	header := []string{""}
	cells := [4][]string{{"minimum"}, {"median"}, {"maximum"}, {"stdev"}}
	for k, c := range GCColumns {
		header = append(header, c.Name+"\n"+c.Unit)
		for i, cell := range sums[k].Cells() {
			cells[i] = append(cells[i], cell)
		}
	}
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	if err := renderTable(w, header, cells[:], align); err != nil {
		fmt.Fprintf(w, "(GC table not rendered: %v)\n", err)
	}
}

// GCSideBySide prints the garbage-collector figures of one configuration
// measured on two sides (the base and head builds of `rootbench ab`, say)
// in one table: a row per GCColumns metric (its unit in the name), the
// base's minimum, median, maximum and stdev, the head's, and the change of
// the median. A side without successful runs shows "—". The title line
// names the configuration and each side's run count. When o.Width is set
// and the table is wider, it keeps the two medians and their change.
func GCSideBySide(w io.Writer, label string, base, head *harness.Result, o Options) {
	p := painter(o.Style.Color())
	bs, bn := gcSummaryOf(base)
	hs, hn := gcSummaryOf(head)
	fmt.Fprintf(w, "%s (base %d run%s, head %d run%s)\n", p.paint("GC: "+label, ansiBold), bn, Plural(bn), hn, Plural(hn))
	header := []string{"metric", "base\nminimum", "\nmedian", "\nmaximum", "\nstdev",
		"head\nminimum", "\nmedian", "\nmaximum", "\nstdev", "median\nchange"}
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	align[0] = tw.AlignLeft
	rows := make([][]string, len(GCColumns))
	for k, c := range GCColumns {
		name := c.Name
		if c.Unit != "" {
			name += " [" + c.Unit + "]"
		}
		row := []string{name}
		for _, s := range [][]GCStats{bs, hs} {
			if s == nil {
				row = append(row, Missing, Missing, Missing, Missing)
				continue
			}
			// One number of decimals per metric, across both sides.
			st := s[k]
			if !st.Count && bs != nil && hs != nil {
				st.Decimals = min(bs[k].Decimals, hs[k].Decimals)
			}
			cells := st.Cells()
			row = append(row, cells[:]...)
		}
		change := Missing
		if bs != nil && hs != nil {
			if d, ok := analysis.MedianChange(bs[k].Summary, hs[k].Summary); ok {
				change = fmt.Sprintf("%+.1f%%", 100*d)
			}
		}
		rows[k] = append(row, change)
	}
	full := func() (string, error) {
		var buf strings.Builder
		err := renderTable(&buf, header, rows, align)
		return buf.String(), err
	}
	// Too wide for the terminal: the medians and their change only.
	narrow := func() (string, error) {
		keep := []int{0, 2, 6, 9}
		cells := make([][]string, len(rows))
		for k, r := range rows {
			for _, i := range keep {
				cells[k] = append(cells[k], r[i])
			}
		}
		var buf strings.Builder
		err := renderTable(&buf, []string{"metric", "base\nmedian", "head\nmedian", "median\nchange"}, cells,
			[]tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight})
		return buf.String(), err
	}
	table, err := FirstFit(o.Width, full, narrow)
	if err != nil {
		fmt.Fprintf(w, "(GC table not rendered: %v)\n", err)
		return
	}
	fmt.Fprint(w, table)
}

func gcSummaryOf(r *harness.Result) ([]GCStats, int) {
	if r == nil {
		return nil, 0
	}
	return GCSummary(r)
}
