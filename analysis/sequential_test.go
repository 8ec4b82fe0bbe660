package analysis

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/harness"
)

func TestPlanLooks(t *testing.T) {
	t.Parallel()
	s := &Sequential{AutoLooks: 3, MinLook: 6}
	if got := s.PlanLooks(25); !slices.Equal(got, []int{6, 12, 24}) {
		t.Errorf("PlanLooks(25) = %v", got)
	}
	if got := s.PlanLooks(3); !slices.Equal(got, []int{6}) {
		t.Errorf("PlanLooks(3) = %v, want one look at the minimum", got)
	}
	rapid.Check(t, func(t *rapid.T) {
		reach := rapid.IntRange(0, 10_000).Draw(t, "reach")
		k := rapid.IntRange(1, 8).Draw(t, "k")
		minLook := rapid.IntRange(1, 50).Draw(t, "min")
		looks := (&Sequential{AutoLooks: k, MinLook: minLook}).PlanLooks(reach)
		if len(looks) == 0 || len(looks) > k {
			t.Fatalf("%d looks, want 1 to %d", len(looks), k)
		}
		for i, n := range looks {
			if n%2 != 0 || n < minLook || (i > 0 && n <= looks[i-1]) {
				t.Fatalf("looks %v: not even, increasing and at least %d", looks, minLook)
			}
		}
		if last := looks[len(looks)-1]; last < reach-1 {
			t.Fatalf("looks %v end before the reachable %d runs", looks, reach)
		}
	})
}

// abFile builds a session's file from paired samples per label, with
// failed runs appended to a side.
func abFile(looksOf int, base, head []spec) *harness.ABFile {
	f := &harness.ABFile{Schema: harness.ABSchema, Base: fixture(base...), Head: fixture(head...), Stopped: harness.StopLastLook}
	f.PlannedLooks = []int{10}
	f.Looks = []harness.ABLog{{Look: harness.Look{Number: 1, Of: looksOf, Runs: 10, Final: true}}}
	return f
}

func TestVerdictMapsOutcomes(t *testing.T) {
	t.Parallel()
	same := noisy(1, 20, 1, 0.01)
	slow := scaled(same, 1.3)
	rule := &Sequential{Alpha: 0.05, Threshold: 0.05}
	cases := []struct {
		name       string
		base, head []spec
		want       Outcome
		rowGate    map[string]Outcome
	}{
		{"pass", []spec{{Label: "a", Samples: same}}, []spec{{Label: "a", Samples: same}}, Pass, map[string]Outcome{"a": Pass}},
		{"regression", []spec{{Label: "a", Samples: same}}, []spec{{Label: "a", Samples: slow}}, Regression, map[string]Outcome{"a": Regression}},
		{"head failed", []spec{{Label: "a", Samples: same}}, []spec{{Label: "a", Samples: same, Failed: 1}}, Regression, map[string]Outcome{"a": Pass}},
		{"base failed: its row undecided, others kept",
			[]spec{{Label: "a", Samples: same, Failed: 1}, {Label: "b", Samples: same}},
			[]spec{{Label: "a", Samples: slow}, {Label: "b", Samples: same}},
			Inconclusive, map[string]Outcome{"a": Inconclusive, "b": Pass}},
	}
	for _, c := range cases {
		v := rule.Verdict(abFile(1, c.base, c.head), false)
		if v.Outcome != c.want || v.Comparison == nil || v.Gate == nil || v.Gate.Outcome != string(c.want) {
			t.Errorf("%s: outcome %q (%s), want %q", c.name, v.Outcome, v.Reason, c.want)
			continue
		}
		for _, r := range v.Comparison.Rows {
			if r.Gate != c.rowGate[r.Label] {
				t.Errorf("%s: row %s gate %q, want %q", c.name, r.Label, r.Gate, c.rowGate[r.Label])
			}
		}
	}
}

// TestVerdictTestsAtAlphaPerLook: the final verdict is tested at the
// session's alpha over its looks, as each look was.
func TestVerdictTestsAtAlphaPerLook(t *testing.T) {
	t.Parallel()
	same := noisy(2, 20, 1, 0.01)
	rule := &Sequential{Alpha: 0.06, Threshold: 0.05}
	v := rule.Verdict(abFile(3, []spec{{Label: "a", Samples: same}}, []spec{{Label: "a", Samples: same}}), false)
	if v.Gate.AlphaPerLook != 0.02 || v.Gate.Alpha != 0.06 || v.Comparison.Alpha != 0.02 {
		t.Errorf("alpha %v per look %v comparison %v, want 0.06, 0.02, 0.02", v.Gate.Alpha, v.Gate.AlphaPerLook, v.Comparison.Alpha)
	}
}
