package report

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/olekukonko/tablewriter/tw"
	"gonum.org/v1/gonum/stat"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// gcColumn is one column of the GC table: a name, a unit and the figure
// taken from each run, already in that unit.
type gcColumn struct {
	name, unit string
	value      func(*harness.Run) float64
}

// gcColumns are the GC table's columns. MB are 10⁶ bytes.
var gcColumns = []gcColumn{
	{"total time", "ms", func(r *harness.Run) float64 { return float64(r.WallNs) / 1e6 }},
	// GC CPU time summed over every thread (/cpu/classes/gc/total).
	{"gc time", "ms", func(r *harness.Run) float64 { return float64(r.GC.CPUTotalNs) / 1e6 }},
	{"gc cpu", "%", func(r *harness.Run) float64 { return r.GC.CPUPercent }},
	{"max pause", "ms", func(r *harness.Run) float64 { return float64(r.GC.MaxPauseNs) / 1e6 }},
	// Total time spent stopping the world (time to safepoint).
	{"stopping time", "µs", func(r *harness.Run) float64 { return float64(r.GC.StoppingNs) / 1e3 }},
	{"peak heap", "MB", func(r *harness.Run) float64 { return float64(r.GC.PeakHeapBytes) / 1e6 }},
	{"peak RSS", "MB", func(r *harness.Run) float64 { return float64(r.PeakRSSBytes) / 1e6 }},
}

// GCTable prints r's garbage-collector figures over its successful runs in
// the layout of the min/median/max/stdev GC tables of runtime pull requests:
// a title line with the label, then a box table whose header has two lines
// (the figure's name, then its unit) and whose rows are minimum, median,
// maximum and stdev (the sample standard deviation; "-" with a single run).
// The columns are total time (the workload's wall time, ms), gc time (GC
// CPU time summed over threads, ms), gc cpu (GC share of the process's CPU,
// %), max pause (ms), stopping time (total stop-the-world stopping time,
// µs), peak heap and peak RSS (MB = 10⁶ bytes). Each column keeps one number
// of decimals, chosen from its largest figure.
func GCTable(w io.Writer, r *harness.Result, o Options) {
	p := painter(o.Style.Color())
	var runs []*harness.Run
	for i := range r.Runs {
		if !r.Runs[i].Failed {
			runs = append(runs, &r.Runs[i])
		}
	}
	fmt.Fprintf(w, "%s (%d successful run%s)\n", p.paint("GC: "+r.Label, ansiBold), len(runs), plural(len(runs)))
	if len(runs) == 0 {
		fmt.Fprintln(w, "  no successful runs: no GC figures.")
		return
	}

	header := []string{""}
	cells := [4][]string{{"minimum"}, {"median"}, {"maximum"}, {"stdev"}}
	for _, c := range gcColumns {
		header = append(header, c.name+"\n"+c.unit)
		xs := make([]float64, len(runs))
		for i, run := range runs {
			xs[i] = c.value(run)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range xs {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		sd := math.NaN()
		if len(xs) > 1 {
			sd = stat.StdDev(xs, nil)
		}
		d := decimals(math.Max(math.Abs(lo), math.Abs(hi)))
		for i, x := range []float64{lo, stats.Median(xs), hi, sd} {
			cells[i] = append(cells[i], fixed(x, d))
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

// decimals picks how many decimals a column whose largest magnitude is max
// shows: none from 100 up, one from 1, two below.
func decimals(max float64) int {
	switch {
	case max >= 100:
		return 0
	case max >= 1:
		return 1
	}
	return 2
}

// fixed formats x with d decimals, or "-" when x is not a number.
func fixed(x float64, d int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}
