package analysis

import (
	"strings"

	"github.com/rootbench/rootbench/exitstatus"
)

// This file is the regression gate: its three outcomes, each row's outcome
// from the row's interval and verdict, and the whole comparison's. It
// assumes only what the interval's method assumes (hodgeslehmann.go,
// benchstat.go): a pass rules out, at the row's level, a slowdown of the
// threshold or more.

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
// regressed, else Inconclusive when a row is, else Pass; GateOff when no
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
		return "regression beyond the gate in: " + strings.Join(rowLabels(c.Regressions()), ", ")
	case Inconclusive:
		return "undecided: " + strings.Join(rowLabels(c.Undecided()), ", ")
	}
	return ""
}

// gate decides every row's Outcome under the threshold, and what its
// interval rules out.
func (c *Comparison) gate() {
	for i := range c.Rows {
		r := &c.Rows[i]
		switch {
		case c.Threshold <= 0:
			r.Gate = GateOff
		case r.DeltaHi < c.Threshold:
			r.Gate = Pass
		case r.Verdict != Same && r.Delta > c.Threshold:
			r.Gate = Regression
		default:
			r.Gate = Inconclusive
			r.MoreRuns = c.moreRuns(r)
		}
		r.RuledOut = RuleOut(*r)
	}
}
