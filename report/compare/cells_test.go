package compare

import (
	"math"
	"testing"

	"github.com/rootbench/rootbench/analysis"
)

// TestConclusion pins each claim's wording, with the runs an undecided
// row needs left to the gate cell and the summary line.
func TestConclusion(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	for _, tc := range []struct {
		row  analysis.Row
		want string
	}{
		{analysis.Row{DeltaLo: -0.02, DeltaHi: 0.031, Gate: analysis.Pass}, "no slowdown beyond +3.1%"},
		{analysis.Row{DeltaLo: -0.2, DeltaHi: -0.012, Gate: analysis.Pass}, "faster by at least 1.2%"},
		{analysis.Row{DeltaLo: 0.062, DeltaHi: 0.2, Gate: analysis.Regression}, "slower by at least 6.2%"},
		{analysis.Row{DeltaLo: -0.012, DeltaHi: 0.079, Gate: analysis.Inconclusive, MoreRuns: 12}, "-1.2% to +7.9% still possible"},
		{analysis.Row{DeltaLo: 0.00004, DeltaHi: 0.079, Gate: analysis.Inconclusive}, "+0.004% to +7.9% still possible"},
		{analysis.Row{DeltaLo: -inf, DeltaHi: inf, Gate: analysis.Inconclusive}, "nothing ruled out yet"},
		{analysis.Row{DeltaLo: -0.01, DeltaHi: 0.02, Gate: analysis.GateOff}, "-1.0% to +2.0% still possible"},
	} {
		if got := Conclusion(tc.row); got != tc.want {
			t.Errorf("Conclusion(%+v) = %q, want %q", tc.row, got, tc.want)
		}
		// A filled RuledOut and one read on the fly say the same.
		filled := tc.row
		filled.RuledOut = analysis.RuleOut(filled)
		if got := Conclusion(filled); got != tc.want {
			t.Errorf("Conclusion of the filled row = %q, want %q", got, tc.want)
		}
	}
}

// TestSeconds pins the duration format: 4 significant digits in the unit
// report.UnitFor picks, with no space (benchstat's style).
func TestSeconds(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{
		0:           "0.000s",
		1.5e-9:      "1.500ns",
		1e-6:        "1.000µs",
		2.5e-5:      "25.00µs",
		0.3016:      "301.6ms",
		-0.002:      "-2.000ms",
		1.686:       "1.686s",
		123.4:       "123.4s",
		math.Inf(1): "∞",
	} {
		if got := seconds(v); got != want {
			t.Errorf("seconds(%v) = %q, want %q", v, got, want)
		}
	}
}

// A significant interval never prints as touching zero.
func TestIntervalBoundKeepsItsSign(t *testing.T) {
	t.Parallel()
	if got := interval(analysis.Row{DeltaLo: 0.00004, DeltaHi: 0.01}); got != "[+0.004%, +1.0%]" {
		t.Errorf("interval = %s", got)
	}
}
