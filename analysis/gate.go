package analysis

import (
	"math"
	"strings"

	"github.com/rootbench/rootbench/exitstatus"
)

// This file is the regression gate: its three outcomes, each row's outcome
// from the row's interval and verdict, and the whole comparison's. It
// assumes only what the interval's method assumes (hodgeslehmann.go,
// benchstat.go): a pass rules out, at the row's level, a change for the
// worse of the threshold or more. A change for the worse is a rise of a
// lower-is-better metric (a time, B/op) and a fall of a higher-is-better
// one (B/s), by the same ratio: for those the gate reads base/head − 1.

// Outcome is the gate's answer for a row or a whole comparison.
type Outcome string

// The outcomes.
const (
	// GateOff: no threshold was given.
	GateOff Outcome = "off"
	// Pass: the delta interval lies wholly below +Threshold.
	Pass Outcome = "pass"
	// Regression: the change is significant and its estimate is beyond
	// +Threshold.
	Regression Outcome = "regression"
	// Inconclusive: neither; more runs would decide (Row.MoreRuns).
	Inconclusive Outcome = "inconclusive"
)

// ExitCode is the process exit status for the outcome (package exitstatus):
// Success for Pass and GateOff, Failed for Regression, Inconclusive for
// Inconclusive.
func (o Outcome) ExitCode() int {
	switch o {
	case Regression:
		return exitstatus.Failed
	case Inconclusive:
		return exitstatus.Inconclusive
	}
	return exitstatus.Success
}

// Regressions returns the rows that fail the gate (none when it is off).
func (c *Comparison) Regressions() []Row { return c.rowsWith(Regression) }

// Undecided returns the Inconclusive rows (none when the gate is off).
func (c *Comparison) Undecided() []Row { return c.rowsWith(Inconclusive) }

func (c *Comparison) rowsWith(o Outcome) []Row {
	var out []Row
	for _, r := range c.Rows {
		if r.Gate == o {
			out = append(out, r)
		}
	}
	return out
}

// Decided reports whether no row is Inconclusive (true when the gate is
// off): `ab` samples until it is.
func (c *Comparison) Decided() bool { return len(c.Undecided()) == 0 }

// Outcome is the whole comparison's gate result: Regression when a row
// regressed, on any metric, else Inconclusive when a row is, else Pass; GateOff when no
// threshold was given.
func (c *Comparison) Outcome() Outcome {
	switch {
	case c.Threshold <= 0:
		return GateOff
	case len(c.Regressions()) > 0:
		return Regression
	case len(c.Undecided()) > 0:
		return Inconclusive
	}
	return Pass
}

// OutcomeReason says which rows decide the comparison's outcome, in one
// line: "regression beyond the gate in: a, b" or "undecided: a"; "" when
// it passes or the gate is off.
func (c *Comparison) OutcomeReason() string {
	switch c.Outcome() {
	case Regression:
		return "regression beyond the gate in: " + strings.Join(c.rowNames(c.Regressions()), ", ")
	case Inconclusive:
		return "undecided: " + strings.Join(c.rowNames(c.Undecided()), ", ")
	}
	return ""
}

// gate decides every row's Outcome under the threshold, and what its
// interval rules out.
func (c *Comparison) gate() {
	for i := range c.Rows {
		r := &c.Rows[i]
		est, _, hi := r.worse()
		switch {
		case c.Threshold <= 0:
			r.Gate = GateOff
		case hi < c.Threshold:
			r.Gate = Pass
		case r.Verdict != Same && est > c.Threshold:
			r.Gate = Regression
		default:
			r.Gate = Inconclusive
			r.MoreRuns = c.moreRuns(r)
		}
		r.RuledOut = RuleOut(*r)
	}
}

// directions are the verdicts of a significant rise and of a significant
// fall of m: Slower (for the worse) and Faster, or the reverse for a
// higher-is-better metric.
func directions(m Metric) (up, down Verdict) {
	if m.HigherIsBetter {
		return Faster, Slower
	}
	return Slower, Faster
}

// worse is r's change for the worse as a fraction, with its interval: the
// delta itself for a lower-is-better metric, base/head − 1 for a
// higher-is-better one (an unbounded bound stays unbounded).
func (r Row) worse() (est, lo, hi float64) {
	if !r.Metric.HigherIsBetter {
		return r.Delta, r.DeltaLo, r.DeltaHi
	}
	return invert(r.Delta), invert(r.DeltaHi), invert(r.DeltaLo)
}

// invert turns a change d = x/y − 1 into y/x − 1: a fall into the rise it
// is from the other side. It is its own inverse; a fall of 100% or more
// (no value left, or an unbounded interval) is an unbounded rise.
func invert(d float64) float64 {
	switch {
	case math.IsNaN(d):
		return d
	case d <= -1:
		return math.Inf(1)
	case math.IsInf(d, 1):
		return -1
	}
	return 1/(1+d) - 1
}
