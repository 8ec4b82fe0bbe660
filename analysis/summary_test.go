package analysis

import (
	"reflect"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// Summarize hands the summary every figure from one Relate: the rows are
// the relatives' own, the headline Lead's, and each result's factor
// against the incumbent the inverse of its ratio to it.
func TestSummarizeDecidesTheSummaryOnce(t *testing.T) {
	t.Parallel()
	f := leadFile()
	s := Summarize(f)
	rel := Relate(f)
	if !reflect.DeepEqual(s.Relatives, rel) || s.Headline != Lead(f, rel) || !s.Compared {
		t.Fatalf("Summarize = %+v; want Relate's relatives %+v, Lead's headline and a comparison", s, rel)
	}
	for i, row := range s.Rows {
		if row.Relative != rel.Rows[i] || row.FasterThanIncumbent != rel.Rows[i].Incumbent.Inverse() || row.IsIncumbent != (i == 3) {
			t.Errorf("row %d = %+v; want the relative %+v, its inverse against the incumbent, incumbent only for cgo-handle", i, row, rel.Rows[i])
		}
	}
	if !(s.Rows[0].FasterThanIncumbent.Ratio > 1) {
		t.Errorf("boxroot is faster than cgo-handle: %+v", s.Rows[0].FasterThanIncumbent)
	}
}

// The warnings under the summary are gathered by kind, as
// harness.Summarize made them: the noisy results, then every other
// statistical warning once with the results it concerns; failures stay
// under their benchmark.
func TestSummarizeGathersWarningsByKind(t *testing.T) {
	t.Parallel()
	f := fixture(
		spec{Label: "steady", Samples: []float64{1, 1.01, 0.99, 1}},
		spec{Label: "noisy", Samples: []float64{1, 1.5, 0.6, 1.2}},
		spec{Label: "broken", Samples: []float64{2, 2.01, 1.99}, Failed: 1},
	)
	s := Summarize(f)
	if !reflect.DeepEqual(s.Noisy, []int{1}) {
		t.Errorf("Noisy = %v, want [1] (noisy)", s.Noisy)
	}
	// Too few runs for an interval on the median: each result has it, with
	// its own count of successful runs.
	var who [][]int
	for _, g := range s.Gathered {
		who = append(who, g.Results)
		for _, i := range g.Results {
			if !reflect.DeepEqual(f.Results[i].Warnings[len(f.Results[i].Warnings)-1], harness.Warning{Kind: harness.WarningOther, Text: g.Text}) {
				t.Errorf("gathered %q, not a warning of %s: %q", g.Text, f.Results[i].Label, f.Results[i].Warnings)
			}
		}
	}
	if !reflect.DeepEqual(who, [][]int{{0, 1}, {2}}) {
		t.Errorf("gathered warnings concern %v, want [[0 1] [2]] (4 successful runs twice, then 3): %+v", who, s.Gathered)
	}

	// Nothing measured: nothing to compare, nothing gathered.
	for i := range f.Results {
		f.Results[i].Runs = nil
	}
	harness.Summarize(f)
	if s := Summarize(f); s.Compared || len(s.Noisy)+len(s.Gathered) != 0 {
		t.Errorf("Summarize of no runs = %+v; want nothing compared or gathered", s)
	}
	if s := Summarize(nil); s.Compared || len(s.Rows) != 0 {
		t.Errorf("Summarize(nil) = %+v", s)
	}
}
