//go:build !rootbench_analysis

package main

import (
	"fmt"
	"io"
	"math"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/compare"
)

// This file computes ab's gate with report/compare (benchstat's medians and
// U test) until the analysis package lands; ab_gate_analysis.go, built with
// -tags rootbench_analysis, is its replacement (delete this file and that
// file's build line when merging). The three-way rule is the one analysis
// implements: pass when the delta's interval lies wholly below +T,
// regression when the change is significant and its estimate beyond +T,
// else inconclusive.

// parseGateThreshold parses "3%", "3" or "0.5%" into a fraction.
func parseGateThreshold(s string) (float64, error) { return compare.ParseThreshold(s) }

// compareGate is abGate over a report/compare comparison.
type compareGate struct {
	c         *compare.Comparison
	threshold float64
}

// judgeAB compares base and head at one look.
func judgeAB(base, head *harness.File, o abGateOptions) (abGate, error) {
	c, err := compare.Files(base, head, compare.Options{
		Alpha: o.Alpha, Confidence: 1 - o.Alpha, BaseName: o.BaseName, HeadName: o.HeadName,
	})
	if err != nil {
		return nil, err
	}
	return &compareGate{c: c, threshold: o.Threshold}, nil
}

// outcome applies the three-way gate to a row: 0 pass, 1 regression, 3
// inconclusive.
func (g *compareGate) outcome(r compare.Row) int {
	switch {
	case r.Verdict == compare.Slower && r.Delta > g.threshold:
		return 1
	case !math.IsInf(r.DeltaHi, 0) && r.DeltaHi < g.threshold:
		return 0
	}
	return 3
}

func (g *compareGate) labels(code int) []string {
	var out []string
	for _, r := range g.c.Rows {
		if g.outcome(r) == code {
			out = append(out, r.Label)
		}
	}
	return out
}

func (g *compareGate) Decided() bool         { return len(g.Undecided()) == 0 }
func (g *compareGate) Regressions() []string { return g.labels(1) }
func (g *compareGate) Undecided() []string   { return g.labels(3) }

func (g *compareGate) Rows() []harness.ABGateRow {
	var out []harness.ABGateRow
	for _, r := range g.c.Rows {
		out = append(out, harness.ABGateRow{Label: r.Label, Outcome: outcomeNames[g.outcome(r)],
			Delta: finite(r.Delta), DeltaLo: finite(r.DeltaLo), DeltaHi: finite(r.DeltaHi)})
	}
	return out
}

func (g *compareGate) ExitCode() int {
	switch {
	case len(g.Regressions()) > 0:
		return 1
	case len(g.Undecided()) > 0 || len(g.c.Rows) == 0:
		return 3
	}
	return 0
}

func (g *compareGate) Text(w io.Writer) error {
	if err := compare.Text(w, g.c); err != nil {
		return err
	}
	return g.gateLines(w, "")
}

func (g *compareGate) Markdown(w io.Writer) error {
	if err := compare.Markdown(w, g.c); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return g.gateLines(w, "- ")
}

// gateLines states every row's gate outcome.
func (g *compareGate) gateLines(w io.Writer, bullet string) error {
	names := map[int]string{0: "pass", 1: "REGRESSION", 3: "inconclusive"} // shouted: it fails the build
	fmt.Fprintf(w, "%sgate %+.1f%% at %.3g per look:\n", bullet, 100*g.threshold, g.c.Alpha)
	for _, r := range g.c.Rows {
		if _, err := fmt.Fprintf(w, "%s  %s: %s (delta %+.2f%% in [%+.2f%%, %+.2f%%])\n", bullet, r.Label, names[g.outcome(r)],
			100*r.Delta, 100*r.DeltaLo, 100*r.DeltaHi); err != nil {
			return err
		}
	}
	return nil
}

// abGCTables prints the GC table of every benchmark, base then head.
func abGCTables(w io.Writer, base, head *harness.File, o report.Options) {
	for i := range base.Results {
		b := &base.Results[i]
		for j := range head.Results {
			if h := &head.Results[j]; h.Label == b.Label {
				bb, hh := *b, *h
				bb.Label, hh.Label = "base: "+b.Label, "head: "+h.Label
				report.GCTable(w, &bb, o)
				report.GCTable(w, &hh, o)
			}
		}
	}
}
