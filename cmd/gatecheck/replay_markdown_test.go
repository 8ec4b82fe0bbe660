package main

import (
	"slices"
	"strings"
	"testing"
)

func TestTargets(t *testing.T) {
	t.Parallel()
	rep := &ReplayReport{Slow: "boxroot", Rates: []Rate{
		newRate("A/A: false alarms per row (rows reported as regressions)", 40, 8000, ""),
		newRate("A/A: rows left inconclusive", 4000, 8000, ""),
		newRate("planted 10% on boxroot: passed (slowdown ruled out beyond the gate)", 0, 1000, ""),
		newRate("planted 10% on boxroot: detected (reported as a regression)", 500, 1000, ""),
	}, Variants: []VariantReport{
		{Name: "budget 12m0s, every cell", Rates: []Rate{
			newRate("A/A: false alarms per row (rows reported as regressions)", 10, 4000, ""),
			newRate("planted 10% on boxroot: detected (reported as a regression)", 970, 1000, "")}},
		{Name: "budget 6m0s, every cell", Rates: []Rate{
			newRate("A/A: false alarms per row (rows reported as regressions)", 100, 4000, ""),
			newRate("planted 10% on boxroot: detected (reported as a regression)", 990, 1000, "")}},
	}}
	got := rep.targets()
	if missing := slices.DeleteFunc([]string{
		"A/A false alarms at most 1% of rows, upper bound at most 1.5%: 0.50% (",
		"): met.",
		"Planted 10% on boxroot detected at least 95%: 50.00% (",
		"): **not met**.",
		"A/A rows left inconclusive: 50.00%",
		"meet both: budget 12m0s, every cell (",
	}, func(want string) bool { return strings.Contains(got, want) }); len(missing) > 0 {
		t.Errorf("targets lack %q:\n%s", missing, got)
	}
	if strings.Contains(got, "6m0s") {
		t.Errorf("a variant with 2.5%% false alarms is said to meet the targets:\n%s", got)
	}
}

func TestShortCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"gatecheck -replay r/s/aa-1.json.gz r/s/aa-2.json.gz r/s/aa-3.json.gz", "gatecheck -replay r/s/aa-*.json.gz (3 files)"},
		{"gatecheck -replay a.json b.json", "gatecheck -replay a.json b.json"},
		{"gatecheck -replay x/a.json y/b.json z/c.json", "gatecheck -replay x/a.json y/b.json z/c.json"},
	} {
		if got := shortCommand(c.in); got != c.want {
			t.Errorf("shortCommand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
