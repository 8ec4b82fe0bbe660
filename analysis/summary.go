package analysis

// This file is a run's summary, decided once: the relative figures, the
// headline, each result against the incumbent, and the warnings gathered
// under the table. Package report formats it and decides nothing.

import "github.com/rootbench/rootbench/harness"

// RunSummary is everything the summary of one results file shows
// (report.Summary), decided by Summarize.
type RunSummary struct {
	// Relatives is every relative figure of the file (Relate); its
	// Warnings explain a requested reference that was not honoured.
	Relatives *Relatives
	// Headline is what the summary answers first (Lead).
	Headline Headline
	// Rows has one entry per f.Results, at the same index.
	Rows []RunSummaryRow
	// Compared is whether some group has a reference, that is some result
	// a successful run: without one there is nothing to compare.
	Compared bool
	// Noisy lists the results whose runs vary by more than
	// stats.CVWarnThreshold (a harness.WarningVariation, as
	// harness.Summarize decided it), in input order.
	Noisy []int
	// Gathered lists the results' other statistical warnings
	// (harness.WarningOther) once each, in the order first met, each with
	// the results it concerns.
	Gathered []GatheredWarning
}

// RunSummaryRow is one result's figures in the summary.
type RunSummaryRow struct {
	// Relative is the result's row of Relatives.
	Relative
	// IsIncumbent marks IncumbentCell's result.
	IsIncumbent bool
	// CPUPerUnit is the result's CPU time per unit of work in ns, when
	// HasCPUPerUnit (CPUPerUnit).
	CPUPerUnit    float64
	HasCPUPerUnit bool
	// FasterThanIncumbent is the incumbent's time over this result's
	// (Relative.Incumbent.Inverse()): above 1, the result is that many
	// times faster than the incumbent.
	FasterThanIncumbent Ratio
}

// GatheredWarning is one warning text and the results (indices into
// f.Results) that have it.
type GatheredWarning struct {
	Text    string
	Results []int
}

// Summarize decides f's summary once: its relatives (Relate), its headline
// (Lead), each result against the incumbent, and the warnings gathered
// under the table.
func Summarize(f *harness.File) *RunSummary {
	rel := Relate(f)
	s := &RunSummary{Relatives: rel, Headline: Lead(f, rel), Rows: make([]RunSummaryRow, len(rel.Rows))}
	for i, x := range rel.Rows {
		s.Rows[i] = RunSummaryRow{Relative: x, IsIncumbent: f.Results[i].Cell == IncumbentCell, FasterThanIncumbent: x.Incumbent.Inverse()}
		s.Rows[i].CPUPerUnit, s.Rows[i].HasCPUPerUnit = CPUPerUnit(&f.Results[i])
	}
	for _, g := range rel.Groups {
		if g.Reference >= 0 {
			s.Compared = true
		}
	}
	if f == nil {
		return s
	}
	seen := map[string]int{}
	for i := range f.Results {
		r := &f.Results[i]
		if r.HasWarning(harness.WarningVariation) {
			s.Noisy = append(s.Noisy, i)
		}
		for _, w := range r.Warnings {
			if w.Kind != harness.WarningOther {
				continue
			}
			k, ok := seen[w.Text]
			if !ok {
				k = len(s.Gathered)
				seen[w.Text] = k
				s.Gathered = append(s.Gathered, GatheredWarning{Text: w.Text})
			}
			s.Gathered[k].Results = append(s.Gathered[k].Results, i)
		}
	}
	return s
}
