package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"golang.org/x/perf/benchmath"

	"github.com/rootbench/rootbench/report"
)

// SummaryLine is the one-line outcome, the first line of the Markdown:
// "2 slower, 1 faster, 5 unchanged; gate 5%: FAIL (boxroot +12.3% [+8.1%, +16.0%])".
func (c *Comparison) SummaryLine() string {
	slower, faster, same := c.Counts()
	var b strings.Builder
	fmt.Fprintf(&b, "%d slower, %d faster, %d unchanged; ", slower, faster, same)
	switch regs := c.Regressions(); {
	case c.Threshold <= 0:
		b.WriteString("gate off")
	case len(regs) == 0:
		fmt.Fprintf(&b, "gate %s: pass", pctPlain(c.Threshold))
	default:
		parts := make([]string, len(regs))
		for i, r := range regs {
			parts[i] = fmt.Sprintf("%s %s %s", r.Label, pct(r.Delta, 1), interval(r))
		}
		fmt.Fprintf(&b, "gate %s: FAIL (%s)", pctPlain(c.Threshold), strings.Join(parts, "; "))
	}
	if n := len(c.Warnings); n > 0 {
		fmt.Fprintf(&b, "; %d warning%s", n, plural(n))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Text writes the comparison as an aligned table: one row per configuration
// with both medians and their intervals, the delta with its interval, the
// p-value, the verdict (and the gate), closed by the geomean; then the
// summary line and every warning.
func Text(w io.Writer, c *Comparison) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s: base = %s, head = %s; median workload wall time ± %s CI, delta interval at %s\n",
		orDefault(c.Workload, "results"), c.Base.Name, c.Head.Name, pctPlain(c.Confidence), pctPlain(c.Confidence))
	gate := c.Threshold > 0
	header := []any{"benchmark", "base", "head", "delta", "delta interval", "p", "verdict"}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft, tw.AlignLeft, tw.AlignLeft}
	if gate {
		header = append(header, "gate "+pctPlain(c.Threshold))
		align = append(align, tw.AlignLeft)
	}
	t := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Symbols: tw.NewSymbols(tw.StyleLight),
			Borders: tw.BorderNone,
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On, ShowFooterLine: tw.On},
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithFooterAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithFooterAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
	t.Header(header...)
	for _, r := range c.Rows {
		cells := []any{rowName(r), withCI(r.Base), withCI(r.Head), pct(r.Delta, 2), interval(r),
			pValue(r), string(r.Verdict)}
		if gate {
			cells = append(cells, gateMark(r))
		}
		if err := t.Append(cells...); err != nil {
			return fmt.Errorf("compare: text table: %w", err)
		}
	}
	if c.Geomean.OK {
		foot := []any{"geomean", seconds(c.Geomean.Base), seconds(c.Geomean.Head), pct(c.Geomean.Delta, 2), "", "", ""}
		if gate {
			foot = append(foot, "")
		}
		t.Footer(foot...)
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("compare: text table: %w", err)
	}
	fmt.Fprintln(&buf, c.SummaryLine())
	if len(c.Warnings) > 0 {
		fmt.Fprintln(&buf, "warnings:")
		for _, warn := range c.Warnings {
			fmt.Fprintf(&buf, "  - %s\n", warn)
		}
	}
	if _, err := w.Write(trimLines(buf.Bytes())); err != nil {
		return fmt.Errorf("compare: write text: %w", err)
	}
	return nil
}

// trimLines drops trailing blanks from every line.
func trimLines(b []byte) []byte {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " ")
	}
	return bytes.Join(lines, []byte("\n"))
}

func rowName(r Row) string {
	if r.BaseLabel != "" {
		return r.BaseLabel + " → " + r.Label
	}
	return r.Label
}

func gateMark(r Row) string {
	if r.Regression {
		return "FAIL"
	}
	return ""
}

// Markdown writes the comparison ready to post as a pull-request comment:
// the summary line, the table, then the details (method, warnings,
// machines, parameters, p-values) in a collapsed <details> block.
func Markdown(w io.Writer, c *Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**\n\n", mdEscape(c.SummaryLine()))
	fmt.Fprintf(&b, "%s: median workload wall time ± %s CI; **base** = %s, **head** = %s\n\n",
		mdEscape(orDefault(c.Workload, "results")), pctPlain(c.Confidence), mdCode(c.Base.Name), mdCode(c.Head.Name))
	gate := c.Threshold > 0
	b.WriteString("| benchmark | base | head | delta | delta interval | verdict |")
	if gate {
		fmt.Fprintf(&b, " gate %s |", pctPlain(c.Threshold))
	}
	b.WriteString("\n|:--|--:|--:|--:|:--|:--|")
	if gate {
		b.WriteString(":--|")
	}
	b.WriteString("\n")
	for _, r := range c.Rows {
		verdict := string(r.Verdict)
		if r.Verdict != Same {
			verdict = "**" + verdict + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |", mdEscape(rowName(r)), withCI(r.Base), withCI(r.Head),
			pct(r.Delta, 2), interval(r), verdict)
		if gate {
			fmt.Fprintf(&b, " %s |", map[bool]string{true: "**FAIL**", false: "pass"}[r.Regression])
		}
		b.WriteString("\n")
	}
	if c.Geomean.OK {
		fmt.Fprintf(&b, "| *geomean* | %s | %s | %s | | |", seconds(c.Geomean.Base), seconds(c.Geomean.Head), pct(c.Geomean.Delta, 2))
		if gate {
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}

	b.WriteString("\n<details><summary>Details")
	if n := len(c.Warnings); n > 0 {
		fmt.Fprintf(&b, " (%d warning%s)", n, plural(n))
	}
	b.WriteString("</summary>\n\n")
	fmt.Fprintf(&b, "Method: every successful run's workload wall time is one sample. Medians with %s confidence intervals "+
		"and the Mann-Whitney U test come from golang.org/x/perf/benchmath (AssumeNothing), as in benchstat; "+
		"a row is `~` when p > α = %v. The delta interval combines the two medians' intervals at √%v each, at their extremes (conservative). ",
		pctPlain(c.Confidence), c.Alpha, c.Confidence)
	if gate {
		fmt.Fprintf(&b, "The gate fails a row only when it is significantly slower and its whole delta interval lies above +%s.", pctPlain(c.Threshold))
	} else {
		b.WriteString("The gate is off.")
	}
	b.WriteString("\n\n")
	if len(c.Warnings) > 0 {
		b.WriteString("**Warnings**\n\n")
		for _, warn := range c.Warnings {
			fmt.Fprintf(&b, "- %s\n", mdEscape(warn))
		}
		b.WriteString("\n")
	}
	b.WriteString("**Tests**\n\n| benchmark | p | n | base median [CI] | head median [CI] | delta interval |\n|:--|--:|--:|--:|--:|:--|\n")
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(rowName(r)), pNumber(r.P), nString(r),
			absCI(r.Base), absCI(r.Head), interval(r))
	}
	b.WriteString("\n")
	if c.Mode == "files" {
		b.WriteString("**Machines**\n\n| | base | head |\n|:--|:--|:--|\n")
		for _, m := range machineRows(c.Base, c.Head) {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", m[0], mdEscape(m[1]), mdEscape(m[2]))
		}
		b.WriteString("\n")
	} else {
		b.WriteString("**Machine**\n\n| | |\n|:--|:--|\n")
		for _, m := range machineRows(c.Base, c.Head) {
			fmt.Fprintf(&b, "| %s | %s |\n", m[0], mdEscape(m[1]))
		}
		b.WriteString("\n")
	}
	if keys := paramKeys(c.Base.Params, c.Head.Params); len(keys) > 0 {
		if c.Mode == "files" {
			b.WriteString("**Parameters**\n\n| | base | head |\n|:--|:--|:--|\n")
			for _, k := range keys {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", mdEscape(k), mdEscape(unset(c.Base.Params, k)), mdEscape(unset(c.Head.Params, k)))
			}
		} else {
			b.WriteString("**Parameters**\n\n| | |\n|:--|:--|\n")
			for _, k := range keys {
				fmt.Fprintf(&b, "| %s | %s |\n", mdEscape(k), mdEscape(unset(c.Head.Params, k)))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("</details>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("compare: write markdown: %w", err)
	}
	return nil
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
	return slices.Sorted(maps.Keys(keys))
}

func machineRows(b, h Side) [][3]string {
	row := func(name string, f func(s Side) string) [3]string {
		return [3]string{name, orDefault(f(b), "—"), orDefault(f(h), "—")}
	}
	return [][3]string{
		row("host", func(s Side) string { return s.Machine.Hostname }),
		row("CPU", func(s Side) string { return s.Machine.CPUModel }),
		row("logical CPUs", func(s Side) string { return fmt.Sprint(s.Machine.LogicalCPUs) }),
		row("GOMAXPROCS", func(s Side) string { return fmt.Sprint(s.Machine.GOMAXPROCS) }),
		row("OS/arch", func(s Side) string { return s.Machine.OS + "/" + s.Machine.Arch }),
		row("kernel", func(s Side) string { return s.Machine.Kernel }),
		row("governor", func(s Side) string { return s.Machine.Governor }),
		row("Go", func(s Side) string { return s.Tool.GoVersion }),
		row("rootbench", func(s Side) string {
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

func mdEscape(s string) string {
	r := strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;", "\n", " ")
	return r.Replace(s)
}

func mdCode(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// JSON writes the comparison as one indented JSON object. Infinite interval
// bounds (too few runs) are written as null.
func JSON(w io.Writer, c *Comparison) error {
	type summary struct {
		Median     float64  `json:"median"`
		Lo         *float64 `json:"lo"`
		Hi         *float64 `json:"hi"`
		Confidence float64  `json:"confidence"`
		N          int      `json:"n"`
		Failed     int      `json:"failed"`
	}
	type row struct {
		Label           string            `json:"label"`
		BaseLabel       string            `json:"base_label,omitempty"`
		Cell            string            `json:"cell"`
		Params          map[string]string `json:"params,omitempty"`
		Base            summary           `json:"base"`
		Head            summary           `json:"head"`
		Delta           float64           `json:"delta"`
		DeltaLo         *float64          `json:"delta_lo"`
		DeltaHi         *float64          `json:"delta_hi"`
		DeltaConfidence float64           `json:"delta_confidence"`
		P               float64           `json:"p"`
		Alpha           float64           `json:"alpha"`
		Verdict         Verdict           `json:"verdict"`
		Regression      bool              `json:"regression"`
		Warnings        []string          `json:"warnings,omitempty"`
	}
	type side struct {
		Name    string            `json:"name"`
		Tool    any               `json:"tool"`
		Machine any               `json:"machine"`
		Params  map[string]string `json:"params,omitempty"`
	}
	type geomean struct {
		Base  float64 `json:"base"`
		Head  float64 `json:"head"`
		Delta float64 `json:"delta"`
	}
	type out struct {
		Mode       string   `json:"mode"`
		Summary    string   `json:"summary"`
		Gate       string   `json:"gate"` // "off", "pass" or "fail"
		Threshold  float64  `json:"threshold"`
		Alpha      float64  `json:"alpha"`
		Confidence float64  `json:"confidence"`
		Unit       string   `json:"unit"`
		Workload   string   `json:"workload,omitempty"`
		Base       side     `json:"base"`
		Head       side     `json:"head"`
		Rows       []row    `json:"rows"`
		Geomean    *geomean `json:"geomean"`
		OnlyBase   []string `json:"only_base,omitempty"`
		OnlyHead   []string `json:"only_head,omitempty"`
		Warnings   []string `json:"warnings,omitempty"`
	}
	finite := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	sum := func(s Summary) summary {
		return summary{s.Median, finite(s.Lo), finite(s.Hi), s.Confidence, s.N, s.Failed}
	}
	o := out{
		Mode: c.Mode, Summary: c.SummaryLine(), Gate: "off", Threshold: c.Threshold,
		Alpha: c.Alpha, Confidence: c.Confidence, Unit: "seconds", Workload: c.Workload,
		Base:     side{c.Base.Name, c.Base.Tool, c.Base.Machine, c.Base.Params},
		Head:     side{c.Head.Name, c.Head.Tool, c.Head.Machine, c.Head.Params},
		Rows:     []row{},
		OnlyBase: c.OnlyBase, OnlyHead: c.OnlyHead, Warnings: c.Warnings,
	}
	if c.Threshold > 0 {
		o.Gate = "pass"
		if len(c.Regressions()) > 0 {
			o.Gate = "fail"
		}
	}
	for _, r := range c.Rows {
		o.Rows = append(o.Rows, row{
			Label: r.Label, BaseLabel: r.BaseLabel, Cell: r.Cell, Params: r.Params,
			Base: sum(r.Base), Head: sum(r.Head),
			Delta: r.Delta, DeltaLo: finite(r.DeltaLo), DeltaHi: finite(r.DeltaHi), DeltaConfidence: r.DeltaConfidence,
			P: r.P, Alpha: r.Alpha, Verdict: r.Verdict, Regression: r.Regression, Warnings: r.Warnings,
		})
	}
	if c.Geomean.OK {
		o.Geomean = &geomean{c.Geomean.Base, c.Geomean.Head, c.Geomean.Delta}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		return fmt.Errorf("compare: write json: %w", err)
	}
	return nil
}

// seconds formats a duration given in seconds with 4 significant digits,
// in the unit report.UnitFor picks.
func seconds(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "-∞"
	case math.IsNaN(v):
		return "?"
	}
	u := report.UnitFor(math.Abs(v)) // the terminal output's choice of unit
	unit := u.String()
	x := v / u.Seconds()
	switch ax := math.Abs(x); {
	case ax >= 100:
		return fmt.Sprintf("%.1f%s", x, unit)
	case ax >= 10:
		return fmt.Sprintf("%.2f%s", x, unit)
	default:
		return fmt.Sprintf("%.3f%s", x, unit)
	}
}

// withCI is the median with benchstat's "± x%" interval.
func withCI(s Summary) string {
	return seconds(s.Median) + " ± " + benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
}

func absCI(s Summary) string {
	return fmt.Sprintf("%s [%s, %s]", seconds(s.Median), seconds(s.Lo), seconds(s.Hi))
}

// pct formats a fraction as a signed percentage; ±Inf as ±∞.
func pct(v float64, prec int) string {
	switch {
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return "-∞"
	case math.IsNaN(v):
		return "?"
	}
	x := 100 * v
	if math.Abs(x) < 0.5*math.Pow(10, -float64(prec)) {
		x = 0 // no "-0.00%"
	}
	return fmt.Sprintf("%+.*f%%", prec, x)
}

// pctPlain formats a fraction as an unsigned percentage ("5%", "0.5%").
func pctPlain(v float64) string {
	return fmt.Sprintf("%.4g%%", 100*v)
}

func interval(r Row) string {
	return "[" + pct(r.DeltaLo, 1) + ", " + pct(r.DeltaHi, 1) + "]"
}

// pValue is benchstat's "p=0.000 n=10" annotation.
func pValue(r Row) string {
	return benchmath.Comparison{P: r.P, N1: r.Base.N, N2: r.Head.N}.String()
}

func pNumber(p float64) string {
	return fmt.Sprintf("%.3g", p)
}

func nString(r Row) string {
	if r.Base.N == r.Head.N {
		return fmt.Sprint(r.Base.N)
	}
	return fmt.Sprintf("%d+%d", r.Base.N, r.Head.N)
}
