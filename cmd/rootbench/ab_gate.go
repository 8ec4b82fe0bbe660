package main

import (
	"io"
	"math"

	"github.com/rootbench/rootbench/harness"
)

// The comparison `rootbench ab` consults at every look, behind a small
// interface so that the session logic does not depend on which package
// computes it (report/compare today; the analysis package once merged: see
// ab_gate_analysis.go).

// abGateOptions configure one look's comparison.
type abGateOptions struct {
	// Alpha is the level every look is tested at: the session's alpha over
	// the number of planned looks.
	Alpha float64
	// Threshold is the gate as a fraction (0.03 for 3%).
	Threshold          float64
	BaseName, HeadName string
}

// abGate is the three-way gate over every row at one look.
type abGate interface {
	// Decided reports that no row is inconclusive.
	Decided() bool
	// ExitCode is 0 when every row passes, 1 when a row regresses, else 3.
	ExitCode() int
	// Regressions and Undecided list the labels of the rows that regress
	// and of the inconclusive ones.
	Regressions() []string
	Undecided() []string
	// Rows is every row's decision, for the results file.
	Rows() []harness.ABGateRow
	// Text and Markdown render the comparison for a terminal and for a PR
	// comment.
	Text(w io.Writer) error
	Markdown(w io.Writer) error
}

// Gate outcomes as the results file spells them, by exit code.
var outcomeNames = map[int]string{0: "pass", 1: "regression", 3: "inconclusive"}

// finite returns a pointer to x, or nil when x is not finite (JSON has no
// infinities).
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// gateRecord is the gate's decision as the results file records it.
func gateRecord(g abGate, o abGateOptions, alpha float64) *harness.ABGate {
	return &harness.ABGate{
		Threshold: o.Threshold, Alpha: alpha, AlphaPerLook: o.Alpha,
		Outcome: outcomeNames[g.ExitCode()], Rows: g.Rows(),
	}
}
