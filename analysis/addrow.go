package analysis

// This file makes the rows of one pair of results: one per metric the
// comparison judges (metric.go), each computed by its method
// (hodgeslehmann.go with shift.go, paired.go and exact.go; benchstat.go).
// The correction across rows and the gate wait for finish (compare.go).

import (
	"fmt"
	"math"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

// addRows appends the rows of b (base) and h (head), one per metric: o's
// metrics for results files, the comparison's units for Go benchmark text.
func (c *Comparison) addRows(b, h *harness.Result, bf, hf *harness.File, o Options, units []Metric) {
	if units != nil {
		for _, m := range units {
			inBase, inHead := carries(b, m), carries(h, m)
			switch {
			case inBase && inHead:
				c.addRow(b, h, bf, hf, m, o)
			case inBase:
				c.warnf("%s: %s only in %s (not compared)", h.Label, m.Name, c.Base.Name)
			case inHead:
				c.warnf("%s: %s only in %s (not compared)", h.Label, m.Name, c.Head.Name)
			}
		}
		return
	}
	for _, m := range o.Metrics {
		if sameMetric(m, CPU) {
			var ok bool
			if m, ok = cpuMetric(b, h); !ok {
				c.noCPU = append(c.noCPU, h.Label)
				continue
			}
			if m == ProcessCPU {
				c.processCPU = append(c.processCPU, h.Label)
			}
		}
		c.addRow(b, h, bf, hf, m, o)
	}
}

// carries reports whether a successful run of r has a value of m.
func carries(r *harness.Result, m Metric) bool {
	for _, run := range r.Runs {
		if _, ok := m.quantity(run); ok {
			return true
		}
	}
	return false
}

// addRow compares one pair on one metric and appends the row, or a
// warning when a side has no successful run.
func (c *Comparison) addRow(b, h *harness.Result, bf, hf *harness.File, m Metric, o Options) {
	label := h.Label // in warnings
	if c.namesPlanned() {
		label += " " + m.Label
	}
	basis := string(BasisTime)
	// Go benchmark text is compared per op always: its figures are per op.
	goBench := bf.GoBench != nil && hf.GoBench != nil
	perUnit := goBench || !sameWork(b, h)
	if perUnit {
		basis = "per " + c.Unit
	}
	bs, hs := m.samples(b, perUnit), m.samples(h, perUnit)
	if len(bs) == 0 || len(hs) == 0 {
		var sides []string
		if len(bs) == 0 {
			sides = append(sides, c.Base.Name)
		}
		if len(hs) == 0 {
			sides = append(sides, c.Head.Name)
		}
		c.warnf("%s: no successful run in %s (not compared)", label, strings.Join(sides, " and "))
		return
	}
	logScale := o.Method != MethodBenchstat || !goBench
	if bad := firstUnusable(bs, hs, logScale); bad != "" {
		what := "time"
		if !m.IsTime() {
			what = "value"
		}
		c.warnf("%s: sample %s: every sample must be a positive finite %s (not compared)", label, bad, what)
		return
	}
	var row Row
	switch {
	case o.Method == MethodBenchstat:
		row = benchstatRow(bs, hs, m, o)
	case m.Exact:
		row = hlRow(bs, hs, newExactShift(bs, hs), m, o)
	case o.Paired:
		px, py := pairedSamples(b, h, m, perUnit)
		if len(px) == 0 {
			c.warnf("%s: no pair of successful runs (not compared)", label)
			return
		}
		row = hlRow(bs, hs, newPairedShift(logs(px), logs(py)), m, o)
		row.Pairs = len(px)
	default:
		row = hlRow(bs, hs, newShift(logs(bs), logs(hs)), m, o)
	}
	row.Label, row.Cell, row.Basis, row.Metric = h.Label, h.Cell, basis, m
	if b.Label != h.Label {
		row.BaseLabel = b.Label
	}
	row.Base.Failed, row.Head.Failed = failed(b), failed(h)
	bp, hp := effective(bf, b), effective(hf, h)
	row.Params = hp
	if c.Mode == "files" {
		if d := paramDiff(without(bp, o.Ignore), without(hp, o.Ignore)); d != "" {
			row.Warnings = append(row.Warnings, "parameters differ: "+d)
		}
	}
	if perUnit && !goBench {
		row.Warnings = append(row.Warnings, fmt.Sprintf("the sides do different amounts of work per run: compared %s", basis))
	}
	if n := row.Base.Failed + row.Head.Failed; n > 0 {
		row.Warnings = append(row.Warnings, fmt.Sprintf("%d failed run(s) left out (%d in %s, %d in %s)",
			n, row.Base.Failed, c.Base.Name, row.Head.Failed, c.Head.Name))
	}
	c.Rows = append(c.Rows, row)
}

// namesPlanned is NamesMetrics for the metrics the comparison plans to
// judge, before its rows are made.
func (c *Comparison) namesPlanned() bool {
	return namesMetrics(c.planned)
}

// mediansSlack is how far outside a paired row's interval the change
// between its medians must be (2 percentage points) for mediansOutsidePairs
// to warn: a narrow interval is often missed by a fraction of a point,
// which misleads no one.
const mediansSlack = 0.02

// mediansOutsidePairs warns when a paired row's two medians differ by a
// change its interval rules out, by more than mediansSlack: the base and
// head columns then seem to contradict the delta. It happens when runs
// vary far more from pair to pair than within a pair (a machine whose
// speed jumps between modes, or drifts), which pairing cancels and the
// sides' medians do not; the verdict and the interval read the pairs.
// Empty otherwise.
func mediansOutsidePairs(r Row) string {
	if r.Pairs == 0 || !(r.Base.Median > 0 && r.Head.Median > 0) || math.IsInf(r.DeltaLo, 0) || math.IsInf(r.DeltaHi, 0) {
		return ""
	}
	m := r.Head.Median/r.Base.Median - 1
	if m >= r.DeltaLo-mediansSlack && m <= r.DeltaHi+mediansSlack {
		return ""
	}
	return fmt.Sprintf("the medians differ by %+.1f%%, outside the paired interval [%+.1f%%, %+.1f%%]: runs vary far more from pair to pair than within a pair (a machine that jumps between speeds, or drifts); the delta and the verdict read the pairs",
		100*m, 100*r.DeltaLo, 100*r.DeltaHi)
}

// firstUnusable describes the first sample of xs or ys that is not a
// finite number, or (logScale) not a positive one: a log needs one; ""
// when all are usable. Loaded results files are validated
// (harness.Decode); files built in memory may not be, and Go benchmark
// text may hold zeros, which only the benchstat method compares.
func firstUnusable(xs, ys []float64, logScale bool) string {
	for _, s := range []struct {
		name string
		v    []float64
	}{{"base", xs}, {"head", ys}} {
		for i, x := range s.v {
			if math.IsNaN(x) || math.IsInf(x, 0) || logScale && !(x > 0) {
				return fmt.Sprintf("%d of %s is %v", i+1, s.name, x)
			}
		}
	}
	return ""
}
