package main

// The live check's report: its trials, the rates tallied from them per
// condition and metric, the time ab took to flag a planted slowdown, and
// OUT.json (OUT.md is the whole live report, writeCheckReport).

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// Report is what gatecheck writes to OUT.json.
type Report struct {
	Command    string          `json:"command"`
	Rootbench  harness.Tool    `json:"rootbench"`
	Machine    harness.Machine `json:"machine"`
	Cells      string          `json:"cells"`
	Slow       string          `json:"slow"`     // the cell slowed in planted trials
	ABFlags    []string        `json:"ab_flags"` // beyond the defaults
	StartedAt  time.Time       `json:"started_at"`
	FinishedAt time.Time       `json:"finished_at"`
	// Interrupted is set when a signal stopped the check: the trials are
	// those made before it.
	Interrupted bool `json:"interrupted,omitempty"`
	// Conditions are the rates of each condition checked, in order.
	Conditions []LiveCondition `json:"conditions"`
	Trials     []Trial         `json:"trials"`
}

// LiveCondition is one condition's trials, tallied.
type LiveCondition struct {
	Condition string `json:"condition"`
	Describe  string `json:"describe"`
	// Metrics are the rates counted on each metric's rows, named as the
	// replay names its own.
	Metrics []LiveMetric `json:"metrics"`
	// Flags are how long ab took to flag each planted slowdown.
	Flags []FlagTime `json:"flags"`
}

// LiveMetric is the rates of one metric's rows.
type LiveMetric struct {
	Metric string `json:"metric"`
	Rates  []Rate `json:"rates"`
}

// FlagTime is how long ab took to flag one kind of planted slowdown: the
// median over its trials of the time into the session of the first look
// that judged the slowed cell a regression (a trial never flagged counts
// as longer than any; the median is then -1 when they are half or more).
type FlagTime struct {
	Kind     string `json:"kind"`
	Trials   int    `json:"trials"`
	Flagged  int    `json:"flagged"`
	MedianNs int64  `json:"median_ns"`
}

// Trial is one ab session.
type Trial struct {
	Condition string `json:"condition"`
	Kind      string `json:"kind"`              // "A/A", "planted 5%", "planted 5% in CPU time"
	Planted   string `json:"planted,omitempty"` // as ROOTBENCH_SLOW spells it: 5% or 5%cpu; "" for A/A
	Metric    string `json:"metric,omitempty"`  // the metric planted in
	ExitCode  int    `json:"exit_code"`
	Outcome   string `json:"outcome"` // the table's: pass, regression, inconclusive
	Stopped   string `json:"stopped"` // why sampling ended
	Runs      int    `json:"runs"`    // per side at the last look
	// Load is the lowest and highest one-minute load average its runs
	// started under (absent when its runs did not record it).
	Load       []float64  `json:"load,omitempty"`
	DurationNs int64      `json:"duration_ns"`
	Rows       []TrialRow `json:"rows"`
	// FlaggedNs is the time into the session of the first look that
	// judged the slowed cell a regression (flaggedAt); 0 when none did.
	FlaggedNs int64 `json:"flagged_ns,omitempty"`
}

// TrialRow is one row of a trial's gate: a benchmark on a metric.
type TrialRow struct {
	Label   string `json:"label"`
	Cell    string `json:"cell"`
	Metric  string `json:"metric"`
	Outcome string `json:"outcome"` // pass, regression, inconclusive
}

// tally computes each condition's rates: per metric and kind, the rows
// reported as regressions (false alarms on the cells not slowed,
// detections on the slowed cell in the metric planted in) and the rows
// left inconclusive; and the time to flag each planted kind.
func (rep *Report) tally(conds []condition, ks []kind) {
	rep.Conditions = nil
	for _, cond := range conds {
		lc := LiveCondition{Condition: cond.name(), Describe: cond.describe()}
		for _, m := range rep.metrics() {
			lm := LiveMetric{Metric: m}
			for _, k := range ks {
				if k.pct != "" && k.metric != m {
					continue
				}
				lm.Rates = append(lm.Rates, rep.kindRates(cond.name(), m, k)...)
			}
			lc.Metrics = append(lc.Metrics, lm)
		}
		for _, k := range ks {
			if k.pct != "" {
				lc.Flags = append(lc.Flags, rep.flagTime(cond.name(), k))
			}
		}
		rep.Conditions = append(rep.Conditions, lc)
	}
}

// metrics are the metrics the trials' rows judged, wall time first.
func (rep *Report) metrics() []string {
	var out []string
	for _, m := range allMetrics {
		for _, t := range rep.Trials {
			if slices.ContainsFunc(t.Rows, func(r TrialRow) bool { return r.Metric == m.name }) && !slices.Contains(out, m.name) {
				out = append(out, m.name)
			}
		}
	}
	return out
}

// kindRates are one kind's rates in one condition, on metric m's rows.
func (rep *Report) kindRates(cond, m string, k kind) []Rate {
	var alarms, rows, hits, planted, undecided, total int
	var dur []float64
	name := "A/A"
	if k.pct != "" {
		name = "planted " + k.pct + "%"
	}
	for _, t := range rep.Trials {
		if t.Condition != cond || t.Kind != k.name {
			continue
		}
		dur = append(dur, float64(t.DurationNs)/1e9)
		for _, r := range t.Rows {
			if r.Metric != m {
				continue
			}
			total++
			if r.Outcome == string(analysis.Inconclusive) {
				undecided++
			}
			switch {
			case k.pct != "" && r.Cell == rep.Slow:
				planted++
				if r.Outcome == string(analysis.Regression) {
					hits++
				}
			default:
				rows++
				if r.Outcome == string(analysis.Regression) {
					alarms++
				}
			}
		}
	}
	note := fmt.Sprintf("%d trial(s), median %s each", len(dur), harness.FormatDuration(time.Duration(stats.Median(dur)*1e9)))
	var out []Rate
	if k.pct == "" {
		out = append(out, newRate(name+": false alarms per row (rows reported as regressions)", alarms, rows, note))
	} else {
		out = append(out,
			newRate(fmt.Sprintf("%s on %s: detected (reported as a regression)", name, rep.Slow), hits, planted, note),
			newRate(name+": false alarms per row on the other cells", alarms, rows, ""))
	}
	return append(out, newRate(name+": rows left inconclusive", undecided, total, ""))
}

// flagTime is the median time to flag kind k's slowdown in a condition.
func (rep *Report) flagTime(cond string, k kind) FlagTime {
	ft := FlagTime{Kind: k.name}
	var times []float64
	for _, t := range rep.Trials {
		if t.Condition != cond || t.Kind != k.name {
			continue
		}
		ft.Trials++
		at := math.Inf(1)
		if t.FlaggedNs > 0 {
			ft.Flagged++
			at = float64(t.FlaggedNs)
		}
		times = append(times, at)
	}
	ft.MedianNs = -1
	if med := stats.Median(times); ft.Trials > 0 && !math.IsInf(med, 0) && !math.IsNaN(med) {
		ft.MedianNs = int64(med)
	}
	return ft
}

// write writes OUT.json, then OUT.md, the whole live report, from it and
// the replay's report when there is one (writeCheckReport).
func (rep *Report) write(out, replayJSON string) error {
	if err := writeJSON(out+".json", rep); err != nil {
		return err
	}
	return writeCheckReport(out+".md", out+".json", replayJSON)
}

// body renders the live check for the live report, its headings at level
// h: how it was run, and each condition's rates beside the replay's
// (replayed: by condition, metric and rate name; nil without a replay).
func (rep *Report) body(h string, replayed func(cond, metric, name string) (Rate, bool)) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Generated by `make gate-check`. Each trial is one `rootbench ab` session at its default budget and gate\n"+
		"(unless flags below say otherwise), the same binary on both sides; planted trials slow `%s` on the head side\n"+
		"only (`ROOTBENCH_SLOW`, a `-tags rootbench_faulty` build), in the metric they name.\n\n", rep.Slow)
	fmt.Fprintf(&b, "- command: `%s`\n", rep.Command)
	rev := rep.Rootbench.Revision
	if rev == "" {
		rev = rep.Rootbench.Version
	}
	if rep.Rootbench.Modified {
		rev += " (modified tree)"
	}
	fmt.Fprintf(&b, "- rootbench: %s, %s\n", rev, rep.Rootbench.GoVersion)
	fmt.Fprintf(&b, "- cells: `%s`; extra ab flags: `%s`\n", rep.Cells, strings.Join(rep.ABFlags, " "))
	m := rep.Machine
	fmt.Fprintf(&b, "- machine: %s, %d CPUs, load average at start %v\n", m.CPUModel, m.LogicalCPUs, m.LoadAvg)
	fmt.Fprintf(&b, "- %s to %s (%s)", rep.StartedAt.Format(time.RFC3339), rep.FinishedAt.Format(time.RFC3339),
		rep.FinishedAt.Sub(rep.StartedAt).Round(time.Second))
	if rep.Interrupted {
		b.WriteString("; interrupted: the trials made before the signal")
	}
	b.WriteString("\n\n")
	for _, lc := range rep.Conditions {
		for _, lm := range lc.Metrics {
			fmt.Fprintf(&b, "%s %s, %s\n\n", h, lc.Describe, metricTitle(lm.Metric))
			b.WriteString("| measured | count | rate | 95% interval (Wilson) | replayed | notes |\n|---|---:|---:|---|---|---|\n")
			for _, r := range lm.Rates {
				beside := "–"
				if replayed != nil {
					if x, ok := replayed(lc.Condition, lm.Metric, r.Name); ok {
						beside = fmt.Sprintf("%.1f%% (%.1f%% – %.1f%%)", 100*x.Rate, 100*x.Lo, 100*x.Hi)
					}
				}
				fmt.Fprintf(&b, "| %s | %d of %d | %.1f%% | %.1f%% – %.1f%% | %s | %s |\n", r.Name, r.Hits, r.Of, 100*r.Rate, 100*r.Lo, 100*r.Hi, beside, r.Notes)
			}
			b.WriteString("\n")
		}
		if len(lc.Flags) > 0 {
			fmt.Fprintf(&b, "Time for `ab` to flag the planted slowdown (%s): the first look that judged `%s` a regression:\n\n", lc.Describe, rep.Slow)
			for _, f := range lc.Flags {
				fmt.Fprintf(&b, "- %s: median %s (flagged in %d of %d trials; a trial not flagged counts as longer than any)\n", f.Kind, f.median(), f.Flagged, f.Trials)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// median says the median time to flag: "52.0 s", or "none" when half the
// trials or more were not flagged.
func (f FlagTime) median() string {
	if f.MedianNs < 0 {
		return "none"
	}
	return harness.FormatDuration(time.Duration(f.MedianNs))
}

// metricTitle is a metric's title by its name.
func metricTitle(name string) string {
	for _, m := range allMetrics {
		if m.name == name {
			return m.title
		}
	}
	return name
}
