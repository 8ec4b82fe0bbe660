package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/harness"
)

// Summary prints the comparison of every result in f: a table
//
//	Cell | Mean [unit] | ± σ | ns/cell | Throughput | Relative (± σ)
//
// (Variant instead of Cell for the callback workload)
//
// with the reference row marked "(reference)", then hyperfine's sentences,
// one per other result that has a successful run, e.g.
//
//	'ocaml' ran 2.17 ± 0.04 times faster than 'boxroot'
//
// When the reference is not the fastest, results faster than it read
// "'ref' ran 1.25 ± 0.02 times slower than 'x'" (the factor is then x's speed
// over the reference's, its σ propagated the same way). The reference is
// chosen by harness.File.ReferenceResult; the order of rows and sentences by o.Sort (see
// SortAuto); times are in one unit for the whole table (TableUnit).
func Summary(w io.Writer, f *harness.File, o Options) {
	p := painter(o.Style.Color())
	u := TableUnit(f, o.Unit)
	ref := f.ReferenceResult()
	order := Order(f, o.Sort)
	unit := workUnit(f)

	fmt.Fprintln(w, p.paint("Summary", ansiBold))
	rows := make([][]string, 0, len(order))
	for _, i := range order {
		r := &f.Results[i]
		name := r.Label
		if r == ref {
			name += " (reference)"
		}
		if !measured(r) {
			rows = append(rows, []string{name, "failed", "-", "-", "-", "-"})
			continue
		}
		perCell, throughput := "-", "-"
		if r.NsPerCell > 0 {
			perCell = fmt.Sprintf("%.2f", r.NsPerCell)
		}
		if r.CellsPerSec > 0 {
			throughput = rate(r.CellsPerSec, unit)
		}
		rows = append(rows, []string{name, u.Value(r.Mean), u.Value(r.Stddev), perCell, throughput, relativeText(r, ref)})
	}
	first := "Cell"
	if f.Workload == "callback" {
		first = "Variant"
	}
	header := []string{first, "Mean [" + u.String() + "]", "± σ", "ns/" + unit, "Throughput", "Relative (± σ)"}
	if err := renderTable(w, header, rows, []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}); err != nil {
		fmt.Fprintf(w, "(summary table not rendered: %v)\n", err)
	}

	if ref == nil {
		fmt.Fprintln(w, "  No benchmark has a successful run: nothing to compare.")
		return
	}
	for _, line := range Sentences(f, o) {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// relativeText is a result's Relative cell: "1.00" for the reference,
// "2.17 ± 0.04" for the others, "-" when it has no ratio.
func relativeText(r, ref *harness.Result) string {
	ratio, sd, ok := Relative(r, ref)
	switch {
	case !ok:
		return "-"
	case r == ref:
		return "1.00"
	}
	return fmt.Sprintf("%.2f ± %.2f", ratio, sd)
}

// Sentences returns hyperfine's comparison sentences for f, one per result
// other than the reference that has a successful run, in o.Sort order:
// "'ref' ran 2.17 ± 0.04 times faster than 'x'", "'ref' ran 1.25 ± 0.02 times
// slower than 'x'" when x is faster, "'ref' ran as fast as 'x' (1.00 ± 0.01)"
// when the means are equal. Names are quoted; colour follows o.Style.
func Sentences(f *harness.File, o Options) []string {
	p := painter(o.Style.Color())
	ref := f.ReferenceResult()
	if ref == nil {
		return nil
	}
	var out []string
	for _, i := range Order(f, o.Sort) {
		r := &f.Results[i]
		ratio, sd, ok := Relative(r, ref)
		if !ok || r == ref {
			continue
		}
		refName := p.paint("'"+ref.Label+"'", ansiCyan)
		name := p.paint("'"+r.Label+"'", ansiMagenta)
		switch {
		case ratio > 1:
			out = append(out, fmt.Sprintf("%s ran %s times faster than %s", refName, factor(p, ratio, sd), name))
		case ratio < 1:
			// x is faster: the reference is 1/ratio times slower, with
			// σ(1/q) = σq / q² (the same relative uncertainty).
			out = append(out, fmt.Sprintf("%s ran %s times slower than %s", refName, factor(p, 1/ratio, sd/(ratio*ratio)), name))
		default:
			out = append(out, fmt.Sprintf("%s ran as fast as %s (%s)", refName, name, factor(p, ratio, sd)))
		}
	}
	return out
}

// factor formats "2.17 ± 0.04" with hyperfine's colours.
func factor(p painter, x, sd float64) string {
	s := p.paint(fmt.Sprintf("%.2f", x), ansiBold, ansiGreen)
	if sd > 0 && !math.IsInf(sd, 0) && !math.IsNaN(sd) {
		s += " ± " + p.paint(fmt.Sprintf("%.2f", sd), ansiGreen)
	}
	return s
}

// renderTable draws a box table (Unicode rules, as tablewriter's default
// renderer draws them) with header cells as given (no upper-casing) and the
// given column alignments for header and rows alike. A header cell holding
// "\n" spans two header lines.
func renderTable(w io.Writer, header []string, rows [][]string, align []tw.Align) error {
	t := tablewriter.NewTable(w, tablewriter.WithConfig(tablewriter.Config{
		Header: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
		Row: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
	}))
	t.Header(toAny(header)...)
	for _, r := range rows {
		if err := t.Append(toAny(r)...); err != nil {
			return fmt.Errorf("table row %q: %w", strings.Join(r, " | "), err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	return nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
