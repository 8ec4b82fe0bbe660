package main

import (
	"io"
	"math"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// abGateOptions configure the comparison `rootbench ab` makes at one look.
type abGateOptions struct {
	// Alpha is the level every look is tested at: the session's alpha over
	// the number of planned looks (Holm across rows runs inside it).
	Alpha float64
	// Threshold is the gate as a fraction (0.05 for 5%).
	Threshold          float64
	BaseName, HeadName string
}

// judgeAB compares base and head at one look with analysis's default
// method on paired runs: the harness records the two runs of an ABBA
// round at the same index on each side, back to back, so the machine's
// drift between rounds (measured on this 2-vCPU VM to correlate the two
// runs of a round at 0.67-0.85) cancels in each pair's ratio.
func judgeAB(base, head *harness.File, o abGateOptions) (*analysis.Comparison, error) {
	return analysis.CompareFiles(base, head, analysis.Options{
		Alpha: o.Alpha, Threshold: o.Threshold, BaseName: o.BaseName, HeadName: o.HeadName,
		Paired: true,
	})
}

// rowLabels lists the rows' labels.
func rowLabels(rows []analysis.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Label)
	}
	return out
}

// finite returns a pointer to x, or nil when x is not finite (JSON has no
// infinities).
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// gateRecord is the gate's decision as the results file records it.
func gateRecord(c *analysis.Comparison, o abGateOptions, alpha float64) *harness.ABGate {
	g := &harness.ABGate{
		Threshold: o.Threshold, Alpha: alpha, AlphaPerLook: o.Alpha,
		Outcome: string(c.Outcome()),
	}
	for _, r := range c.Rows {
		g.Rows = append(g.Rows, harness.ABGateRow{Label: r.Label, Outcome: string(r.Gate),
			Delta: finite(r.Delta), DeltaLo: finite(r.DeltaLo), DeltaHi: finite(r.DeltaHi)})
	}
	return g
}

// abGCTables prints one side-by-side GC table per benchmark that both
// sides measured.
func abGCTables(w io.Writer, base, head *harness.File, o report.Options) {
	for i := range base.Results {
		b := &base.Results[i]
		for j := range head.Results {
			if h := &head.Results[j]; h.Label == b.Label {
				report.GCSideBySide(w, b.Label, b, h, o)
			}
		}
	}
}
