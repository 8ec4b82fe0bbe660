package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
		if !ok || r.Hits != w[0] || r.Of != w[1] || math.Abs(r.Rate-float64(w[0])/float64(w[1])) > 1e-12 {
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
