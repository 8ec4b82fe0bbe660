package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLiveTally(t *testing.T) {
	t.Parallel()
	rows := func(ocaml, boxroot string) []TrialRow {
		return []TrialRow{{Label: "ocaml", Cell: "ocaml", Metric: "wall", Outcome: ocaml}, {Label: "boxroot", Cell: "boxroot", Metric: "wall", Outcome: boxroot}}
	}
	rep := &Report{Slow: "boxroot", Trials: []Trial{
		{Condition: "quiet", Kind: "A/A", Rows: rows("pass", "regression"), DurationNs: 1e9},
		{Condition: "quiet", Kind: "A/A", Rows: rows("inconclusive", "pass"), DurationNs: 3e9},
		{Condition: "quiet", Kind: "planted 5%", Planted: "5%", Metric: "wall", Rows: rows("pass", "regression"), FlaggedNs: 40e9},
		{Condition: "quiet", Kind: "planted 5%", Planted: "5%", Metric: "wall", Rows: rows("regression", "inconclusive")},
		{Condition: "noise4", Kind: "A/A", Rows: rows("regression", "regression"), DurationNs: 1e9},
		{Condition: "noise4", Kind: "planted 5%", Planted: "5%", Metric: "wall", Rows: rows("pass", "regression"), FlaggedNs: 30e9},
	}}
	ks := []kind{{name: "A/A"}, {name: "planted 5%", pct: "5", metric: "wall"}}
	rep.tally([]condition{{noise: 0}, {noise: 4}}, ks)
	if len(rep.Conditions) != 2 || len(rep.Conditions[0].Metrics) != 1 {
		t.Fatalf("conditions %+v: want quiet and noise4, each on wall time", rep.Conditions)
	}
	want := map[string][2]int{
		"A/A: false alarms per row (rows reported as regressions)":   {1, 4},
		"A/A: rows left inconclusive":                                {1, 4},
		"planted 5% on boxroot: detected (reported as a regression)": {1, 2},
		"planted 5%: false alarms per row on the other cells":        {1, 2},
		"planted 5%: rows left inconclusive":                         {1, 4},
	}
	quiet := rep.Conditions[0].Metrics[0].Rates
	if len(quiet) != len(want) {
		t.Fatalf("%d rates, want %d: %+v", len(quiet), len(want), quiet)
	}
	for _, r := range quiet {
		w, ok := want[r.Name]
		if !ok || r.Hits != w[0] || r.Of != w[1] || r.Rate != float64(w[0])/float64(w[1]) {
			t.Errorf("rate %+v, want %v", r, w)
		}
	}
	if !strings.Contains(quiet[0].Notes, "2 trial(s), median 2.00 s") {
		t.Errorf("A/A notes %q", quiet[0].Notes)
	}
	if busy := rep.Conditions[1].Metrics[0].Rates[0]; busy.Hits != 2 || busy.Of != 2 {
		t.Errorf("noise4 A/A false alarms %+v, want 2 of 2 (its own trials only)", busy)
	}
	// One of two quiet trials flagged: the other counts as longer, and the
	// median (between them) is not a time.
	if f := rep.Conditions[0].Flags; len(f) != 1 || f[0].Flagged != 1 || f[0].Trials != 2 || f[0].MedianNs != -1 {
		t.Errorf("quiet flag times %+v, want 1 of 2 flagged and no median", f)
	}
	if f := rep.Conditions[1].Flags; len(f) != 1 || f[0].MedianNs != 30e9 {
		t.Errorf("noise4 flag times %+v, want a median of 30 s", f)
	}
	out := filepath.Join(t.TempDir(), "gate-check")
	if err := rep.write(out, ""); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out + ".md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"### quiet (nothing else running), wall time",
		"| A/A: false alarms per row (rows reported as regressions) | 1 of 4 | 25.0% |",
		"### busy (4 CPU-bound noise processes), wall time",
		"- planted 5%: median 30.0 s (flagged in 1 of 1 trials;",
	} {
		if !strings.Contains(string(md), line) {
			t.Errorf("markdown lacks %q:\n%s", line, md)
		}
	}
	if _, err := os.Stat(out + ".json"); err != nil {
		t.Error(err)
	}
}

// The targets hold where they should (both conditions, busy, quiet), read
// the rates tally names, and are met or missed by their bounds.
func TestConditionTargets(t *testing.T) {
	t.Parallel()
	rates := func(alarms, undecided, five, fiveSlower, ten int) []Rate {
		return []Rate{
			newRate("A/A: false alarms per row (rows reported as regressions)", alarms, 8000, ""),
			newRate("A/A: rows left inconclusive", undecided, 8000, ""),
			newRate("planted 5% on boxroot: passed (slowdown ruled out beyond the gate)", 0, 1000, ""),
			newRate("planted 5% on boxroot: detected (reported as a regression)", five, 1000, ""),
			newRate("planted 5% on boxroot: found slower (its interval above 0, beyond the gate or not)", fiveSlower, 1000, ""),
			newRate("planted 10% on boxroot: detected (reported as a regression)", ten, 1000, ""),
		}
	}
	ms := []metric{wallMetric, cpuMetric}
	reps := []*ReplayReport{{Rates: rates(40, 1000, 950, 880, 990)}, {Rates: rates(130, 3000, 850, 930, 990)}}
	type key struct{ metric, measure string }
	got := map[key]TargetResult{}
	for _, tr := range conditionTargets(&sessionGroup{cond: "quiet"}, ms, reps, "boxroot") {
		got[key{tr.Metric, tr.Measure}] = tr
	}
	for k, met := range map[key]bool{
		{"wall", "A/A false alarms per row"}:                              true,  // 0.5%
		{"cpu", "A/A false alarms per row"}:                               false, // 1.6%
		{"wall", "planted 5% on boxroot detected"}:                        true,  // 95%
		{"cpu", "planted 5% on boxroot detected"}:                         false, // 85%
		{"wall", "planted 5% on boxroot found slower (interval above 0)"}: false, // 88%
		{"cpu", "planted 5% on boxroot found slower (interval above 0)"}:  true,  // 93%
		{"wall", "A/A rows left inconclusive"}:                            true,  // 12.5%
		{"cpu", "A/A rows left inconclusive"}:                             false, // 37.5%
	} {
		if tr, ok := got[k]; !ok || tr.Rate == nil || tr.Met != met {
			t.Errorf("quiet %v: %+v, want met=%v", k, tr, met)
		}
	}
	if len(got) != 8 {
		t.Errorf("quiet: %d targets, want 8 (four, in each metric): %v", len(got), got)
	}
	busy := conditionTargets(&sessionGroup{cond: "noise4", noise: 4}, ms[:1], reps[:1], "boxroot")
	if len(busy) != 3 || busy[2].Metric != "cpu" || busy[2].Rate != nil || !strings.Contains(busy[2].Note, "not judged") {
		t.Errorf("busy, wall time only: %+v; want false alarms in each metric and the 10%% in CPU time said not judged", busy)
	}
	if none := conditionTargets(&sessionGroup{cond: unrecordedName, noise: -1}, ms, reps, "boxroot"); len(none) != 0 {
		t.Errorf("sessions of no recorded condition are held to targets: %+v", none)
	}
}

func TestShortCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"gatecheck -replay r/s/aa-1.json.gz r/s/aa-2.json.gz r/s/aa-3.json.gz", "gatecheck -replay r/s/aa-*.json.gz (3 files)"},
		{"gatecheck -replay a.json b.json", "gatecheck -replay a.json b.json"},
		{"gatecheck -replay x/a.json y/b.json z/c.json", "gatecheck -replay x/a.json y/b.json z/c.json"},
		{"gatecheck -replay s/quiet/aa-1.json.gz s/quiet/aa-2.json.gz s/quiet/aa-3.json.gz s/noise4/aa-1.json.gz s/noise4/aa-2.json.gz s/noise4/aa-3.json.gz",
			"gatecheck -replay s/quiet/aa-*.json.gz (3 files) s/noise4/aa-*.json.gz (3 files)"},
	} {
		if got := shortCommand(c.in); got != c.want {
			t.Errorf("shortCommand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A target no budget can meet (a slowdown equal to the gate, reported as a
// regression) is not searched for one: its note says why instead. At
// another gate the same target is searched.
func TestSearchSkipsTargetsBeyondBudgets(t *testing.T) {
	t.Parallel()
	var spec targetSpec
	for _, s := range replayTargets {
		if s.beyondBudgets(0.05) != "" {
			spec = s
		}
	}
	if spec.pct != 5 {
		t.Fatalf("the target beyond every budget at a 5%% gate is %+v, want the planted 5%% reported as a regression", spec)
	}
	if why := spec.beyondBudgets(0.03); why != "" {
		t.Errorf("at a 3%% gate the planted 5%% is said beyond every budget: %s", why)
	}
	r := newRate("planted 5% on boxroot: detected (reported as a regression)", 500, 1000, "")
	ts := []TargetResult{{Measure: spec.measure, Rate: &r, Met: spec.met(r), spec: spec}}
	if ts[0].Met {
		t.Fatalf("%s met at %v", spec.measure, r.Rate)
	}
	c := &replayConfig{gate: 0.05, search: []time.Duration{6 * time.Minute}}
	if err := c.searchBudgets(nil, ts, nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if want := spec.beyondBudgets(0.05); ts[0].Note != want || ts[0].BudgetNs != 0 {
		t.Errorf("note %q, budget %d; want %q and no budget", ts[0].Note, ts[0].BudgetNs, want)
	}
}
