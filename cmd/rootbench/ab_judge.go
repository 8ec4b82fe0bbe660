package main

import (
	"io"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/compare"
)

// ab's gate is the analysis package's (its default method, Holm across rows
// at each look, each look tested at its share of the session's alpha).

// parseGateThreshold parses "3%", "3" or "0.5%" into a fraction.
func parseGateThreshold(s string) (float64, error) { return analysis.ParseThreshold(s) }

// analysisGate is abGate over an analysis comparison.
type analysisGate struct{ c *analysis.Comparison }

// judgeAB compares base and head at one look.
func judgeAB(base, head *harness.File, o abGateOptions) (abGate, error) {
	c, err := analysis.CompareFiles(base, head, analysis.Options{
		Alpha: o.Alpha, Threshold: o.Threshold, BaseName: o.BaseName, HeadName: o.HeadName,
	})
	if err != nil {
		return nil, err
	}
	return analysisGate{c}, nil
}

func rowLabels(rows []analysis.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Label)
	}
	return out
}

func (g analysisGate) Decided() bool         { return g.c.Decided() }
func (g analysisGate) ExitCode() int         { return g.c.Outcome().ExitCode() }
func (g analysisGate) Regressions() []string { return rowLabels(g.c.Regressions()) }
func (g analysisGate) Undecided() []string   { return rowLabels(g.c.Undecided()) }
func (g analysisGate) Rows() []harness.ABGateRow {
	var out []harness.ABGateRow
	for _, r := range g.c.Rows {
		out = append(out, harness.ABGateRow{Label: r.Label, Outcome: string(r.Gate),
			Delta: finite(r.Delta), DeltaLo: finite(r.DeltaLo), DeltaHi: finite(r.DeltaHi)})
	}
	return out
}

func (g analysisGate) Text(w io.Writer) error     { return compare.Text(w, g.c) }
func (g analysisGate) Markdown(w io.Writer) error { return compare.Markdown(w, g.c) }

// abGCTables prints one side-by-side GC table per benchmark.
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
