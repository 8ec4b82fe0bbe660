package analysis

import (
	"testing"
	"time"
)

// BudgetToDecide scales the session's length by the neediest undecided
// row's (pairs + more runs) / pairs, ignores decided rows, and knows
// nothing when a row's need is unknown or no row is undecided.
func TestBudgetToDecide(t *testing.T) {
	t.Parallel()
	row := func(g Outcome, pairs, more int) Row { return Row{Gate: g, Pairs: pairs, MoreRuns: more} }
	for _, c := range []struct {
		name string
		rows []Row
		want time.Duration
		ok   bool
	}{
		{"neediest row", []Row{row(Inconclusive, 30, 60), row(Inconclusive, 60, 30), row(Pass, 60, 0)}, 180 * time.Second, true},
		{"unpaired runs", []Row{{Gate: Inconclusive, Base: Summary{N: 20}, Head: Summary{N: 40}, MoreRuns: 20}}, 120 * time.Second, true},
		{"unknown need", []Row{row(Inconclusive, 30, 60), row(Inconclusive, 30, 0)}, 0, false},
		{"all decided", []Row{row(Pass, 30, 0), row(Regression, 30, 0)}, 0, false},
	} {
		got, ok := (&Comparison{Threshold: 0.05, Rows: c.rows}).BudgetToDecide(time.Minute)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// On a real undecided row (a 5% shift in 10% noise, 10 runs a side) the
// budget named is longer than the session.
func TestBudgetToDecideOnANoisyRow(t *testing.T) {
	t.Parallel()
	b := noisy(6, 10, 1.0, 0.10)
	c := mustFiles(t, fixture(spec{Label: "x", Samples: b}), fixture(spec{Label: "x", Samples: noisy(7, 10, 1.05, 0.10)}), Options{Threshold: 0.05})
	if c.Outcome() != Inconclusive {
		t.Fatalf("the fixture decided (%s): it must leave its row undecided", c.Outcome())
	}
	if got, ok := c.BudgetToDecide(time.Minute); !ok || got <= time.Minute {
		t.Errorf("budget %v, %v for an undecided row needing %d more runs; want longer than the session's minute", got, ok, c.Rows[0].MoreRuns)
	}
}
