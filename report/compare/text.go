package compare

import (
	"bytes"
	"cmp"
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/report"
)

// Text writes the comparison as an aligned table: one row per
// configuration and metric (a metric column when the rows name theirs)
// with both medians, the delta with its interval, the p-value, the verdict
// (and the gate) and the conclusion (what the row rules out, Conclusion),
// closed by the geomean (one per metric); then each benchmark's verdict
// line when the rows name their metric (VerdictLines), the method, the
// summary line and every warning. It is TextWidth with no terminal width.
func Text(w io.Writer, c *analysis.Comparison) error { return TextWidth(w, c, 0) }

// TextWidth is Text for a terminal cols columns wide (0: unknown, or not a
// terminal): when the table is wider, it leaves out the runs an
// inconclusive row still needs from the gate column (the summary line
// states them), then the p column, the delta interval and the verdict, and
// wraps the conclusion, and last puts each row's metric under its
// benchmark (textLayout), never leaving the conclusion out; the method,
// summary and warning lines wrap at spaces.
func TextWidth(w io.Writer, c *analysis.Comparison, cols int) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s\n", report.WrapWords(fmt.Sprintf("%s: base = %s, head = %s; %s%s",
		cmp.Or(c.Workload, "results"), c.Base.Name, c.Head.Name, measure(c), medianCI(c)), cols, 0, "  "))
	var layouts []func() (string, error)
	for _, l := range textLayouts {
		layouts = append(layouts, func() (string, error) { return textTable(c, l) })
	}
	table, err := report.FirstFit(cols, layouts...)
	if err != nil {
		return err
	}
	buf.WriteString(table)
	for _, line := range VerdictLines(c) {
		fmt.Fprintln(&buf, report.WrapWords(line, cols, 0, "  "))
	}
	fmt.Fprintf(&buf, "method: %s\n", report.WrapWords(Method(c), cols, len("method: "), "  "))
	fmt.Fprintln(&buf, report.WrapWords(SummaryLine(c), cols, 0, "  "))
	if len(c.Warnings) > 0 {
		fmt.Fprintln(&buf, "warnings:")
		for _, warn := range c.Warnings {
			fmt.Fprintf(&buf, "  - %s\n", report.WrapWords(warn, cols, len("  - "), "    "))
		}
	}
	if _, err := w.Write(trimLines(buf.Bytes())); err != nil {
		return fmt.Errorf("compare: write text: %w", err)
	}
	return nil
}

// textLayout is how much of Text's table a terminal's width leaves: the
// widest layout shows every column, and each narrower one gives up one
// more thing, keeping what the wider ones gave up. The conclusion stays:
// every row says what it ruled out.
type textLayout int

const (
	allColumns textLayout = iota
	// shortGate: the gate cells leave out the runs still needed (the
	// summary line keeps them).
	shortGate
	// noP: no p column (the Markdown details keep it).
	noP
	// noInterval: no delta interval (the conclusion states its bound that
	// matters).
	noInterval
	// noVerdict: no verdict column (the conclusion says "slower by at
	// least" or "faster by at least" when the change is significant).
	noVerdict
	// wrapConclusion: the conclusion wraps over lines of conclusionWrap
	// characters.
	wrapConclusion
	// metricUnderName: no metric column; a row's metric is the second line
	// of its benchmark cell.
	metricUnderName
)

// textLayouts are the layouts, widest first.
var textLayouts = []textLayout{allColumns, shortGate, noP, noInterval, noVerdict, wrapConclusion, metricUnderName}

// conclusionWrap is the conclusion column's width in the narrowest layout.
const conclusionWrap = 18

// textTable renders Text's table in layout l.
func textTable(c *analysis.Comparison, l textLayout) (string, error) {
	var buf bytes.Buffer
	gate := c.Threshold > 0
	type column struct {
		head  string
		align tw.Align
		cell  func(r analysis.Row) string
		foot  func(g analysis.Geomean) string
	}
	none := func(analysis.Geomean) string { return "" }
	cols := []column{{"benchmark", tw.AlignLeft, func(r analysis.Row) string { return rowName(c, r) }, func(analysis.Geomean) string { return "geomean" }}}
	switch {
	case c.NamesMetrics() && l >= metricUnderName:
		cols[0].cell = func(r analysis.Row) string { return rowName(c, r) + "\n  " + metricCell(r.Metric) }
		cols[0].foot = func(g analysis.Geomean) string { return "geomean\n  " + metricCell(g.Metric) }
	case c.NamesMetrics():
		cols = append(cols, column{"metric", tw.AlignLeft, func(r analysis.Row) string { return metricCell(r.Metric) },
			func(g analysis.Geomean) string { return metricCell(g.Metric) }})
	}
	cols = append(cols,
		column{"base", tw.AlignRight, func(r analysis.Row) string { return side(c, r.Metric, r.Base) }, func(g analysis.Geomean) string { return value(g.Metric, g.Base) }},
		column{"head", tw.AlignRight, func(r analysis.Row) string { return side(c, r.Metric, r.Head) }, func(g analysis.Geomean) string { return value(g.Metric, g.Head) }},
		column{"delta", tw.AlignRight, func(r analysis.Row) string { return pct(r.Delta, 2) }, func(g analysis.Geomean) string { return pct(g.Delta, 2) }},
	)
	if l < noInterval {
		cols = append(cols, column{"delta interval", tw.AlignLeft, interval, none})
	}
	if l < noP {
		cols = append(cols, column{"p", tw.AlignLeft, func(r analysis.Row) string { return pValue(c, r) }, none})
	}
	if l < noVerdict {
		cols = append(cols, column{"verdict", tw.AlignLeft, verdictText, none})
	}
	if gate {
		cols = append(cols, column{"gate " + pctPlain(c.Threshold), tw.AlignLeft, func(r analysis.Row) string {
			if l >= shortGate && r.Gate == analysis.Inconclusive {
				return "inconclusive"
			}
			return gateText(r)
		}, none})
	}
	conclusion := Conclusion
	if l >= wrapConclusion {
		conclusion = func(r analysis.Row) string {
			return report.WrapWords(Conclusion(r), conclusionWrap, 0, "")
		}
	}
	cols = append(cols, column{"conclusion", tw.AlignLeft, conclusion, none})
	var header []any
	var align []tw.Align
	for _, col := range cols {
		header = append(header, col.head)
		align = append(align, col.align)
	}
	t := report.PlainTable(&buf, align)
	t.Header(header...)
	for _, r := range c.Rows {
		var cells []any
		for _, col := range cols {
			cells = append(cells, col.cell(r))
		}
		if err := t.Append(cells...); err != nil {
			return "", fmt.Errorf("compare: text table: %w", err)
		}
	}
	// One geomean closes the table; several (one per metric) are its last
	// rows.
	for _, g := range c.Geomeans {
		var cells []any
		for _, col := range cols {
			cells = append(cells, col.foot(g))
		}
		if len(c.Geomeans) == 1 {
			t.Footer(cells...)
		} else if err := t.Append(cells...); err != nil {
			return "", fmt.Errorf("compare: text table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return "", fmt.Errorf("compare: text table: %w", err)
	}
	return buf.String(), nil
}

// trimLines drops trailing blanks from every line.
func trimLines(b []byte) []byte {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " ")
	}
	return bytes.Join(lines, []byte("\n"))
}
