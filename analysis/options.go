package analysis

// This file holds what a comparison is asked for: its method, its
// correction across rows, its error rate and its gate (Options), and how
// they default and are checked.

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Default statistical levels.
const (
	// DefaultConfidence is the level of each side's median interval, as
	// benchstat shows it.
	DefaultConfidence = 0.95
)

// Method names how a row's delta, interval and verdict are computed.
type Method string

// The methods.
const (
	// MethodHL is the default: the Hodges-Lehmann shift of log times with
	// the Mann-Whitney (Moses) interval; significant exactly when the
	// interval excludes zero (see the package documentation).
	MethodHL Method = "hl"
	// MethodBenchstat reproduces benchstat: medians with their intervals,
	// the U test's p-value, no correction across rows.
	MethodBenchstat Method = "benchstat"
)

// ParseMethod parses a --method value: hl (or hodges-lehmann, or empty)
// or benchstat, case-insensitively.
func ParseMethod(s string) (Method, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "hl", "hodges-lehmann":
		return MethodHL, nil
	case "benchstat":
		return MethodBenchstat, nil
	}
	return "", fmt.Errorf("unknown method %q: accepted values are hl (Hodges-Lehmann, the default) and benchstat", s)
}

// Correction names how the error rate is controlled across rows.
type Correction string

// The corrections.
const (
	// CorrectionHolm controls the family-wise error rate across rows
	// (Holm's step-down): the default of MethodHL.
	CorrectionHolm Correction = "holm"
	// CorrectionNone tests every row at Alpha (benchstat's practice).
	CorrectionNone Correction = "none"
)

// Options configures a comparison. The zero value is MethodHL with Holm at
// alpha 0.05 and the gate off, on wall time alone (Go benchmark text: on
// every unit it carries).
type Options struct {
	// Method is MethodHL ("") or MethodBenchstat.
	Method Method
	// Alpha is the error rate: across the rows for MethodHL with Holm, per
	// row otherwise. 0 means DefaultAlpha.
	Alpha float64
	// Correction is CorrectionHolm ("") or CorrectionNone for MethodHL;
	// MethodBenchstat always uses CorrectionNone.
	Correction Correction
	// Threshold is the regression gate as a fraction (0.05 for 5%); 0
	// turns the gate off.
	Threshold float64
	// BaseName and HeadName name the two sides in reports (file names,
	// say). Empty means "base" and "head" (or the labels, for CompareCells).
	BaseName, HeadName string
	// Paired (MethodHL, CompareFiles) declares that the runs of a
	// configuration on the two sides were made in pairs, back to back, as
	// ab makes them (harness.Run.Pair numbers them; files without numbers
	// pair the i-th runs): each row then compares the pairs' log ratios
	// (the one-sample Hodges-Lehmann estimate with the Wilcoxon
	// signed-rank interval), so that drift common to a pair cancels. See
	// "Paired comparisons" in the package documentation.
	Paired bool
	// Metrics are the metrics a results file's benchmarks are judged on,
	// one row per benchmark and metric (ParseMetrics); nil judges wall
	// time alone. Go benchmark text is judged on its units instead.
	Metrics []Metric
	// Units are the units of Go benchmark text judged, one row per
	// benchmark and unit (ParseUnits); nil judges every unit the text
	// carries, as benchstat does.
	Units []string
	// Ignore lists configuration keys (the `key: value` lines of Go
	// benchmark text) whose values may differ between the benchmarks
	// compared, as benchstat's -ignore: a benchmark is otherwise compared
	// only with one of the same configuration.
	Ignore []string
}

func (o Options) resolve() (Options, error) {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Method == "" {
		o.Method = MethodHL
	}
	if o.Method != MethodHL && o.Method != MethodBenchstat {
		return o, fmt.Errorf("method %q: accepted values are hl and benchstat", o.Method)
	}
	switch {
	case o.Method == MethodBenchstat:
		o.Correction = CorrectionNone
	case o.Correction == "":
		o.Correction = CorrectionHolm
	case o.Correction != CorrectionHolm && o.Correction != CorrectionNone:
		return o, fmt.Errorf("correction %q: accepted values are holm and none", o.Correction)
	}
	if o.Paired && o.Method != MethodHL {
		return o, fmt.Errorf("paired comparison: needs the default method (hl), not %s", o.Method)
	}
	if len(o.Metrics) == 0 {
		o.Metrics = []Metric{Wall}
	}
	o.Metrics = slices.Clone(o.Metrics)
	for i, m := range o.Metrics {
		switch {
		case m.kind == kindProcessCPU:
			o.Metrics[i] = CPU // chosen per row (cpuMetric)
		case m.kind != kindWall && m.kind != kindCPU:
			return o, fmt.Errorf("metric %q: %s", m.Name, metricsAccepted)
		}
		if slices.ContainsFunc(o.Metrics[:i], func(x Metric) bool { return sameMetric(x, m) }) {
			return o, fmt.Errorf("metric %q given twice: %s", m.Name, metricsAccepted)
		}
	}
	if err := CheckAlpha(o.Alpha); err != nil {
		return o, err
	}
	if math.IsNaN(o.Threshold) || math.IsInf(o.Threshold, 0) || o.Threshold < 0 {
		return o, fmt.Errorf("threshold %v: must be a finite fraction >= 0 (0.05 for 5%%; 0 turns the gate off)", o.Threshold)
	}
	return o, nil
}
