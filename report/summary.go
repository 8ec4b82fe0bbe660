package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// Summary prints the comparison of every result in f, as package analysis
// decides it once (analysis.Summarize: relatives, headline, the incumbent's
// factors, the CPU time per unit of work, the gathered warnings): a table
//
//	Cell | Mean [unit] | ± σ | CV | ns/cell [| cpu-ns/cell] | Relative (± σ) [| vs cgo-handle]
//
// (Variant instead of Cell for the callback workload; cpu-ns/cell, the CPU
// time of the measured passes per unit of work, when o.CPU asks for it,
// Missing for a result whose runs did not measure it) with each group's
// reference marked "(reference)", then hyperfine's sentences, one per
// other result that has a successful run, e.g.
//
//	'ocaml' ran 2.17 ± 0.04 times faster than 'boxroot'
//
// When the results do different amounts of work (a parameter scan) the
// relatives are per unit of work, and the header and sentences say so
// ("Relative per cell", "ran 11.40 ± 0.31 times faster per cell than");
// a scan crossing cells with parameters compares the cells within each
// parameter set and closes with each cell's cost per unit against the
// parameter. When the reference is not the fastest, results faster than
// it read "'ref' ran 1.25 ± 0.02 times slower than 'x'". When the file is a
// message-passing run holding cgo-handle (Go's incumbent), a column states
// each cell against it. The order of rows follows o.Sort (see SortAuto);
// times are in one unit for the whole table (TableUnit). A single run's σ
// reads "—".
//
// When o.Width is set and the table is wider, it is narrowed step by step
// until it fits (summaryLayouts): two-line headers (mean, relative), with
// the column against the incumbent reading "× faster than" it; then
// without the ± σ column (CV remains); then without the relative column
// (the sentences state every relative).
func Summary(w io.Writer, f *harness.File, o Options) {
	s := analysis.Summarize(f)
	rel := s.Relatives
	p := painter(o.Style.Color())
	u := TableUnit(f, o.Unit)
	order := Order(f, rel, o.Sort)
	unit := rel.Unit

	fmt.Fprintln(w, p.paint("Summary", ansiBold))
	for _, line := range headline(f, s.Headline) {
		fmt.Fprintf(w, "  %s\n", WrapWords(line, o.Width, 2, "    "))
	}
	rows := make([]summaryRow, 0, len(order))
	for _, i := range order {
		r, x := &f.Results[i], s.Rows[i]
		name := r.Label
		if x.IsReference {
			name += " (reference)"
		}
		n := Successful(r)
		if n == 0 {
			rows = append(rows, summaryRow{name, "failed", Missing, Missing, Missing, Missing, Missing, Missing, Missing})
			continue
		}
		perCell, cpuPerCell, cv := Missing, Missing, Missing
		if r.NsPerCell > 0 {
			perCell = fmt.Sprintf("%.2f", r.NsPerCell)
		}
		if x.HasCPUPerUnit {
			cpuPerCell = fmt.Sprintf("%.2f", x.CPUPerUnit)
		}
		if n > 1 {
			cv = fmt.Sprintf("%.1f%%", 100*r.CV)
		}
		rows = append(rows, summaryRow{name, u.Value(r.Mean), Sigma(r.Stddev, n, u.Value), cv, perCell, cpuPerCell, RelativeText(x.Relative),
			incumbentText(x), incumbentFactor(x)})
	}
	first := "Cell"
	if f.Workload == "callback" {
		first = "Variant"
	}
	relHeader := "Relative (± σ)"
	if b := rel.BasisLabel(); b != "" {
		relHeader = "Relative " + b + " (± σ)"
	}
	st := summaryTable{first: first, timeUnit: u.String(), unit: unit, relHeader: relHeader, incumbent: rel.Incumbent, rows: rows}
	layouts := summaryLayouts(rel.Incumbent != "", o.CPU)
	renders := make([]func() (string, error), len(layouts))
	for k, l := range layouts {
		renders[k] = func() (string, error) { return st.render(l) }
	}
	table, err := FirstFit(o.Width, renders...)
	if err != nil {
		table = fmt.Sprintf("(summary table not rendered: %v)\n", err)
	}
	fmt.Fprint(w, table)

	lines := sentences(f, s, o)
	if len(lines) == 0 && !s.Compared {
		fmt.Fprintln(w, "  No benchmark has a successful run: nothing to compare.")
		return
	}
	for _, line := range lines {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, warn := range append(rel.Warnings, gatheredWarnings(f, s)...) {
		fmt.Fprintf(w, "  %s: %s\n", p.paint("Warning", ansiYellow), WrapWords(warn, o.Width, len("  Warning: "), "    "))
	}
	if len(rel.Groups) > 1 {
		fmt.Fprintln(w)
		scanTable(w, f, rel)
	}
}

// summaryRow is one row of the summary's cells: label, mean, σ, CV, cost
// per unit, CPU time per unit, relative, against the incumbent (wide),
// against the incumbent (narrow: the factor alone, under a "× faster than"
// header).
type summaryRow [9]string

// summaryTable is what the summary table shows, before a layout.
type summaryTable struct {
	first, timeUnit, unit, relHeader, incumbent string
	rows                                        []summaryRow
}

// render draws the table in layout l.
func (st summaryTable) render(l summaryLayout) (string, error) {
	header := []string{st.first, "Mean [" + st.timeUnit + "]", "± σ", "CV", "ns/" + st.unit, "cpu-ns/" + st.unit, st.relHeader, "vs " + st.incumbent}
	if l.twoLineHeaders {
		header[1] = "Mean\n[" + st.timeUnit + "]"
		header[5] = "cpu-ns/\n" + st.unit
		header[6] = strings.Replace(st.relHeader, " (± σ)", "\n(± σ)", 1)
		header[7] = "× faster than\n" + st.incumbent
	}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
	cells := make([][]string, len(st.rows))
	for i, r := range st.rows {
		cells[i] = slices.Clone(r[:8])
		if l.twoLineHeaders {
			cells[i][7] = r[8]
		}
	}
	// Columns left out, from the right so that indexes hold.
	for _, drop := range []struct {
		col int
		out bool
	}{{7, !l.incumbent}, {6, !l.relative}, {5, !l.cpu}, {2, !l.sigma}} {
		if !drop.out {
			continue
		}
		header = slices.Delete(header, drop.col, drop.col+1)
		align = slices.Delete(align, drop.col, drop.col+1)
		for i := range cells {
			cells[i] = slices.Delete(cells[i], drop.col, drop.col+1)
		}
	}
	var buf strings.Builder
	err := renderTable(&buf, header, cells, align)
	return buf.String(), err
}

// summaryLayout is one way to draw the summary table, from the widest.
type summaryLayout struct {
	twoLineHeaders, sigma, relative, incumbent, cpu bool
}

// summaryLayouts lists the layouts Summary tries, widest first: the last
// is used when none fits. The relative column goes before the column
// against the incumbent, because the sentences under the table state
// every relative while only that column states the incumbent's factor.
// The CPU time per unit, when asked for (Options.CPU), stays in every
// layout: it was asked for.
func summaryLayouts(incumbent, cpu bool) []summaryLayout {
	return []summaryLayout{
		{false, true, true, incumbent, cpu},
		{true, true, true, incumbent, cpu},
		{true, false, true, incumbent, cpu},
		{true, false, false, incumbent, cpu},
	}
}

// scanTable prints each cell's cost per unit of work (its mean ns/unit)
// against the groups' parameters: one row per cell, one column per group.
func scanTable(w io.Writer, f *harness.File, rel *analysis.Relatives) {
	var cells []string
	cost := map[[2]int]string{}
	for gi, g := range rel.Groups {
		for _, i := range g.Members {
			r := &f.Results[i]
			ci := slices.Index(cells, r.Cell)
			if ci < 0 {
				ci = len(cells)
				cells = append(cells, r.Cell)
			}
			if Successful(r) > 0 && r.NsPerCell > 0 {
				cost[[2]int{ci, gi}] = fmt.Sprintf("%.2f", r.NsPerCell)
			}
		}
	}
	header := []string{"ns/" + rel.Unit}
	align := []tw.Align{tw.AlignLeft}
	for _, g := range rel.Groups {
		header = append(header, g.Name)
		align = append(align, tw.AlignRight)
	}
	rows := make([][]string, len(cells))
	for ci, c := range cells {
		rows[ci] = []string{c}
		for gi := range rel.Groups {
			v, ok := cost[[2]int{ci, gi}]
			if !ok {
				v = Missing
			}
			rows[ci] = append(rows[ci], v)
		}
	}
	fmt.Fprintf(w, "Cost per %s against the parameters\n", rel.Unit)
	if err := renderTable(w, header, rows, align); err != nil {
		fmt.Fprintf(w, "(scan table not rendered: %v)\n", err)
	}
}

// RelativeText is a result's Relative cell in every table (terminal,
// Markdown export, REPORT.md): "1.00" for the reference, "2.17 ± 0.04" for
// the others ("2.17" when a side has a single run), Missing when it has no
// ratio.
func RelativeText(x analysis.Relative) string {
	switch {
	case !x.OK:
		return Missing
	case x.IsReference:
		return "1.00"
	case x.Stddev > 0:
		return fmt.Sprintf("%.2f ± %.2f", x.Ratio.Ratio, x.Stddev)
	}
	return fmt.Sprintf("%.2f", x.Ratio.Ratio)
}

// incumbentFactor states a result against the incumbent under a "× faster
// than" header: "19.10 ± 0.80", "0.77 ± 0.01" for one slower than it,
// "(incumbent)" for the incumbent itself.
func incumbentFactor(x analysis.RunSummaryRow) string {
	inv := x.FasterThanIncumbent
	switch {
	case x.IsIncumbent:
		return "(incumbent)"
	case !inv.OK:
		return Missing
	}
	return factor(painter(false), inv.Ratio, inv.Stddev)
}

// incumbentText states a result against the incumbent: "19.10 ± 0.80×
// faster", "1.30 ± 0.02× slower", "(incumbent)" for the incumbent itself.
func incumbentText(x analysis.RunSummaryRow) string {
	c := x.Incumbent
	switch {
	case x.IsIncumbent:
		return "(incumbent)"
	case !c.OK:
		return Missing
	case c.Ratio < 1:
		inv := x.FasterThanIncumbent
		return factor(painter(false), inv.Ratio, inv.Stddev) + "× faster"
	case c.Ratio > 1:
		return factor(painter(false), c.Ratio, c.Stddev) + "× slower"
	}
	return "as fast"
}

// sentences returns hyperfine's comparison sentences for f, as s decides
// them, one per result other than its group's reference that has a
// successful run, in o.Sort order: "'ref' ran 2.17 ± 0.04 times faster than 'x'", "'ref' ran 1.25 ±
// 0.02 times slower than 'x'" when x is faster, "'ref' ran as fast as 'x'
// (1.00 ± 0.01)" when the means are equal. Relatives per unit of work say
// so: "ran 11.40 ± 0.31 times faster per cell than". Names are quoted;
// colour follows o.Style.
func sentences(f *harness.File, s *analysis.RunSummary, o Options) []string {
	p := painter(o.Style.Color())
	rel := s.Relatives
	per := ""
	if b := rel.BasisLabel(); b != "" {
		per = " " + b
	}
	var out []string
	for _, i := range Order(f, rel, o.Sort) {
		r, x := &f.Results[i], s.Rows[i]
		if !x.OK || x.IsReference {
			continue
		}
		ref := &f.Results[x.Reference]
		ratio, sd := x.Ratio.Ratio, x.Stddev
		refName := p.paint("'"+ref.Label+"'", ansiCyan)
		name := p.paint("'"+r.Label+"'", ansiMagenta)
		switch {
		case ratio > 1:
			out = append(out, fmt.Sprintf("%s ran %s times faster%s than %s", refName, factor(p, ratio, sd), per, name))
		case ratio < 1:
			// x is faster: the reference is 1/ratio times slower, with
			// σ(1/q) = σq / q² (the same relative uncertainty).
			out = append(out, fmt.Sprintf("%s ran %s times slower%s than %s", refName, factor(p, 1/ratio, sd/(ratio*ratio)), per, name))
		default:
			out = append(out, fmt.Sprintf("%s ran as fast%s as %s (%s)", refName, per, name, factor(p, ratio, sd)))
		}
	}
	return out
}

// headline states h, what analysis.Lead decided, before the table: which
// result is fastest (and, when that is the control, which root handle is),
// and how far boxroot is from cgo-handle, e.g.
//
//	Fastest: ocaml (the control: no rooting work); among root handles, boxroot (2.17 ± 0.04 times its time).
//	boxroot ran 11.86 ± 0.15 times faster than cgo-handle (runtime/cgo.Handle).
//
// Nothing for a scan or a file with fewer than two successful results.
// Plain text, so that it wraps to the terminal.
func headline(f *harness.File, h analysis.Headline) []string {
	if h.Fastest < 0 {
		return nil
	}
	p := painter(false)
	name := func(i int) string { return f.Results[i].Label }
	var out []string
	if h.FastestHandle >= 0 {
		line := fmt.Sprintf("Fastest: %s (the control: no rooting work); among root handles, %s", name(h.Fastest), name(h.FastestHandle))
		if q := h.OverControl; q.OK {
			line += fmt.Sprintf(" (%s times its time)", factor(p, q.Ratio, q.Stddev))
		}
		out = append(out, line+".")
	} else {
		out = append(out, fmt.Sprintf("Fastest: %s.", name(h.Fastest)))
	}
	if q := h.BoxrootSpeedup; h.Boxroot >= 0 && q.OK {
		how := "faster"
		if q.Ratio < 1 {
			q, how = q.Inverse(), "slower"
		}
		out = append(out, fmt.Sprintf("%s ran %s times %s than %s (runtime/cgo.Handle).", name(h.Boxroot), factor(p, q.Ratio, q.Stddev), how, name(h.Incumbent)))
	}
	return out
}

// factor formats "2.17 ± 0.04" ("2.17" without a finite spread) with
// hyperfine's colours when p paints.
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
	return fill(t, header, rows)
}
