package analysis

import (
	"fmt"
	"math"
	"testing"
)

// ruledOutAgrees checks r.RuledOut against r's interval, verdict and gate
// under threshold, and returns what disagrees ("" when nothing does): the
// claim restates the interval the verdict and gate read, never more.
func ruledOutAgrees(r Row, threshold float64) string {
	ro := r.RuledOut
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	if !same(ro.Lo, r.DeltaLo) || !same(ro.Hi, r.DeltaHi) || ro.Level != r.Level {
		return fmt.Sprintf("ruled out %+v is not the row's interval [%v, %v] at %v", ro, r.DeltaLo, r.DeltaHi, r.Level)
	}
	bounded := !math.IsInf(r.DeltaLo, -1) || !math.IsInf(r.DeltaHi, 1)
	var ok bool
	switch ro.Claim {
	case NothingRuledOut:
		ok = !bounded
	case StillPossible:
		ok = bounded && ro.Bound == 0 && (r.Gate == Inconclusive || r.DeltaLo <= 0 && r.DeltaHi >= 0 && r.Gate != Pass)
	case NoSlowdownBeyond:
		ok = r.Gate == Pass && ro.Bound == r.DeltaHi && ro.Bound >= 0 && ro.Bound < threshold
	case FasterByAtLeast:
		ok = r.Gate != Inconclusive && ro.Bound == r.DeltaHi && ro.Bound < 0 && (r.Verdict == Faster || r.Verdict == Same)
	case SlowerByAtLeast:
		ok = (r.Gate == Regression || r.Gate == GateOff) && ro.Bound == r.DeltaLo && ro.Bound > 0
	}
	if !ok {
		return fmt.Sprintf("claim %s (bound %v) does not follow from interval [%v, %v], verdict %q, gate %q at threshold %v",
			ro.Claim, ro.Bound, r.DeltaLo, r.DeltaHi, r.Verdict, r.Gate, threshold)
	}
	if want := map[bool]int{true: r.MoreRuns}[r.Gate == Inconclusive]; ro.MoreRuns != want {
		return fmt.Sprintf("ruled out says %d more runs, the row %d (gate %q)", ro.MoreRuns, r.MoreRuns, r.Gate)
	}
	return ""
}

// TestRuleOutClaims: one row per claim, including a benchstat row whose
// verdict and interval disagree (its claim follows the interval) and an
// interval bounded on one side only.
func TestRuleOutClaims(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	for _, tc := range []struct {
		name  string
		row   Row
		claim Claim
		bound float64
	}{
		{"pass", Row{DeltaLo: -0.02, DeltaHi: 0.031, Gate: Pass, Verdict: Same}, NoSlowdownBeyond, 0.031},
		{"pass, significantly slower below the threshold", Row{DeltaLo: 0.01, DeltaHi: 0.03, Gate: Pass, Verdict: Slower}, NoSlowdownBeyond, 0.03},
		{"pass, faster", Row{DeltaLo: -0.2, DeltaHi: -0.05, Gate: Pass, Verdict: Faster}, FasterByAtLeast, -0.05},
		{"regression", Row{DeltaLo: 0.062, DeltaHi: 0.2, Gate: Regression, Verdict: Slower}, SlowerByAtLeast, 0.062},
		{"benchstat regression whose interval holds zero", Row{DeltaLo: -0.01, DeltaHi: 0.4, Gate: Regression, Verdict: Slower}, StillPossible, 0},
		{"inconclusive", Row{DeltaLo: -0.012, DeltaHi: 0.079, Gate: Inconclusive, MoreRuns: 12}, StillPossible, 0},
		{"inconclusive, significantly slower", Row{DeltaLo: 0.01, DeltaHi: 0.079, Gate: Inconclusive, Verdict: Slower, MoreRuns: 3}, StillPossible, 0},
		{"too few runs", Row{DeltaLo: -inf, DeltaHi: inf, Gate: Inconclusive, MoreRuns: 2}, NothingRuledOut, 0},
		{"too few runs, gate off", Row{DeltaLo: -inf, DeltaHi: inf, Gate: GateOff}, NothingRuledOut, 0},
		{"gate off, unchanged", Row{DeltaLo: -0.01, DeltaHi: 0.02, Gate: GateOff}, StillPossible, 0},
		{"gate off, slower", Row{DeltaLo: 0.02, DeltaHi: 0.05, Gate: GateOff, Verdict: Slower}, SlowerByAtLeast, 0.02},
		{"gate off, faster", Row{DeltaLo: -0.05, DeltaHi: -0.02, Gate: GateOff, Verdict: Faster}, FasterByAtLeast, -0.02},
		{"gate off, one-sided", Row{DeltaLo: -inf, DeltaHi: 0.04, Gate: GateOff}, StillPossible, 0},
		{"NaN bound", Row{DeltaLo: math.NaN(), DeltaHi: 0.04, Gate: GateOff}, NothingRuledOut, 0},
	} {
		tc.row.Level = 0.95
		got := RuleOut(tc.row)
		if got.Claim != tc.claim || got.Bound != tc.bound {
			t.Errorf("%s: RuleOut = %s %v, want %s %v", tc.name, got.Claim, got.Bound, tc.claim, tc.bound)
		}
		if tc.claim == NothingRuledOut {
			continue // a NaN bound is no interval to restate
		}
		tc.row.RuledOut = got
		if err := ruledOutAgrees(tc.row, 0.05); err != "" {
			t.Errorf("%s: %s", tc.name, err)
		}
	}
}

// TestComparisonFillsRuledOut: CompareFiles fills every row's RuledOut,
// for both methods, with what RuleOut says of the final row.
func TestComparisonFillsRuledOut(t *testing.T) {
	t.Parallel()
	b := noisy(1, 10, 1, 0.02)
	for _, m := range []Method{MethodHL, MethodBenchstat} {
		c := mustFiles(t, fixture(spec{Label: "same", Samples: b}, spec{Label: "slow", Samples: b}, spec{Label: "few", Samples: b[:3]}),
			fixture(spec{Label: "same", Samples: scaled(b, 1.001)}, spec{Label: "slow", Samples: scaled(b, 1.3)}, spec{Label: "few", Samples: b[3:6]}),
			Options{Method: m, Threshold: 0.05})
		for _, r := range c.Rows {
			if r.RuledOut != RuleOut(r) {
				t.Errorf("%s %s: RuledOut %+v, RuleOut says %+v", m, r.Label, r.RuledOut, RuleOut(r))
			}
			if err := ruledOutAgrees(r, c.Threshold); err != "" {
				t.Errorf("%s %s: %s", m, r.Label, err)
			}
		}
		claims := map[string]Claim{"same": NoSlowdownBeyond, "slow": SlowerByAtLeast, "few": NothingRuledOut}
		for _, r := range c.Rows {
			if r.RuledOut.Claim != claims[r.Label] {
				t.Errorf("%s %s: claim %s, want %s (interval [%v, %v], gate %s)", m, r.Label, r.RuledOut.Claim, claims[r.Label], r.DeltaLo, r.DeltaHi, r.Gate)
			}
		}
	}
}
