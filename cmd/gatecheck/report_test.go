package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWithSection(t *testing.T) {
	t.Parallel()
	doc := withSection("# x\n", replayBegin+"\none\n"+replayEnd)
	if sectionOf(doc) != replayBegin+"\none\n"+replayEnd {
		t.Fatalf("appended: %q", doc)
	}
	doc = withSection(doc+"\ntail\n", replayBegin+"\ntwo\n"+replayEnd)
	if strings.Contains(doc, "one") || !strings.Contains(doc, "two") || !strings.HasSuffix(doc, "tail\n") {
		t.Errorf("replaced: %q", doc)
	}
}

func TestTally(t *testing.T) {
	t.Parallel()
	rep := &Report{Slow: "boxroot", Trials: []Trial{
		{Kind: "A/A", Rows: map[string]string{"ocaml": "pass", "boxroot": "regression"}, DurationNs: 1e9},
		{Kind: "A/A", Rows: map[string]string{"ocaml": "inconclusive", "boxroot": "pass"}, DurationNs: 3e9},
		{Kind: "planted 5%", Planted: "5", Rows: map[string]string{"ocaml": "pass", "boxroot": "regression"}},
		{Kind: "planted 5%", Planted: "5", Rows: map[string]string{"ocaml": "regression", "boxroot": "inconclusive"}},
	}}
	rep.tally([]kind{{name: "A/A"}, {name: "planted 5%", pct: "5"}})
	want := map[string][2]int{
		"A/A: false alarms (rows reported as regressions)":               {1, 4},
		"A/A: rows left inconclusive":                                    {1, 4},
		"planted 5% on boxroot: detected (rows reported as regressions)": {1, 2},
		"planted 5%: false alarms on the other cells":                    {1, 2},
		"planted 5%: rows left inconclusive":                             {1, 4},
	}
	if len(rep.Rates) != len(want) {
		t.Fatalf("%d rates, want %d: %+v", len(rep.Rates), len(want), rep.Rates)
	}
	for _, r := range rep.Rates {
		w, ok := want[r.Name]
		if !ok || r.Hits != w[0] || r.Of != w[1] || r.Rate != float64(w[0])/float64(w[1]) {
			t.Errorf("rate %+v, want %v", r, w)
		}
	}
	if !strings.Contains(rep.Rates[0].Notes, "2 trial(s), median 2.00 s") {
		t.Errorf("A/A notes %q", rep.Rates[0].Notes)
	}
	out := filepath.Join(t.TempDir(), "gate-check")
	if err := rep.write(out); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out + ".md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| A/A: false alarms (rows reported as regressions) | 1 of 4 | 25.0% |") {
		t.Errorf("markdown lacks the A/A row:\n%s", md)
	}
	if _, err := os.Stat(out + ".json"); err != nil {
		t.Error(err)
	}
}

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
