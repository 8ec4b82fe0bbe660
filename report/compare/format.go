// Package compare prints what package analysis decided about two sides
// (two results files, two cells of one file, or the base and head builds
// of `rootbench ab`): an aligned terminal table (Text), a pull-request
// comment (Markdown) and a versioned JSON document (JSON). It computes no
// delta, interval, verdict or gate itself.
package compare

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"golang.org/x/perf/benchmath"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// JSONSchema is the version tag of the JSON comparison document (see
// JSON). Version 2 added the method, the correction, each row's gate
// outcome, level, adjusted p-value and runs still needed, and the
// whole-table outcome; version 3 each row's ruled_out (what its interval
// rules out, analysis.RuledOut).
const JSONSchema = "rootbench-compare/v3"

// SummaryLine is the one-line outcome, the first line of the Markdown:
// "1 slower, 0 faster, 2 unchanged; gate 5%: REGRESSION (boxroot +12.3%
// [+8.1%, +16.0%])", "...; gate 5%: INCONCLUSIVE (ref: about 12 more runs
// per side)", "...; gate 5%: pass" or "...; gate off", then the warning
// count.
func SummaryLine(c *analysis.Comparison) string {
	slower, faster, same := c.Counts()
	var b strings.Builder
	fmt.Fprintf(&b, "%d slower, %d faster, %d unchanged; ", slower, faster, same)
	gate := "gate " + pctPlain(c.Threshold) + ": "
	switch c.Outcome() {
	case analysis.GateOff:
		b.WriteString("gate off")
	case analysis.Pass:
		b.WriteString(gate + "pass")
	case analysis.Regression:
		var parts []string
		for _, r := range c.Regressions() {
			parts = append(parts, fmt.Sprintf("%s %s %s", r.Label, pct(r.Delta, 1), interval(r)))
		}
		b.WriteString(gate + "REGRESSION (" + strings.Join(parts, "; ") + ")")
	case analysis.Inconclusive:
		var parts []string
		for _, r := range c.Undecided() {
			parts = append(parts, r.Label+": "+moreRuns(r))
		}
		b.WriteString(gate + "INCONCLUSIVE (" + strings.Join(parts, "; ") + ")")
	}
	if n := len(c.Warnings); n > 0 {
		fmt.Fprintf(&b, "; %d warning%s", n, report.Plural(n))
	}
	return b.String()
}

// moreRuns says how many more runs would decide an inconclusive row.
func moreRuns(r analysis.Row) string {
	if r.Layouts > 0 {
		return "more layouts needed"
	}
	if r.MoreRuns <= 0 {
		return "more runs needed"
	}
	return fmt.Sprintf("about %d more run%s per side", r.MoreRuns, report.Plural(r.MoreRuns))
}

// Method describes how c's rows were computed, in one sentence, for the
// footers.
func Method(c *analysis.Comparison) string {
	if c.Method == analysis.MethodBenchstat {
		return fmt.Sprintf("benchstat: medians with 95%% intervals and the Mann-Whitney U test (golang.org/x/perf/benchmath, AssumeNothing); "+
			"a row is ~ when p > α = %.3g, with no correction across rows; the delta interval combines the two medians' intervals at √0.95 each (conservative)", c.Alpha)
	}
	corr := fmt.Sprintf("Holm's correction across the %d row%s keeps the family-wise error rate at α = %.3g; each interval is at the level its row was tested at",
		len(c.Rows), report.Plural(len(c.Rows)), c.Alpha)
	if c.Correction == analysis.CorrectionNone {
		corr = fmt.Sprintf("no correction across rows: each row is tested at α = %.3g", c.Alpha)
	}
	if c.Mode == analysis.ModeLayouts {
		return fmt.Sprintf("across %d function layouts (%s): each layout's estimate is the mean of its session's paired log ratios (head run over base run); "+
			"the row's delta is their mean, with Student's t interval on the layouts (never narrower than the sessions' own noise allows); "+
			"a row is significant exactly when its interval excludes 0; ", len(c.Layouts), strings.Join(c.Layouts, ", ")) + corr
	}
	if c.Paired {
		return "paired: each base run against the head run made next to it; Hodges-Lehmann estimate of the pairs' log ratios with the Wilcoxon signed-rank (Tukey) interval; a row is significant exactly when its interval excludes 0; " + corr
	}
	return "Hodges-Lehmann shift of log times with the Mann-Whitney (Moses) interval; a row is significant exactly when its interval excludes 0; " + corr
}

// gateRule states the gate's rule, for the footers.
func gateRule(c *analysis.Comparison) string {
	if c.Threshold <= 0 {
		return "The gate is off."
	}
	t := pctPlain(c.Threshold)
	return fmt.Sprintf("Gate %s: pass when the interval lies wholly below +%s; regression when significant and the estimate is beyond +%s; otherwise inconclusive.", t, t, t)
}

// Text writes the comparison as an aligned table: one row per
// configuration with both medians, the delta with its interval, the
// p-value, the verdict (and the gate) and the conclusion (what the row
// rules out, Conclusion), closed by the geomean; then the method, the
// summary line and every warning. It is TextWidth with no
// terminal width.
func Text(w io.Writer, c *analysis.Comparison) error { return TextWidth(w, c, 0) }

// TextWidth is Text for a terminal cols columns wide (0: unknown, or not a
// terminal): when the table is wider, it leaves out the runs an
// inconclusive row still needs from the gate column (the summary line
// states them), then the p column, the delta interval and the verdict, and
// last wraps the conclusion (textLayout), never leaving it out; the method,
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
)

// textLayouts are the layouts, widest first.
var textLayouts = []textLayout{allColumns, shortGate, noP, noInterval, noVerdict, wrapConclusion}

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
		foot  func() string
	}
	none := func() string { return "" }
	cols := []column{
		{"benchmark", tw.AlignLeft, func(r analysis.Row) string { return rowName(c, r) }, func() string { return "geomean" }},
		{"base", tw.AlignRight, func(r analysis.Row) string { return side(c, r.Base) }, func() string { return seconds(c.Geomean.Base) }},
		{"head", tw.AlignRight, func(r analysis.Row) string { return side(c, r.Head) }, func() string { return seconds(c.Geomean.Head) }},
		{"delta", tw.AlignRight, func(r analysis.Row) string { return pct(r.Delta, 2) }, func() string { return pct(c.Geomean.Delta, 2) }},
	}
	if l < noInterval {
		cols = append(cols, column{"delta interval", tw.AlignLeft, interval, none})
	}
	if l < noP {
		cols = append(cols, column{"p", tw.AlignLeft, func(r analysis.Row) string { return pValue(c, r) }, none})
	}
	if l < noVerdict {
		cols = append(cols, column{"verdict", tw.AlignLeft, func(r analysis.Row) string { return string(r.Verdict) }, none})
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
		var cells []any
		for _, col := range cols {
			cells = append(cells, col.cell(r))
		}
		if err := t.Append(cells...); err != nil {
			return "", fmt.Errorf("compare: text table: %w", err)
		}
	}
	if c.Geomean.OK {
		var foot []any
		for _, col := range cols {
			foot = append(foot, col.foot())
		}
		t.Footer(foot...)
	}
	if err := t.Render(); err != nil {
		return "", fmt.Errorf("compare: text table: %w", err)
	}
	return buf.String(), nil
}

// isGoBench reports whether c compares Go benchmark text (see
// harness.DecodeGoBench), whose rows are all per op.
func isGoBench(c *analysis.Comparison) bool { return c.Workload == harness.GoBenchWorkload }

// measure names what the sides' columns show: the median workload wall
// time, or the median time per op for Go benchmark text.
func measure(c *analysis.Comparison) string {
	if isGoBench(c) {
		return "median time per op"
	}
	return "median workload wall time"
}

// medianCI is the header's note on the sides' columns: benchstat shows each
// median's interval, the default method only the medians (its interval is
// the delta's).
func medianCI(c *analysis.Comparison) string {
	if c.Method == analysis.MethodBenchstat {
		return " ± 95% CI"
	}
	return ""
}

// side formats one side of a row: the median, with benchstat's "± x%"
// interval in benchstat mode; "/cell" when the row compares per unit.
func side(c *analysis.Comparison, s analysis.Summary) string {
	v := seconds(s.Median)
	if c.Method == analysis.MethodBenchstat {
		v += " ± " + benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
	}
	return v
}

// trimLines drops trailing blanks from every line.
func trimLines(b []byte) []byte {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " ")
	}
	return bytes.Join(lines, []byte("\n"))
}

// rowName is a row's benchmark cell: its label ("base → head" when the
// labels differ), with the basis when the row compares per unit of work
// while others may not (Go benchmark text is per op throughout, which the
// header says).
func rowName(c *analysis.Comparison, r analysis.Row) string {
	name := r.Label
	if r.BaseLabel != "" {
		name = r.BaseLabel + " → " + r.Label
	}
	if r.Basis != "" && r.Basis != string(analysis.BasisTime) && !isGoBench(c) {
		name += " (" + r.Basis + ")"
	}
	return name
}

// gateText is a row's gate cell: "pass", "REGRESSION", or "inconclusive
// (+12 runs)".
func gateText(r analysis.Row) string {
	switch r.Gate {
	case analysis.Regression:
		return "REGRESSION"
	case analysis.Inconclusive:
		if r.MoreRuns > 0 {
			return fmt.Sprintf("inconclusive (+%d runs)", r.MoreRuns)
		}
		return "inconclusive"
	case analysis.Pass:
		return "pass"
	}
	return ""
}

// Conclusion is a row's conclusion cell: what its interval rules out, as
// analysis.RuleOut puts it ("no slowdown beyond +3.1%", "faster by at
// least 1.2%", "slower by at least 6.2%", "-1.2% to +7.9% still
// possible", "nothing ruled out yet"). A row whose RuledOut was not
// filled (built by a rule other than analysis's Compare functions) is
// read with analysis.RuleOut.
func Conclusion(r analysis.Row) string {
	ro := r.RuledOut
	if ro.Claim == "" {
		ro = analysis.RuleOut(r)
	}
	switch ro.Claim {
	case analysis.NoSlowdownBeyond:
		return "no slowdown beyond " + bound(ro.Bound)
	case analysis.FasterByAtLeast:
		return "faster by at least " + magnitude(ro.Bound)
	case analysis.SlowerByAtLeast:
		return "slower by at least " + magnitude(ro.Bound)
	case analysis.StillPossible:
		return bound(ro.Lo) + " to " + bound(ro.Hi) + " still possible"
	}
	return "nothing ruled out yet"
}

// magnitude is bound without its sign: the size of a change.
func magnitude(v float64) string {
	return strings.TrimPrefix(bound(math.Abs(v)), "+")
}

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
	gate := c.Threshold > 0
	header := []string{"benchmark", "base", "head", "delta", "delta interval", "verdict"}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft, tw.AlignLeft}
	if gate {
		header = append(header, "gate "+pctPlain(c.Threshold))
		align = append(align, tw.AlignLeft)
	}
	header = append(header, "conclusion")
	align = append(align, tw.AlignLeft)
	var rows [][]string
	for _, r := range c.Rows {
		verdict := string(r.Verdict)
		if r.Verdict != analysis.Same {
			verdict = "**" + verdict + "**"
		}
		row := []string{report.MdEscape(rowName(c, r)), side(c, r.Base), side(c, r.Head), pct(r.Delta, 2), interval(r), verdict}
		if gate {
			g := gateText(r)
			if r.Gate == analysis.Regression {
				g = "**" + g + "**"
			}
			row = append(row, g)
		}
		rows = append(rows, append(row, Conclusion(r)))
	}
	if c.Geomean.OK {
		row := []string{"*geomean*", seconds(c.Geomean.Base), seconds(c.Geomean.Head), pct(c.Geomean.Delta, 2), "", ""}
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
	if isGoBench(c) {
		sample = "every result line's time per op is one sample"
	}
	if c.Paired {
		sample = "each base run and the head run made next to it form one pair of workload wall times (time per unit of work when the sides do different work)"
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
		tests = append(tests, []string{report.MdEscape(rowName(c, r)), pNumber(r.P), pNumber(r.PAdjusted), levelText(r.Level), nString(r),
			absCI(r.Base), absCI(r.Head), interval(r)})
	}
	if err := report.MarkdownTable(&b, []string{"benchmark", "p", "adjusted p", "level", "n", "base median [95% CI]", "head median [95% CI]", "delta interval"}, tests,
		[]tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}); err != nil {
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

// JSON writes the comparison as one indented JSON object whose "schema"
// is JSONSchema:
//
//	schema, mode ("files"/"cells"/"layouts"), method ("hl"/"benchstat"),
//	correction ("holm"/"none"), paired (true when the rows compare paired
//	runs, as ab's do; omitted otherwise), layouts (the function layouts
//	combined, mode "layouts" only), summary (SummaryLine), gate ("off", "pass",
//	"regression", "inconclusive"), exit_code (0, 1, 3), threshold, alpha,
//	unit ("seconds"), workload, base/head {name, tool, machine, params},
//	rows [{label, base_label, cell, params, basis ("time", "per cell"),
//	base/head {median, lo, hi, confidence, n, failed}, delta, delta_lo,
//	delta_hi, level, p, p_adjusted, alpha, verdict ("faster", "slower",
//	"~"), gate, more_runs, pairs (paired rows), layouts (the layouts a
//	row combines, mode "layouts"), ruled_out {claim
//	("no-slowdown-beyond", "faster-by-at-least", "slower-by-at-least",
//	"still-possible", "nothing"), bound (the claim's figure; omitted for
//	still-possible and nothing), lo, hi (the changes still possible),
//	level, more_runs (inconclusive rows), text (Conclusion)}, warnings}],
//	geomean {base, head, delta}, only_base, only_head, warnings.
//
// Fractions are fractions (0.05 for 5%), times seconds (per unit of work
// on a row whose basis says so). Infinite interval bounds (too few runs)
// are written as null.
func JSON(w io.Writer, c *analysis.Comparison) error {
	type summary struct {
		Median     float64  `json:"median"`
		Lo         *float64 `json:"lo"`
		Hi         *float64 `json:"hi"`
		Confidence float64  `json:"confidence"`
		N          int      `json:"n"`
		Failed     int      `json:"failed"`
	}
	type ruledOut struct {
		Claim    analysis.Claim `json:"claim"`
		Bound    *float64       `json:"bound,omitempty"`
		Lo       *float64       `json:"lo"`
		Hi       *float64       `json:"hi"`
		Level    float64        `json:"level"`
		MoreRuns int            `json:"more_runs,omitempty"`
		Text     string         `json:"text"`
	}
	type row struct {
		Label     string            `json:"label"`
		BaseLabel string            `json:"base_label,omitempty"`
		Cell      string            `json:"cell"`
		Params    map[string]string `json:"params,omitempty"`
		Basis     string            `json:"basis"`
		Base      summary           `json:"base"`
		Head      summary           `json:"head"`
		Delta     float64           `json:"delta"`
		DeltaLo   *float64          `json:"delta_lo"`
		DeltaHi   *float64          `json:"delta_hi"`
		Level     float64           `json:"level"`
		P         float64           `json:"p"`
		PAdjusted float64           `json:"p_adjusted"`
		Alpha     float64           `json:"alpha"`
		Verdict   analysis.Verdict  `json:"verdict"`
		Gate      analysis.Outcome  `json:"gate"`
		MoreRuns  int               `json:"more_runs,omitempty"`
		Pairs     int               `json:"pairs,omitempty"`
		Layouts   int               `json:"layouts,omitempty"`
		RuledOut  ruledOut          `json:"ruled_out"`
		Warnings  []string          `json:"warnings,omitempty"`
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
		Schema     string              `json:"schema"`
		Mode       string              `json:"mode"`
		Method     analysis.Method     `json:"method"`
		Correction analysis.Correction `json:"correction"`
		Paired     bool                `json:"paired,omitempty"`
		Layouts    []string            `json:"layouts,omitempty"`
		Summary    string              `json:"summary"`
		Gate       analysis.Outcome    `json:"gate"`
		ExitCode   int                 `json:"exit_code"`
		Threshold  float64             `json:"threshold"`
		Alpha      float64             `json:"alpha"`
		Unit       string              `json:"unit"`
		Workload   string              `json:"workload,omitempty"`
		Base       side                `json:"base"`
		Head       side                `json:"head"`
		Rows       []row               `json:"rows"`
		Geomean    *geomean            `json:"geomean"`
		OnlyBase   []string            `json:"only_base,omitempty"`
		OnlyHead   []string            `json:"only_head,omitempty"`
		Warnings   []string            `json:"warnings,omitempty"`
	}
	sum := func(s analysis.Summary) summary {
		return summary{s.Median, harness.FiniteOrNil(s.Lo), harness.FiniteOrNil(s.Hi), s.Confidence, s.N, s.Failed}
	}
	o := out{
		Schema: JSONSchema, Mode: c.Mode, Method: c.Method, Correction: c.Correction, Paired: c.Paired, Layouts: c.Layouts,
		Summary: SummaryLine(c), Gate: c.Outcome(), ExitCode: c.Outcome().ExitCode(), Threshold: c.Threshold,
		Alpha: c.Alpha, Unit: "seconds", Workload: c.Workload,
		Base:     side{c.Base.Name, c.Base.Tool, c.Base.Machine, c.Base.Params},
		Head:     side{c.Head.Name, c.Head.Tool, c.Head.Machine, c.Head.Params},
		Rows:     []row{},
		OnlyBase: c.OnlyBase, OnlyHead: c.OnlyHead, Warnings: c.Warnings,
	}
	for _, r := range c.Rows {
		ro := r.RuledOut
		if ro.Claim == "" {
			ro = analysis.RuleOut(r)
		}
		var b *float64
		switch ro.Claim {
		case analysis.NoSlowdownBeyond, analysis.FasterByAtLeast, analysis.SlowerByAtLeast:
			b = harness.FiniteOrNil(ro.Bound)
		}
		o.Rows = append(o.Rows, row{
			Label: r.Label, BaseLabel: r.BaseLabel, Cell: r.Cell, Params: r.Params, Basis: r.Basis,
			Base: sum(r.Base), Head: sum(r.Head),
			Delta: r.Delta, DeltaLo: harness.FiniteOrNil(r.DeltaLo), DeltaHi: harness.FiniteOrNil(r.DeltaHi), Level: r.Level,
			P: r.P, PAdjusted: r.PAdjusted, Alpha: r.Alpha, Verdict: r.Verdict, Gate: r.Gate, MoreRuns: r.MoreRuns, Pairs: r.Pairs, Layouts: r.Layouts,
			RuledOut: ruledOut{Claim: ro.Claim, Bound: b, Lo: harness.FiniteOrNil(ro.Lo), Hi: harness.FiniteOrNil(ro.Hi),
				Level: ro.Level, MoreRuns: ro.MoreRuns, Text: Conclusion(r)},
			Warnings: r.Warnings,
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
	if s, ok := nonFinite(v, "∞"); ok {
		return s
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

// nonFinite is how v reads when it is not a finite number: inf for +∞,
// "-∞" and "?" for NaN; ok is false for a finite v.
func nonFinite(v float64, inf string) (s string, ok bool) {
	switch {
	case math.IsInf(v, 1):
		return inf, true
	case math.IsInf(v, -1):
		return "-∞", true
	case math.IsNaN(v):
		return "?", true
	}
	return "", false
}

func absCI(s analysis.Summary) string {
	return fmt.Sprintf("%s [%s, %s]", seconds(s.Median), seconds(s.Lo), seconds(s.Hi))
}

// pct formats a fraction as a signed percentage; ±Inf as ±∞.
func pct(v float64, prec int) string {
	if s, ok := nonFinite(v, "+∞"); ok {
		return s
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

// interval formats the delta interval. A bound rounding to the other side
// of zero than its sign is shown with more precision, so a significant
// row never reads as if its interval touched zero.
func interval(r analysis.Row) string {
	return "[" + bound(r.DeltaLo) + ", " + bound(r.DeltaHi) + "]"
}

func bound(v float64) string {
	for prec := 1; prec < 6; prec++ {
		s := pct(v, prec)
		if v == 0 || (s != "+0."+strings.Repeat("0", prec)+"%" && s != "-0."+strings.Repeat("0", prec)+"%") {
			return s
		}
	}
	return pct(v, 6)
}

// pValue is benchstat's "p=0.000 n=10" annotation; under a correction, the
// adjusted p-value, which is what the verdict compares with α.
func pValue(c *analysis.Comparison, r analysis.Row) string {
	if c.Method == analysis.MethodBenchstat {
		return benchmath.Comparison{P: r.P, N1: r.Base.N, N2: r.Head.N}.String()
	}
	return benchmath.Comparison{P: r.PAdjusted, N1: r.Base.N, N2: r.Head.N}.String()
}

func pNumber(p float64) string {
	return fmt.Sprintf("%.3g", p)
}

func nString(r analysis.Row) string {
	if r.Base.N == r.Head.N {
		return fmt.Sprint(r.Base.N)
	}
	return fmt.Sprintf("%d+%d", r.Base.N, r.Head.N)
}
