// Package compare prints what package analysis decided about two sides
// (two results files, two cells of one file, or the base and head builds
// of `rootbench ab`): an aligned terminal table (Text), a pull-request
// comment (Markdown) and a versioned JSON document (JSON). It computes no
// delta, interval, verdict or gate itself.
//
// Each format is one file (text.go, markdown.go, json.go, the last with
// its schema, JSONSchema); cells.go formats the figures they share, and
// this file the lines they share: the summary line, the method and the
// gate's rule.
package compare

import (
	"fmt"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

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
			parts = append(parts, fmt.Sprintf("%s %s %s", c.RowName(r), pct(r.Delta, 1), interval(r)))
		}
		b.WriteString(gate + "REGRESSION (" + strings.Join(parts, "; ") + ")")
	case analysis.Inconclusive:
		var parts []string
		for _, r := range c.Undecided() {
			parts = append(parts, c.RowName(r)+": "+moreRuns(r))
		}
		b.WriteString(gate + "INCONCLUSIVE (" + strings.Join(parts, "; ") + ")")
	}
	if n := len(c.Warnings); n > 0 {
		fmt.Fprintf(&b, "; %d warning%s", n, report.Plural(n))
	}
	return b.String()
}

// VerdictLines are one line per benchmark of a results file whose rows
// name their metric: each metric's verdict, then the load the runs started
// under when they recorded it: "boxroot: CPU time +10.2% [+6.1%, +14.5%]
// REGRESSION; wall time undecided (load 6.1)". None otherwise (the table
// says it all), nor for Go benchmark text, whose units the table lists.
func VerdictLines(c *analysis.Comparison) []string {
	if !c.NamesMetrics() || isGoBench(c) {
		return nil
	}
	var order []string
	parts := map[string][]string{}
	for _, r := range c.Rows {
		if _, ok := parts[r.Label]; !ok {
			order = append(order, r.Label)
		}
		parts[r.Label] = append(parts[r.Label], r.Metric.Label+" "+verdictPart(r))
	}
	load := ""
	if l := c.Load; l.OK {
		load = fmt.Sprintf(" (load %.1f)", l.Hi)
		if lo, hi := fmt.Sprintf("%.1f", l.Lo), fmt.Sprintf("%.1f", l.Hi); lo != hi {
			load = fmt.Sprintf(" (load %s–%s)", lo, hi)
		}
	}
	out := make([]string, len(order))
	for i, label := range order {
		out[i] = label + ": " + strings.Join(parts[label], "; ") + load
	}
	return out
}

// verdictPart is one row's verdict in a verdict line: "undecided", or the
// delta, its interval and the gate's outcome ("REGRESSION", "pass") or,
// with the gate off, the verdict.
func verdictPart(r analysis.Row) string {
	if r.Gate == analysis.Inconclusive {
		return "undecided"
	}
	what := verdictText(r)
	switch r.Gate {
	case analysis.Regression:
		what = "REGRESSION"
	case analysis.Pass:
		what = "pass"
	}
	return fmt.Sprintf("%s %s %s", pct(r.Delta, 1), interval(r), what)
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
			"a row is significant exactly when its interval excludes 0; ", len(c.Layouts), strings.Join(c.Layouts, ", ")) + corr + metricsNote(c)
	}
	if c.Paired {
		return "paired: each base run against the head run made next to it; Hodges-Lehmann estimate of the pairs' log ratios with the Wilcoxon signed-rank (Tukey) interval; a row is significant exactly when its interval excludes 0; " + corr + metricsNote(c)
	}
	return "Hodges-Lehmann shift of log times with the Mann-Whitney (Moses) interval; a row is significant exactly when its interval excludes 0; " + corr + metricsNote(c)
}

// metricsNote adds to the method what the rows of several metrics share:
// one correction and one gate, and the exact units' rule.
func metricsNote(c *analysis.Comparison) string {
	if len(c.Metrics) < 2 {
		return ""
	}
	var names []string
	exact := false
	for _, m := range c.Metrics {
		names = append(names, m.Label)
		exact = exact || m.Exact
	}
	note := "; a row per benchmark and metric (" + strings.Join(names, ", ") + "), every row in the correction and the gate"
	if exact {
		note += "; a unit declared assume=exact is compared by its values alone"
	}
	return note
}

// gateRule states the gate's rule, for the footers.
func gateRule(c *analysis.Comparison) string {
	if c.Threshold <= 0 {
		return "The gate is off."
	}
	t := pctPlain(c.Threshold)
	return fmt.Sprintf("Gate %s: pass when the interval lies wholly below +%s; regression when significant and the estimate is beyond +%s; otherwise inconclusive.", t, t, t)
}

// isGoBench reports whether c compares Go benchmark text (see
// harness.DecodeGoBench), whose rows are all per op.
func isGoBench(c *analysis.Comparison) bool { return c.Workload == harness.GoBenchWorkload }

// measure names what the sides' columns show: the median workload wall
// time, or the median time per op for Go benchmark text; when the rows
// name their metric, the median of each row's.
func measure(c *analysis.Comparison) string {
	switch {
	case c.NamesMetrics() && isGoBench(c):
		return "median per op of each row's unit"
	case c.NamesMetrics():
		return "median of each row's metric (wall: workload wall time; CPU: CPU time)"
	case isGoBench(c):
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
