package compare

import (
	"encoding/json"
	"testing"

	"github.com/rootbench/rootbench/analysis"
)

func TestJSON(t *testing.T) {
	t.Parallel()
	c := sampleComparison(t, analysis.MethodHL)
	out := write(t, JSON, c)
	var got struct {
		Schema     string
		Method     string
		Correction string
		Gate       string
		ExitCode   int `json:"exit_code"`
		Summary    string
		Rows       []struct {
			Label     string
			Verdict   string
			Gate      string
			MoreRuns  int `json:"more_runs"`
			Delta     float64
			DeltaLo   *float64 `json:"delta_lo"`
			DeltaHi   *float64 `json:"delta_hi"`
			PAdjusted float64  `json:"p_adjusted"`
			Base      struct{ Median, Lo *float64 }
			RuledOut  struct {
				Claim    string
				Bound    *float64
				Lo, Hi   *float64
				Level    float64
				MoreRuns int `json:"more_runs"`
				Text     string
			} `json:"ruled_out"`
		}
		Geomean  *struct{ Delta float64 }
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("JSON output does not parse: %v\n%s", err, out)
	}
	if got.Schema != JSONSchema || got.Method != "hl" || got.Correction != "holm" || got.Gate != "regression" || got.ExitCode != 1 ||
		got.Summary != SummaryLine(c) || len(got.Rows) != 3 || got.Geomean == nil {
		t.Fatalf("schema %q method %q correction %q gate %q exit %d summary %q rows %d geomean %v",
			got.Schema, got.Method, got.Correction, got.Gate, got.ExitCode, got.Summary, len(got.Rows), got.Geomean)
	}
	r := got.Rows[0]
	if r.Label != "boxroot" || r.Verdict != "slower" || r.Gate != "regression" || r.DeltaLo == nil || *r.DeltaLo != c.Rows[0].DeltaLo {
		t.Errorf("row 0 = %+v", r)
	}
	if bx := got.Rows[2]; bx.DeltaLo != nil || bx.DeltaHi != nil || bx.Base.Lo != nil || bx.Base.Median == nil || bx.Gate != "inconclusive" || bx.MoreRuns < 1 {
		t.Errorf("infinite bounds should be null, the median present, the row inconclusive: %+v", bx)
	}
	if len(got.Warnings) != len(c.Warnings) {
		t.Errorf("%d warnings in JSON, %d in the comparison", len(got.Warnings), len(c.Warnings))
	}
	// Each row says what it ruled out: the regression its least slowdown,
	// the pass its largest, the row with too few runs nothing.
	for i, want := range []struct {
		claim analysis.Claim
		bound *float64
	}{{analysis.SlowerByAtLeast, &c.Rows[0].DeltaLo}, {analysis.NoSlowdownBeyond, &c.Rows[1].DeltaHi}, {analysis.NothingRuledOut, nil}} {
		ro := got.Rows[i].RuledOut
		if ro.Claim != string(want.claim) || (ro.Bound == nil) != (want.bound == nil) || want.bound != nil && *ro.Bound != *want.bound ||
			ro.Level != c.Rows[i].Level || ro.Text != Conclusion(c.Rows[i]) {
			t.Errorf("row %d ruled_out %+v, want claim %s bound %v at level %v", i, ro, want.claim, want.bound, c.Rows[i].Level)
		}
	}
	if bx := got.Rows[2].RuledOut; bx.Lo != nil || bx.Hi != nil || bx.MoreRuns != c.Rows[2].MoreRuns || bx.MoreRuns < 1 {
		t.Errorf("too few runs: ruled_out %+v, want no bounds and the runs still needed", bx)
	}
}
