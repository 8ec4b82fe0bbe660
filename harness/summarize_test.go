package harness

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// runs makes successful runs with the given wall times in seconds, 1e6 cells
// each, and user/sys times of half and a tenth of the wall.
func runs(walls ...float64) []Run {
	var rs []Run
	for i, w := range walls {
		ns := int64(math.Round(w * 1e9))
		rs = append(rs, Run{Index: i, WallNs: ns, Cells: 1e6, UserNs: ns / 2, SysNs: ns / 10})
	}
	return rs
}

func hasWarning(ws []Warning, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w.Text, sub) {
			return true
		}
	}
	return false
}

// testFile: a is steady around 1s (6 runs + 1 failure), b around 2s (4 runs).
func testFile() *File {
	a := runs(1.0, 1.1, 0.9, 1.0, 1.0, 1.0)
	a = append(a, Run{Index: 6, Failed: true, Error: "exit status 2: panic: x"})
	return &File{Schema: Schema, Results: []Result{
		{Cell: "a", Label: "a", Runs: a},
		{Cell: "b", Label: "b", Runs: runs(2.0, 2.2, 1.8, 2.0)},
	}}
}

func TestSummarizeStatistics(t *testing.T) {
	t.Parallel()
	f := testFile()
	Summarize(f)
	a, b := &f.Results[0], &f.Results[1]

	// a, by hand over the 6 successful runs: mean 6/6 = 1; deviations
	// 0,.1,-.1,0,0,0, sample variance .02/5 = .004; median 1; CV sqrt(.004).
	sdA := math.Sqrt(0.004)
	if !near(a.Mean, 1) || !near(a.Stddev, sdA) || !near(a.Median, 1) || a.Min != 0.9 || a.Max != 1.1 || !near(a.CV, sdA) {
		t.Errorf("a: mean %v sd %v median %v min %v max %v cv %v", a.Mean, a.Stddev, a.Median, a.Min, a.Max, a.CV)
	}
	if !near(a.UserMean, 0.5) || !near(a.SysMean, 0.1) || !near(a.NsPerCell, 1000) || !near(a.CellsPerSec, 1e6) {
		t.Errorf("a: user %v sys %v ns/cell %v cells/s %v", a.UserMean, a.SysMean, a.NsPerCell, a.CellsPerSec)
	}
	if a.Failed != 1 {
		t.Errorf("a: failed %d, want 1", a.Failed)
	}
	// MAD of a is 0 (four runs at the median 1.0), so 1.1 and 0.9 are
	// outliers (hyperfine's epsilon rule); the first run is not.
	if a.Outliers != 2 || !a.Runs[1].Outlier || !a.Runs[2].Outlier || a.Runs[0].Outlier || a.Runs[6].Outlier {
		t.Errorf("a: %d outliers, flags %v", a.Outliers, outlierFlags(a))
	}

	// b: mean 2; deviations 0,.2,-.2,0, variance .08/3; median 2; MAD .1
	// (deviations 0,.2,.2,0), z = 0,2,-2,0: no outliers.
	sdB := math.Sqrt(0.08 / 3)
	if !near(b.Mean, 2) || !near(b.Stddev, sdB) || !near(b.Median, 2) || !near(b.CV, sdB/2) || b.Outliers != 0 {
		t.Errorf("b: mean %v sd %v median %v cv %v outliers %d", b.Mean, b.Stddev, b.Median, b.CV, b.Outliers)
	}

	// Relatives are the analysis package's: Summarize leaves none behind.
	if a.Relative != 0 || b.Relative != 0 || b.RelativeStddev != 0 || b.RelativeBasis != "" || b.RelativeTo != "" {
		t.Errorf("relatives left by Summarize: a %v, b %v ± %v (%q to %q)", a.Relative, b.Relative, b.RelativeStddev, b.RelativeBasis, b.RelativeTo)
	}
}

func outlierFlags(r *Result) []bool {
	return perRun(r, func(run Run) bool { return run.Outlier })
}

func TestSummarizeWarnings(t *testing.T) {
	t.Parallel()
	f := testFile()
	Summarize(f)
	a, b := &f.Results[0], &f.Results[1]
	for _, w := range []string{
		"1 of 7 runs failed and are left out of the statistics (first failure: exit status 2: panic: x)",
		"Statistical outliers were detected",
		"It might help to use the '--warmup' option.",
		"The coefficient of variation is 6.3% (above 5%)",
	} {
		if !hasWarning(a.Warnings, w) {
			t.Errorf("a: no warning %q in %q", w, a.Warnings)
		}
	}
	if hasWarning(a.Warnings, "confidence interval") {
		t.Errorf("a has 6 successful runs, enough for a 95%% interval: %q", a.Warnings)
	}
	if !hasWarning(b.Warnings, "Too few runs for a 95% confidence interval on the median (4 successful): need >= 6 samples") {
		t.Errorf("b: no confidence-interval warning in %q", b.Warnings)
	}
	if !hasWarning(b.Warnings, "coefficient of variation is 8.2%") || hasWarning(b.Warnings, "outliers") {
		t.Errorf("b warnings %q: want the CV one and no outliers", b.Warnings)
	}

	// A slow first run takes precedence over the outlier warning; the hint
	// depends on --warmup.
	slow := &File{Results: []Result{{Label: "s", Runs: runs(0.5, 0.30, 0.29, 0.31, 0.30, 0.30)}}}
	Summarize(slow)
	s := slow.Results[0]
	if !hasWarning(s.Warnings, "The first benchmarking run for this benchmark was significantly slower than the rest (500ms)") ||
		!hasWarning(s.Warnings, "You should consider using the '--warmup' option") || hasWarning(s.Warnings, "Statistical outliers") {
		t.Errorf("slow first run warnings %q", s.Warnings)
	}
	slow.Warmup = 2
	Summarize(slow)
	if !hasWarning(slow.Results[0].Warnings, "You are already using the '--warmup' option") {
		t.Errorf("slow first run with warm-up: %q", slow.Results[0].Warnings)
	}

	// A steady benchmark with enough runs has no warning at all.
	quiet := &File{Results: []Result{{Label: "q", Runs: runs(1, 1.01, 0.99, 1, 1.005, 0.995)}}}
	Summarize(quiet)
	if ws := quiet.Results[0].Warnings; len(ws) != 0 {
		t.Errorf("steady benchmark warnings %q", ws)
	}
}

func TestSummarizeClearsStaleRelatives(t *testing.T) {
	t.Parallel()
	f := testFile()
	f.Reference = "b"
	f.Results[0].Relative, f.Results[0].RelativeStddev, f.Results[0].RelativeBasis, f.Results[0].RelativeTo = 3, 1, "time", "b"
	Summarize(f)
	if r := f.Results[0]; r.Relative != 0 || r.RelativeStddev != 0 || r.RelativeBasis != "" || r.RelativeTo != "" {
		t.Errorf("stale relative kept: %v ± %v %q %q", r.Relative, r.RelativeStddev, r.RelativeBasis, r.RelativeTo)
	}
	if f.Reference != "b" {
		t.Errorf("the requested reference %q was changed", f.Reference)
	}
}

func TestSummarizeIdempotentAndEncodable(t *testing.T) {
	t.Parallel()
	f := testFile()
	Summarize(f)
	first, err := json.Marshal(f)
	if err != nil {
		t.Fatalf("a summarized file must encode (no NaN or Inf): %v", err)
	}
	Summarize(f)
	second, _ := json.Marshal(f)
	if !bytes.Equal(first, second) {
		t.Errorf("Summarize is not idempotent")
	}
	// Round trip through Decode keeps everything.
	g, err := Decode(bytes.NewReader(first), "test")
	if err != nil {
		t.Fatal(err)
	}
	Summarize(g)
	if !reflect.DeepEqual(f.Results, g.Results) {
		t.Errorf("decoded and re-summarized results differ")
	}
	// A file with nothing in it still encodes.
	empty := &File{Schema: Schema, Results: []Result{{Label: "x"}}}
	Summarize(empty)
	if _, err := json.Marshal(empty); err != nil {
		t.Errorf("empty result: %v", err)
	}
}

// TestWarningKinds checks the kind Summarize gives each warning it
// writes: the failures, the coefficient of variation (the result is
// noisy), and the rest (too few runs for an interval, here).
func TestWarningKinds(t *testing.T) {
	t.Parallel()
	noisy := runs(1.0, 1.5, 0.6)
	noisy = append(noisy, Run{Index: 3, Failed: true, Error: "exit status 2"})
	f := &File{Schema: Schema, Results: []Result{
		{Cell: "noisy", Label: "noisy", Runs: noisy},
		{Cell: "dead", Label: "dead", Runs: []Run{{Failed: true, Error: "killed"}}},
	}}
	Summarize(f)
	kinds := map[WarningKind]int{}
	for _, r := range f.Results {
		for _, w := range r.Warnings {
			kinds[w.Kind]++
			if want := map[bool]WarningKind{true: WarningVariation}[strings.HasPrefix(w.Text, "The coefficient of variation")]; want != "" && w.Kind != want {
				t.Errorf("%q: kind %q, want %q", w.Text, w.Kind, want)
			}
		}
	}
	if kinds[WarningFailure] != 3 || kinds[WarningVariation] != 1 || kinds[WarningOther] < 1 || len(kinds) != 3 {
		t.Errorf("warning kinds %v, want 3 failures (two results' failed runs, one without any success), 1 variation, and others: %q, %q",
			kinds, f.Results[0].Warnings, f.Results[1].Warnings)
	}
	if !f.Results[0].HasWarning(WarningVariation) || f.Results[1].HasWarning(WarningVariation) {
		t.Errorf("noisy: HasWarning(variation) %v, dead: %v; want true, false",
			f.Results[0].HasWarning(WarningVariation), f.Results[1].HasWarning(WarningVariation))
	}
}

// TestWarningsJSON checks that a results file stores warnings as strings,
// as rootbench/v1 always has, and that Decode gives them back with their
// kinds, whether the file was written now or stores strings of its own
// (they are recomputed from the runs, as Summarize wrote them).
func TestWarningsJSON(t *testing.T) {
	t.Parallel()
	f := testFile()
	Summarize(f)
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Results []struct {
			Warnings []string `json:"warnings"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("warnings are not JSON strings: %v", err)
	}
	for i, r := range raw.Results {
		if len(r.Warnings) != len(f.Results[i].Warnings) || r.Warnings[0] != f.Results[i].Warnings[0].Text {
			t.Errorf("result %d stores %q, want the texts of %q", i, r.Warnings, f.Results[i].Warnings)
		}
	}
	if !strings.Contains(string(data), `need \u003e= 6 samples`) {
		t.Errorf("json.Marshal should escape '>' in a warning as in any string")
	}
	back, err := Decode(bytes.NewReader(data), "now.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Results {
		if !reflect.DeepEqual(back.Results[i].Warnings, f.Results[i].Warnings) {
			t.Errorf("result %d: decoded %+v, want %+v", i, back.Results[i].Warnings, f.Results[i].Warnings)
		}
	}
	// A file whose stored warnings are other strings (an older wording,
	// or none): its warnings are those of its runs.
	old := `{"schema": "rootbench/v1", "results": [{"cell": "a", "label": "a", "warnings": ["some older text"],
		"runs": [{"wall_ns": 1000000000, "cells": 1}, {"wall_ns": 2000000000, "cells": 1}, {"failed": true, "error": "boom"}]}]}`
	g, err := Decode(strings.NewReader(old), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	want := resultWarnings(g.Results[0].Runs, 0)
	if !reflect.DeepEqual(g.Results[0].Warnings, want) || want[0].Kind != WarningFailure || !g.Results[0].HasWarning(WarningVariation) {
		t.Errorf("old file's warnings %+v, want those of its runs %+v", g.Results[0].Warnings, want)
	}
}
