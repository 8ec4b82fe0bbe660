package analysis

// This file holds what a comparison returns: its rows (each side's
// summary, the delta, its interval, the verdict and the gate's outcome),
// the geomean row, and the comparison that gathers them with its
// warnings.

import "github.com/rootbench/rootbench/harness"

// Verdict is the outcome of one row's significance test.
type Verdict string

// The verdicts. Same is benchstat's "~": no significant difference.
const (
	Faster Verdict = "faster"
	Slower Verdict = "slower"
	Same   Verdict = "~"
)

// Summary is one side of a row: the median of its samples (seconds, or
// seconds per unit of work when Row.Basis says so) with benchmath's
// distribution-free confidence interval (Lo and Hi are ±Inf when there are
// too few runs for one).
type Summary struct {
	Median float64
	Lo, Hi float64
	// Confidence is the interval's actual level (at least the requested one).
	Confidence float64
	// N is the number of successful runs; Failed the number of failed runs
	// left out.
	N      int
	Failed int
}

// Row compares one configuration between base and head on one metric.
type Row struct {
	// Label names the configuration (the head's label). BaseLabel is the
	// base's label when it differs (always, for CompareCells).
	Label     string
	BaseLabel string
	Cell      string
	// Metric is what the row compares: Wall, CPU (or ProcessCPU, when a
	// side's runs lack the measured passes' CPU time), or a unit of Go
	// benchmark text.
	Metric Metric
	// Params are the head's effective parameters (file-wide merged with the
	// result's own).
	Params map[string]string
	// Basis is "time" when both sides do the same work per run, else "per
	// cell" or "per call": the samples are then times per unit of work.
	Basis      string
	Base, Head Summary
	// Delta is the estimated change, head over base − 1: the Hodges-Lehmann
	// shift of log times (MethodHL) or the ratio of medians (benchstat).
	// DeltaLo and DeltaHi bound it at Level; ±Inf with too few runs.
	Delta, DeltaLo, DeltaHi float64
	// Level is the delta interval's confidence level: 1 − the level the row
	// was tested at (after the correction) for MethodHL; benchstat's 0.95.
	Level float64
	// P is the row's p-value (Mann-Whitney); PAdjusted is P after the
	// correction (equal to P without one). For MethodHL the row is
	// significant exactly when PAdjusted <= Alpha, exactly when the interval
	// excludes zero.
	P, PAdjusted float64
	// Alpha is the comparison's error rate.
	Alpha float64
	// Verdict is Same when the change is not significant, else Slower
	// when it is for the worse (a rise of a lower-is-better metric, a fall
	// of a higher-is-better one), else Faster.
	Verdict Verdict
	// Gate is the row's outcome under the threshold (GateOff without one).
	Gate Outcome
	// MoreRuns is, for an Inconclusive row, about how many more runs per
	// side would decide it (interval width taken as shrinking with
	// 1/sqrt(n)); 0 when unknown, not needed, or beyond maxMoreRuns (an
	// estimate about the size of the threshold, which no practical number
	// of runs settles).
	MoreRuns int
	// RuledOut is what the row's interval rules out, at Level, as one
	// claim (RuleOut): filled once the gate has decided, from the interval
	// the verdict and the gate read.
	RuledOut RuledOut
	// Warnings about this row (too few samples, mismatched parameters).
	Warnings []string

	// Pairs is the number of paired runs compared (Options.Paired); 0 for
	// an unpaired row.
	Pairs int
	// Layouts is the number of function layouts the row combines
	// (CompareLayouts); 0 for a row of one session.
	Layouts int

	mult    float64   // the correction's multiplier of the row's tested level
	minRuns int       // MethodHL: sh.minRuns at the row's tested level
	sh      shiftTest // MethodHL's comparison, until the correction is done
}

// Geomean closes the table, as benchstat's geomean row: the geometric means
// of the base and head medians, and Delta = the geometric mean of the rows'
// ratios − 1 (the rows' estimates for MethodHL, the ratios of medians for
// benchstat).
type Geomean struct {
	// Metric is the metric of the rows it closes.
	Metric     Metric
	Base, Head float64
	Delta      float64
	// OK is false when a median is not positive and no geomean exists.
	OK bool
}

// Side describes one side of a comparison.
type Side struct {
	Name    string
	Tool    harness.Tool
	Machine harness.Machine
	Params  map[string]string
}

// Comparison is the whole comparison: one row per configuration present on
// both sides, a geomean, and every warning.
type Comparison struct {
	// Mode is "files" (CompareFiles), "cells" (CompareCells) or "layouts"
	// (CompareLayouts).
	Mode       string
	Method     Method
	Correction Correction
	// Paired is true when the rows compare paired runs (Options.Paired).
	Paired     bool
	Base, Head Side
	Workload   string
	Unit       string
	Alpha      float64
	// Threshold is the gate (a fraction); 0 when the gate is off.
	Threshold float64
	Rows      []Row
	// Metrics are the metrics of the rows, in the order they first
	// appear (one per name: a CPU row may compare ProcessCPU).
	Metrics []Metric
	// Geomean closes the rows of the first metric; Geomeans has one per
	// metric, in the order of Metrics (those whose medians allow one).
	Geomean  Geomean
	Geomeans []Geomean
	// Load is the range of the one-minute load averages the runs of both
	// sides started under (harness.RunEnv); OK is false when no run
	// recorded one.
	Load LoadRange
	// Layouts names the function layouts combined (CompareLayouts), in
	// order; nil for one session or two files.
	Layouts []string
	// OnlyBase and OnlyHead list the labels present on one side only.
	OnlyBase, OnlyHead []string
	// Warnings gathers every warning, the rows' included, in order.
	Warnings []string

	// processCPU and noCPU gather the labels whose CPU rows compare the
	// process's CPU time, or have no CPU time to compare, for one warning
	// each (finish).
	processCPU, noCPU []string
	// planned are the metrics the comparison judges, before its rows are
	// made (Metrics are those its rows have).
	planned []Metric
}

// LoadRange is the lowest and highest one-minute load average a
// comparison's runs started under.
type LoadRange struct {
	Lo, Hi float64
	OK     bool
}

// NamesMetrics reports whether the rows must name their metric: when they
// compare more than one, or one other than wall time (or Go benchmark
// text's time per op), which is what every row compared before metrics.
func (c *Comparison) NamesMetrics() bool { return namesMetrics(c.Metrics) }

func namesMetrics(ms []Metric) bool {
	switch {
	case len(ms) > 1:
		return true
	case len(ms) == 1:
		return ms[0].Name != Wall.Name && ms[0].Name != goBenchTime
	}
	return false
}

// RowName is how a sentence names r: its label, followed by its metric's
// label when the rows name their metric ("boxroot CPU time").
func (c *Comparison) RowName(r Row) string {
	if !c.NamesMetrics() {
		return r.Label
	}
	return r.Label + " " + r.Metric.Label
}

// Counts returns how many rows are slower, faster and unchanged.
func (c *Comparison) Counts() (slower, faster, same int) {
	for _, r := range c.Rows {
		switch r.Verdict {
		case Slower:
			slower++
		case Faster:
			faster++
		default:
			same++
		}
	}
	return
}
