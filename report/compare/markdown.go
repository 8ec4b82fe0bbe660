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

// Markdown writes the comparison ready to post as a pull-request comment:
// the summary line, the table (with each row's conclusion, as Text), then
// the details (method, gate rule, warnings, tests, machines, parameters)
// in a collapsed <details> block.
// Every table goes through tablewriter's Markdown renderer.
func Markdown(w io.Writer, c *analysis.Comparison) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "**%s**\n\n", report.MdEscape(SummaryLine(c)))
	fmt.Fprintf(&b, "%s: %s%s; **base** = %s, **head** = %s\n\n",
		report.MdEscape(cmp.Or(c.Workload, "results")), measure(c), medianCI(c), report.MdCode(c.Base.Name), report.MdCode(c.Head.Name))
	for _, line := range VerdictLines(c) {
		fmt.Fprintf(&b, "- %s\n", report.MdEscape(line))
	}
	if len(VerdictLines(c)) > 0 {
		b.WriteString("\n")
	}
	gate := c.Threshold > 0
	named := c.NamesMetrics()
	// withMetric puts a row's metric cell after its benchmark's, when the
	// rows name their metric.
	withMetric := func(row []string, metric string) []string {
		if !named {
			return row
		}
		return append([]string{row[0], metric}, row[1:]...)
	}
	header := withMetric([]string{"benchmark", "base", "head", "delta", "delta interval", "verdict"}, "metric")
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft, tw.AlignLeft}
	if named {
		align = append([]tw.Align{tw.AlignLeft}, align...)
	}
	if gate {
		header = append(header, "gate "+pctPlain(c.Threshold))
		align = append(align, tw.AlignLeft)
	}
	header = append(header, "conclusion")
	align = append(align, tw.AlignLeft)
	var rows [][]string
	for _, r := range c.Rows {
		verdict := verdictText(r)
		if r.Verdict != analysis.Same {
			verdict = "**" + verdict + "**"
		}
		row := withMetric([]string{report.MdEscape(rowName(c, r)), side(c, r.Metric, r.Base), side(c, r.Metric, r.Head), pct(r.Delta, 2), interval(r), verdict},
			report.MdEscape(metricCell(r.Metric)))
		if gate {
			g := gateText(r)
			if r.Gate == analysis.Regression {
				g = "**" + g + "**"
			}
			row = append(row, g)
		}
		rows = append(rows, append(row, Conclusion(r)))
	}
	for _, g := range c.Geomeans {
		row := withMetric([]string{"*geomean*", value(g.Metric, g.Base), value(g.Metric, g.Head), pct(g.Delta, 2), "", ""}, report.MdEscape(metricCell(g.Metric)))
		if gate {
			row = append(row, "")
		}
		rows = append(rows, append(row, ""))
	}
	if err := report.MarkdownTable(&b, header, rows, align); err != nil {
		return fmt.Errorf("compare: markdown: %w", err)
	}

	b.WriteString("\n<details><summary>Details")
	if n := len(c.Warnings); n > 0 {
		fmt.Fprintf(&b, " (%d warning%s)", n, report.Plural(n))
	}
	b.WriteString("</summary>\n\n")
	sample := "every successful run's workload wall time is one sample (time per unit of work when the sides do different work)"
	switch {
	case isGoBench(c) && named:
		sample = "every result line's value of a row's unit is one sample"
	case isGoBench(c):
		sample = "every result line's time per op is one sample"
	case c.Paired && named:
		sample = "each base run and the head run made next to it form one pair of the row's figures: workload wall time, or CPU time (time per unit of work when the sides do different work)"
	case c.Paired:
		sample = "each base run and the head run made next to it form one pair of workload wall times (time per unit of work when the sides do different work)"
	case named:
		sample = "every successful run's figure of the row's metric is one sample: workload wall time, or CPU time (per unit of work when the sides do different work)"
	}
	fmt.Fprintf(&b, "Method: %s. %s. %s\n\n",
		sample, report.MdEscape(Method(c)), gateRule(c))
	if len(c.Warnings) > 0 {
		b.WriteString("**Warnings**\n\n")
		for _, warn := range c.Warnings {
			fmt.Fprintf(&b, "- %s\n", report.MdEscape(warn))
		}
		b.WriteString("\n")
	}
	b.WriteString("**Tests**\n\n")
	var tests [][]string
	for _, r := range c.Rows {
		tests = append(tests, withMetric([]string{report.MdEscape(rowName(c, r)), pNumber(r.P), pNumber(r.PAdjusted), levelText(r.Level), nString(r),
			absCI(r.Metric, r.Base), absCI(r.Metric, r.Head), interval(r)}, report.MdEscape(metricCell(r.Metric))))
	}
	talign := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}
	if named {
		talign = append([]tw.Align{tw.AlignLeft}, talign...)
	}
	if err := report.MarkdownTable(&b, withMetric([]string{"benchmark", "p", "adjusted p", "level", "n", "base median [95% CI]", "head median [95% CI]", "delta interval"}, "metric"), tests,
		talign); err != nil {
		return fmt.Errorf("compare: markdown: %w", err)
	}
	b.WriteString("\n")
	files := c.Mode == "files" || c.Mode == analysis.ModeLayouts
	machines := machineRows(c.Base, c.Head)
	title, header2 := "**Machines**\n\n", []string{"", "base", "head"}
	if !files {
		title, header2 = "**Machine**\n\n", []string{"", ""}
	}
	b.WriteString(title)
	var mrows [][]string
	for _, m := range machines {
		row := []string{m[0], report.MdEscape(m[1])}
		if files {
			row = append(row, report.MdEscape(m[2]))
		}
		mrows = append(mrows, row)
	}
	if err := report.MarkdownTable(&b, header2, mrows, nil); err != nil {
		return fmt.Errorf("compare: markdown: %w", err)
	}
	b.WriteString("\n")
	if keys := paramKeys(c.Base.Params, c.Head.Params); len(keys) > 0 {
		b.WriteString("**Parameters**\n\n")
		var prows [][]string
		for _, k := range keys {
			row := []string{report.MdEscape(k)}
			if files {
				row = append(row, report.MdEscape(unset(c.Base.Params, k)))
			}
			prows = append(prows, append(row, report.MdEscape(unset(c.Head.Params, k))))
		}
		if err := report.MarkdownTable(&b, header2, prows, nil); err != nil {
			return fmt.Errorf("compare: markdown: %w", err)
		}
		b.WriteString("\n")
	}
	b.WriteString("</details>\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("compare: write markdown: %w", err)
	}
	return nil
}

func levelText(l float64) string {
	return fmt.Sprintf("%.4g%%", 100*l)
}

func unset(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "(unset)"
}

func paramKeys(a, b map[string]string) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return report.SortedKeys(keys)
}

func machineRows(b, h analysis.Side) [][3]string {
	row := func(name string, f func(s analysis.Side) string) [3]string {
		return [3]string{name, cmp.Or(f(b), report.Missing), cmp.Or(f(h), report.Missing)}
	}
	count := func(n int) string { // 0: not recorded (Go benchmark text)
		if n <= 0 {
			return ""
		}
		return fmt.Sprint(n)
	}
	return [][3]string{
		row("host", func(s analysis.Side) string { return s.Machine.Hostname }),
		row("CPU", func(s analysis.Side) string { return s.Machine.CPUModel }),
		row("logical CPUs", func(s analysis.Side) string { return count(s.Machine.LogicalCPUs) }),
		row("GOMAXPROCS", func(s analysis.Side) string { return count(s.Machine.GOMAXPROCS) }),
		row("OS/arch", func(s analysis.Side) string { return s.Machine.OS + "/" + s.Machine.Arch }),
		row("kernel", func(s analysis.Side) string { return s.Machine.Kernel }),
		row("governor", func(s analysis.Side) string { return s.Machine.Governor }),
		row("Go", func(s analysis.Side) string { return s.Tool.GoVersion }),
		row("rootbench", func(s analysis.Side) string {
			v := s.Tool.Version
			if s.Tool.Revision != "" {
				v += " (" + s.Tool.Revision + ")"
			}
			if s.Tool.Modified {
				v += " modified"
			}
			return v
		}),
	}
}
