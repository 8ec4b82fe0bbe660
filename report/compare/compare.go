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
