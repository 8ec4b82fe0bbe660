package analysis

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

func mustFiles(t *testing.T, base, head *harness.File, o Options) *Comparison {
	t.Helper()
	c, err := CompareFiles(base, head, o)
	if err != nil {
		t.Fatalf("Files: %v", err)
	}
	return c
}

func TestIdenticalSamplesAreSame(t *testing.T) {
	t.Parallel()
	base := fixture(
		spec{Label: "boxroot", Samples: noisy(1, 10, 1.686, 0.02)},
		spec{Label: "ref", Samples: noisy(2, 10, 2.681, 0.02)},
	)
	head := fixture(
		spec{Label: "boxroot", Samples: noisy(1, 10, 1.686, 0.02)},
		spec{Label: "ref", Samples: noisy(2, 10, 2.681, 0.02)},
	)
	c := mustFiles(t, base, head, Options{Threshold: 0.05})
	if len(c.Rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(c.Rows))
	}
	for _, r := range c.Rows {
		if r.Verdict != Same {
			t.Errorf("%s: verdict %q, want ~ for identical samples (p=%v)", r.Label, r.Verdict, r.P)
		}
		if r.Delta != 0 {
			t.Errorf("%s: delta %v, want 0", r.Label, r.Delta)
		}
		if !(r.DeltaLo <= 0 && r.DeltaHi >= 0) {
			t.Errorf("%s: delta interval [%v, %v] should contain 0", r.Label, r.DeltaLo, r.DeltaHi)
		}
		if r.Gate == Regression {
			t.Errorf("%s: identical samples fail the gate", r.Label)
		}
	}
	if regs := c.Regressions(); len(regs) != 0 {
		t.Errorf("Regressions() = %v, want none", regs)
	}
	if !c.Geomean.OK || c.Geomean.Delta != 0 {
		t.Errorf("geomean = %+v, want delta 0", c.Geomean)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("unexpected warnings: %q", c.Warnings)
	}
}

func TestScaledBy1_2IsSlower(t *testing.T) {
	t.Parallel()
	b := noisy(3, 10, 1.0, 0.02)
	base := fixture(spec{Label: "boxroot", Samples: b}, spec{Label: "ref", Samples: noisy(4, 10, 2, 0.02)})
	head := fixture(spec{Label: "boxroot", Samples: scaled(b, 1.2)}, spec{Label: "ref", Samples: noisy(4, 10, 2, 0.02)})
	c := mustFiles(t, base, head, Options{Threshold: 0.05})
	r := c.Rows[0]
	if r.Label != "boxroot" || r.Verdict != Slower {
		t.Fatalf("row %q: verdict %q (p=%v), want slower", r.Label, r.Verdict, r.P)
	}
	if math.Abs(r.Delta-0.2) > 1e-6 {
		t.Errorf("delta = %v, want +20%%", r.Delta)
	}
	if !(r.DeltaLo <= r.Delta && r.Delta <= r.DeltaHi) {
		t.Errorf("delta %v outside its interval [%v, %v]", r.Delta, r.DeltaLo, r.DeltaHi)
	}
	if !(r.Gate == Regression) {
		t.Errorf("a +20%% change with interval [%v, %v] does not fail a 5%% gate", r.DeltaLo, r.DeltaHi)
	}
	regs := c.Regressions()
	if len(regs) != 1 || regs[0].Label != "boxroot" {
		t.Errorf("Regressions() = %v, want boxroot only", regs)
	}
	// Geomean of the ratios: sqrt(1.2 * 1).
	if want := math.Sqrt(1.2) - 1; math.Abs(c.Geomean.Delta-want) > 1e-6 {
		t.Errorf("geomean delta = %v, want %v", c.Geomean.Delta, want)
	}
	if c.Outcome() != Regression || c.Outcome().ExitCode() != 1 {
		t.Errorf("outcome %q (exit %d), want regression (1)", c.Outcome(), c.Outcome().ExitCode())
	}

	// The reverse is faster, and never a regression.
	c = mustFiles(t, head, base, Options{Threshold: 0.05})
	if r := c.Rows[0]; r.Verdict != Faster || (r.Gate == Regression) || math.Abs(r.Delta-(1/1.2-1)) > 1e-6 {
		t.Errorf("reverse: verdict %q delta %v regression %v; want faster, %v, false", r.Verdict, r.Delta, (r.Gate == Regression), 1/1.2-1)
	}
}

func TestShiftInsideThresholdPassesGate(t *testing.T) {
	t.Parallel()
	// A real, significant 3% slowdown: reported as slower, but inside a 5%
	// gate.
	b := noisy(5, 20, 1.0, 0.005)
	c := mustFiles(t, fixture(spec{Label: "boxroot", Samples: b}), fixture(spec{Label: "boxroot", Samples: scaled(b, 1.03)}), Options{Threshold: 0.05})
	r := c.Rows[0]
	if r.Verdict != Slower {
		t.Fatalf("a 3%% shift with 0.5%% noise: verdict %q (p=%v), want slower", r.Verdict, r.P)
	}
	if (r.Gate == Regression) || len(c.Regressions()) != 0 {
		t.Errorf("a 3%% shift fails a 5%% gate (interval [%v, %v])", r.DeltaLo, r.DeltaHi)
	}
	if r.Gate != Pass || c.Outcome() != Pass || !c.Decided() {
		t.Errorf("a 3%% shift under a 5%% gate: row %q, outcome %q; want pass", r.Gate, c.Outcome())
	}

	// A 7% slowdown drowned in ±10% noise cannot pass: its interval reaches
	// beyond the threshold. It regresses only when significant.
	b = noisy(6, 10, 1.0, 0.10)
	c = mustFiles(t, fixture(spec{Label: "boxroot", Samples: b}), fixture(spec{Label: "boxroot", Samples: noisy(7, 10, 1.07, 0.10)}), Options{Threshold: 0.05})
	switch r := c.Rows[0]; r.Gate {
	case Pass:
		t.Errorf("noisy 7%%: passes a 5%% gate with interval [%v, %v]", r.DeltaLo, r.DeltaHi)
	case Regression:
		if r.Verdict != Slower || !(r.Delta > 0.05) {
			t.Errorf("noisy 7%%: regression with verdict %q, delta %v", r.Verdict, r.Delta)
		}
	case Inconclusive:
		if r.MoreRuns < 1 || c.Decided() || c.Outcome() != Inconclusive || c.Outcome().ExitCode() != 3 {
			t.Errorf("noisy 7%%: inconclusive with %d more runs, decided %v, outcome %q", r.MoreRuns, c.Decided(), c.Outcome())
		}
	}
}

func TestGateOff(t *testing.T) {
	t.Parallel()
	b := noisy(3, 10, 1.0, 0.02)
	c := mustFiles(t, fixture(spec{Label: "x", Samples: b}), fixture(spec{Label: "x", Samples: scaled(b, 2)}), Options{})
	if c.Rows[0].Verdict != Slower || (c.Rows[0].Gate == Regression) || len(c.Regressions()) != 0 {
		t.Errorf("gate off: verdict %q, regression %v; want slower and no regression", c.Rows[0].Verdict, (c.Rows[0].Gate == Regression))
	}
	if c.Outcome() != GateOff || c.Outcome().ExitCode() != 0 || !c.Decided() || c.Rows[0].Gate != GateOff {
		t.Errorf("gate off: outcome %q, row gate %q", c.Outcome(), c.Rows[0].Gate)
	}
}

func TestTooFewSamplesAreInconclusive(t *testing.T) {
	t.Parallel()
	b := []float64{1.0, 1.01, 1.02}
	// The default method: 3+3 runs have no finite interval at 5%.
	c := mustFiles(t, fixture(spec{Label: "x", Samples: b}), fixture(spec{Label: "x", Samples: scaled(b, 3)}), Options{Threshold: 0.05})
	if r := c.Rows[0]; r.Verdict != Same || r.Gate != Inconclusive || r.MoreRuns < 1 || !math.IsInf(r.DeltaLo, -1) {
		t.Errorf("3 runs each (hl): verdict %q gate %q more runs %d interval [%v, %v]; want ~, inconclusive, >= 1 more, infinite",
			r.Verdict, r.Gate, r.MoreRuns, r.DeltaLo, r.DeltaHi)
	}
	if !strings.Contains(strings.Join(c.Warnings, "\n"), "need >= 4 per side") {
		t.Errorf("hl warnings %q do not say 4 runs per side are needed", c.Warnings)
	}

	c = mustFiles(t, fixture(spec{Label: "x", Samples: b}), fixture(spec{Label: "x", Samples: scaled(b, 3)}), Options{Method: MethodBenchstat, Threshold: 0.05})
	r := c.Rows[0]
	if r.Verdict != Same {
		t.Errorf("3 runs each: verdict %q (p=%v); the U test cannot reject with 3+3 runs at 0.05", r.Verdict, r.P)
	}
	if r.Gate != Inconclusive {
		t.Errorf("3 runs each: gate %q, want inconclusive", r.Gate)
	}
	if !math.IsInf(r.Base.Lo, -1) || !math.IsInf(r.DeltaHi, 1) {
		t.Errorf("3 runs: base CI [%v, %v], delta interval [%v, %v]; want infinite", r.Base.Lo, r.Base.Hi, r.DeltaLo, r.DeltaHi)
	}
	if l := lacking(strings.Join(c.Warnings, "\n"), "need >= 6 samples for confidence interval", "need >= 4 samples to detect a difference"); len(l) > 0 {
		t.Errorf("warnings %q lack benchmath's %q", c.Warnings, l)
	}

	// 6 runs: finite median CIs at 95%, but not at √0.95 for the delta.
	b = noisy(8, 6, 1, 0.01)
	c = mustFiles(t, fixture(spec{Label: "x", Samples: b}), fixture(spec{Label: "x", Samples: scaled(b, 3)}), Options{Method: MethodBenchstat, Threshold: 0.05})
	r = c.Rows[0]
	// Significant and far beyond the threshold: a regression, although
	// benchstat's conservative delta interval is unbounded.
	if r.Verdict != Slower || r.Gate != Regression || math.IsInf(r.Base.Lo, 0) {
		t.Errorf("6 runs tripled: verdict %q gate %q base CI [%v, %v]; want slower, regression, finite CI", r.Verdict, r.Gate, r.Base.Lo, r.Base.Hi)
	}
	if !strings.Contains(strings.Join(c.Warnings, "\n"), "need >= 7 per side") {
		t.Errorf("warnings %q do not explain the infinite delta interval", c.Warnings)
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	base := fixture(
		spec{Label: "boxroot", Samples: noisy(1, 10, 1, 0.01), Params: map[string]string{"batch-size": "1024"}},
		spec{Label: "gone", Samples: noisy(2, 10, 1, 0.01)},
	)
	head := fixture(
		spec{Label: "boxroot", Samples: noisy(3, 10, 1, 0.01), Params: map[string]string{"batch-size": "16"}, Failed: 2},
		spec{Label: "new", Samples: noisy(4, 10, 1, 0.01)},
	)
	head.Machine.CPUModel = "Other CPU"
	head.Machine.GOMAXPROCS = 8
	head.Tool.GoVersion = "go1.25.0"
	head.Partial = true
	c := mustFiles(t, base, head, Options{BaseName: "base.json", HeadName: "head.json"})
	if len(c.Rows) != 1 {
		t.Fatalf("got %d rows, want 1 (boxroot)", len(c.Rows))
	}
	if !slices.Equal(c.OnlyBase, []string{"gone"}) || !slices.Equal(c.OnlyHead, []string{"new"}) {
		t.Errorf("only base %q, only head %q; want [gone], [new]", c.OnlyBase, c.OnlyHead)
	}
	if c.Rows[0].Head.N != 10 || c.Rows[0].Head.Failed != 2 {
		t.Errorf("head n=%d failed=%d, want 10 and 2", c.Rows[0].Head.N, c.Rows[0].Head.Failed)
	}
	joined := strings.Join(c.Warnings, "\n")
	if l := lacking(joined,
		"head.json is partial",
		"CPU model Test CPU in base.json, Other CPU in head.json",
		"GOMAXPROCS 2 in base.json, 8 in head.json",
		"Go version go1.26.0 in base.json, go1.25.0 in head.json",
		"only in base.json (not compared): gone",
		"only in head.json (not compared): new",
		"boxroot: parameters differ: batch-size 1024 → 16",
		"2 failed run(s) left out",
	); len(l) > 0 {
		t.Errorf("warnings lack %q:\n%s", l, joined)
	}
}

func TestMatchByCellAndParams(t *testing.T) {
	t.Parallel()
	// The base scanned batch-size (labels carry it); the head ran one size.
	base := fixture(
		spec{Label: "boxroot batch-size=16", Cell: "boxroot", Params: map[string]string{"batch-size": "16"}, Samples: noisy(1, 8, 1, 0.01)},
		spec{Label: "boxroot batch-size=1024", Cell: "boxroot", Params: map[string]string{"batch-size": "1024"}, Samples: noisy(2, 8, 2, 0.01)},
	)
	head := fixture(spec{Label: "boxroot", Cell: "boxroot", Params: map[string]string{"batch-size": "1024"}, Samples: noisy(3, 8, 2, 0.01)})
	c := mustFiles(t, base, head, Options{})
	if len(c.Rows) != 1 || c.Rows[0].BaseLabel != "boxroot batch-size=1024" || c.Rows[0].Label != "boxroot" {
		t.Fatalf("rows %+v, want boxroot batch-size=1024 → boxroot", c.Rows)
	}
	if !slices.Equal(c.OnlyBase, []string{"boxroot batch-size=16"}) {
		t.Errorf("only base = %q", c.OnlyBase)
	}
}

func TestNoCommonBenchmarkIsAnError(t *testing.T) {
	t.Parallel()
	_, err := CompareFiles(fixture(spec{Label: "a", Samples: []float64{1}}), fixture(spec{Label: "b", Samples: []float64{1}}), Options{})
	if err == nil || !strings.Contains(err.Error(), "no benchmark in common") || !strings.Contains(err.Error(), "[a]") {
		t.Errorf("err = %v, want 'no benchmark in common' listing the labels", err)
	}
	// A result whose runs all failed is reported, not compared, not a panic.
	_, err = CompareFiles(fixture(spec{Label: "a", Failed: 3}), fixture(spec{Label: "a", Samples: []float64{1, 2}}), Options{})
	if err == nil || !strings.Contains(err.Error(), "nothing could be compared") || !strings.Contains(err.Error(), "a: no successful run in base") {
		t.Errorf("err = %v, want an error: nothing could be compared", err)
	}
	if _, err := CompareFiles(nil, fixture(), Options{}); err == nil {
		t.Error("CompareFiles(nil, ...) gave no error")
	}
}

func TestBadOptions(t *testing.T) {
	t.Parallel()
	f := fixture(spec{Label: "a", Samples: []float64{1, 2, 3}})
	for _, o := range []Options{{Alpha: 1.5}, {Method: "t-test"}, {Correction: "bonferroni"}, {Threshold: -0.1}, {Threshold: math.NaN()}} {
		if _, err := CompareFiles(f, f, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

func TestCells(t *testing.T) {
	t.Parallel()
	b := noisy(1, 10, 1, 0.01)
	f := fixture(spec{Label: "ref", Samples: b}, spec{Label: "boxroot", Samples: scaled(b, 1.5)})
	c, err := CompareCells(f, "ref", "boxroot", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 1 || c.Rows[0].Verdict != Slower || c.Rows[0].BaseLabel != "ref" || c.Rows[0].Label != "boxroot" {
		t.Fatalf("rows %+v, want ref → boxroot slower", c.Rows)
	}
	if c.Base.Name != "ref" || c.Head.Name != "boxroot" {
		t.Errorf("sides named %q, %q", c.Base.Name, c.Head.Name)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("one file, one machine: unexpected warnings %q", c.Warnings)
	}

	_, err = CompareCells(f, "ref", "nope", Options{})
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "labels available: ref, boxroot") {
		t.Errorf("unknown label: err = %v, want it named and the labels listed", err)
	}
	if _, err := CompareCells(f, "ref", "ref", Options{}); err == nil {
		t.Error("CompareCells(ref, ref) gave no error")
	}
}

func TestCellsPairsAScanByParameters(t *testing.T) {
	t.Parallel()
	sp := func(cell, size string, seed uint64, center float64) spec {
		return spec{Label: cell + " batch-size=" + size, Cell: cell, Params: map[string]string{"batch-size": size, "cell": cell},
			Samples: noisy(seed, 8, center, 0.01)}
	}
	f := fixture(sp("ref", "16", 1, 1), sp("ref", "256", 2, 2), sp("boxroot", "16", 3, 0.5), sp("boxroot", "256", 4, 1), sp("boxroot", "4096", 5, 1))
	c, err := CompareCells(f, "ref", "boxroot", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 {
		t.Fatalf("got %d rows, want 2 (batch sizes 16 and 256)", len(c.Rows))
	}
	for _, r := range c.Rows {
		if r.Verdict != Faster || math.Abs(r.Delta+0.5) > 0.05 {
			t.Errorf("%s → %s: verdict %q delta %v, want faster by about 50%%", r.BaseLabel, r.Label, r.Verdict, r.Delta)
		}
	}
	if !strings.Contains(strings.Join(c.Warnings, "\n"), "boxroot batch-size=4096") {
		t.Errorf("warnings %q do not mention the unpaired boxroot batch-size=4096", c.Warnings)
	}
}

func TestParseThreshold(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"5%": 0.05, "0.5%": 0.005, "12.5%": 0.125, "100%": 1, "1_000%": 10} {
		got, err := ParseThreshold(in)
		if err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("ParseThreshold(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// What the number parser refuses (internal/parse), a bare number and zero.
	for _, in := range []string{"", "%", "five", "-5%", "0", "0%", "NaN", "Inf%", "5%%", "5x", "0x1p3", "0x1p3%", "1e1%", "5", "500", " 12.5 % "} {
		if _, err := ParseThreshold(in); err == nil {
			t.Errorf("ParseThreshold(%q) accepted", in)
		} else if !strings.Contains(err.Error(), "threshold") {
			t.Errorf("ParseThreshold(%q): error %q does not say what was wrong", in, err)
		}
	}
}

func TestPathsSurfaceLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	writeJSON(t, good, fixture(spec{Label: "a", Samples: []float64{1, 2, 3}}))
	cases := map[string]struct{ content, want string }{
		"malformed.json": {`{"schema": "rootbench/v1", "results": [`, "not valid JSON"},
		"schema.json":    {`{"schema": "hyperfine/v1", "results": []}`, `schema "hyperfine/v1" is not supported`},
		"noschema.json":  {`{"results": []}`, `no "schema" field`},
		"empty.json":     {"", "empty file"},
		"wrongtype.json": {`{"schema": "rootbench/v1", "results": {"a": 1}}`, "not a rootbench/v2 results file"},
	}
	for name, tc := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][2]string{{p, good}, {good, p}} {
			_, err := ComparePaths(args[0], args[1], Options{})
			if err == nil {
				t.Errorf("%s: no error", name)
				continue
			}
			if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %q should name the file and say %q", name, err, tc.want)
			}
		}
	}
	if _, err := ComparePaths(filepath.Join(dir, "missing.json"), good, Options{}); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: err = %v", err)
	}
	c, err := ComparePaths(good, good, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Base.Name != good || c.Head.Name != good {
		t.Errorf("sides named %q and %q, want the paths", c.Base.Name, c.Head.Name)
	}
}

func TestUnusableSamplesAreNotCompared(t *testing.T) {
	t.Parallel()
	base := fixture(spec{Label: "a", Samples: []float64{1, 2, 3}}, spec{Label: "b", Samples: []float64{1, 2, 3}})
	head := fixture(spec{Label: "a", Samples: []float64{1, 2, 3}}, spec{Label: "b", Samples: []float64{1, 2, 3}})
	head.Results[1].Runs[1].WallNs = -5 // built in memory, not validated
	c := mustFiles(t, base, head, Options{})
	if len(c.Rows) != 1 || c.Rows[0].Label != "a" || !strings.Contains(strings.Join(c.Warnings, "\n"), "b: sample 2 of head is -5e-09") {
		t.Errorf("rows %d, warnings %q", len(c.Rows), c.Warnings)
	}
}
