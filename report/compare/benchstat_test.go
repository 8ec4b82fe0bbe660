package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report/export"
)

// goBench writes f's runs in the Go benchmark format, one line per
// successful run, as benchstat reads them: the run's workload wall time as
// ns/op over one iteration. Benchmark names are the result indexes, so
// labels with spaces need no escaping.
func goBench(w io.Writer, f *harness.File) {
	for i, r := range f.Results {
		for _, run := range r.Runs {
			if !run.Failed {
				fmt.Fprintf(w, "BenchmarkR%d 1 %d ns/op\n", i, run.WallNs)
			}
		}
	}
}

// benchstatCell is what benchstat computes for one benchmark of one file.
type benchstatCell struct {
	sample  *benchmath.Sample
	summary benchmath.Summary
}

// readBenchstat reads Go benchmark text with benchfmt and summarises every
// benchmark's sec/op as benchstat does (AssumeNothing, 95%).
func readBenchstat(t fataler, text, name string) map[string]benchstatCell {
	return readBenchstatUnit(t, text, name, "sec/op")
}

// readBenchstatUnit is readBenchstat for unit (as benchfmt tidies it).
func readBenchstatUnit(t fataler, text, name, unit string) map[string]benchstatCell {
	vals := map[string][]float64{}
	rd := benchfmt.NewReader(strings.NewReader(text), name)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			v, ok := rec.Value(unit)
			if !ok {
				t.Fatalf("benchfmt: no %s in %s", unit, rec.Name)
			}
			vals[string(rec.Name.Full())] = append(vals[string(rec.Name.Full())], v)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string]benchstatCell{}
	for k, v := range vals {
		s := benchmath.NewSample(v, &benchmath.DefaultThresholds)
		out[k] = benchstatCell{s, benchmath.AssumeNothing.Summary(s, 0.95)}
	}
	return out
}

// exportBenchstat runs f through report/export's GoBench (what
// `rootbench run --export-gobench` writes) and summarises it as benchstat
// does, in the order the benchmarks first appear.
func exportBenchstat(t fataler, f *harness.File, name string) []benchstatCell {
	var buf strings.Builder
	if err := export.GoBench(&buf, f); err != nil {
		t.Fatal(err)
	}
	cells := readBenchstat(t, buf.String(), name)
	var order []string
	rd := benchfmt.NewReader(strings.NewReader(buf.String()), name)
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok && !slices.Contains(order, string(r.Name.Full())) {
			order = append(order, string(r.Name.Full()))
		}
	}
	out := make([]benchstatCell, len(order))
	for i, k := range order {
		out[i] = cells[k]
	}
	return out
}

// benchstatVerdict maps benchstat's delta column to a verdict: "~" and
// "0.00%" (equal medians) are no change, a signed percentage a direction.
func benchstatVerdict(delta string) analysis.Verdict {
	switch {
	case delta == "~" || delta == "0.00%":
		return analysis.Same
	case strings.HasPrefix(delta, "+"):
		return analysis.Slower
	case strings.HasPrefix(delta, "-"):
		return analysis.Faster
	}
	return analysis.Verdict("benchstat printed " + delta)
}

// TestVerdictsMatchBenchstat generates pairs of results files (with ties,
// small and unequal sample sizes, shifts around the significance boundary),
// feeds their Go-benchmark form through benchfmt and benchmath exactly as
// benchstat does, and checks that Files reaches the same verdicts, medians,
// intervals and p-values.
func TestVerdictsMatchBenchstat(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		nres := rapid.IntRange(1, 3).Draw(t, "results")
		var bs, hs []spec
		for i := range nres {
			n1 := rapid.IntRange(1, 14).Draw(t, "n1")
			n2 := rapid.IntRange(1, 14).Draw(t, "n2")
			// Values in units of 0.1 ms around 100 ms: narrow ranges make ties.
			spread := rapid.IntRange(0, 40).Draw(t, "spread")
			shift := rapid.IntRange(-60, 60).Draw(t, "shift")
			draw := func(n, off int, name string) []float64 {
				xs := rapid.SliceOfN(rapid.IntRange(1000-spread, 1000+spread), n, n).Draw(t, name)
				out := make([]float64, n)
				for j, x := range xs {
					out[j] = float64(x+off) * 1e-4
				}
				return out
			}
			label := fmt.Sprintf("cell%d batch-size=%d", i, 16<<i)
			bs = append(bs, spec{Label: label, Samples: draw(n1, 0, "base")})
			hs = append(hs, spec{Label: label, Samples: draw(n2, shift, "head")})
		}
		checkBenchstat(t, fixture(bs...), fixture(hs...))
	})
}

// fataler is what testing.T and rapid.T share.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// checkBenchstat compares base and head with Files and through benchfmt +
// benchmath as benchstat does, and fails on any disagreement.
func checkBenchstat(t fataler, base, head *harness.File) {
	c, err := analysis.CompareFiles(base, head, analysis.Options{Method: analysis.MethodBenchstat, Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	var bt, ht strings.Builder
	goBench(&bt, base)
	goBench(&ht, head)
	bstat, hstat := readBenchstat(t, bt.String(), "base"), readBenchstat(t, ht.String(), "head")
	if len(c.Rows) != len(base.Results) {
		t.Fatalf("%d rows, want %d", len(c.Rows), len(base.Results))
	}
	for i, r := range c.Rows {
		key := fmt.Sprintf("R%d", i)
		old, cur := bstat[key], hstat[key]
		cmp := benchmath.AssumeNothing.Compare(old.sample, cur.sample)
		delta := cmp.FormatDelta(old.summary.Center, cur.summary.Center)
		if want := benchstatVerdict(delta); r.Verdict != want {
			t.Fatalf("%s: verdict %q, benchstat says %q (p=%v vs %v)", r.Label, r.Verdict, delta, r.P, cmp.P)
		}
		if r.P != cmp.P {
			t.Fatalf("%s: p=%v, benchstat p=%v", r.Label, r.P, cmp.P)
		}
		for _, pair := range [][2]float64{
			{r.Base.Median, old.summary.Center}, {r.Base.Lo, old.summary.Lo}, {r.Base.Hi, old.summary.Hi},
			{r.Head.Median, cur.summary.Center}, {r.Head.Lo, cur.summary.Lo}, {r.Head.Hi, cur.summary.Hi},
		} {
			if !approxEqual(pair[0], pair[1]) {
				t.Fatalf("%s: summary %v, benchstat %v", r.Label, pair[0], pair[1])
			}
		}
		if got, want := side(c, r.Metric, r.Head)[len(seconds(r.Head.Median)):], " ± "+cur.summary.PctRangeString(); got != want {
			t.Fatalf("%s: interval %q, benchstat %q", r.Label, got, want)
		}
		// The same through report/export's Go-benchmark export, whose
		// sec/op is the run's wall time per cell: the same ranks and
		// ratios, so the same verdict, p-value and delta.
		eo, ec := exportBenchstat(t, base, "base")[i], exportBenchstat(t, head, "head")[i]
		ecmp := benchmath.AssumeNothing.Compare(eo.sample, ec.sample)
		edelta := ecmp.FormatDelta(eo.summary.Center, ec.summary.Center)
		if want := benchstatVerdict(edelta); r.Verdict != want || r.P != ecmp.P {
			t.Fatalf("%s: verdict %q p=%v, benchstat on the gobench export says %q p=%v", r.Label, r.Verdict, r.P, edelta, ecmp.P)
		}
		// benchstat prints the delta to 0.01%; allow its rounding.
		if v, err := strconv.ParseFloat(strings.TrimSuffix(edelta, "%"), 64); r.Verdict != analysis.Same && (err != nil || math.Abs(100*r.Delta-v) > 0.005+1e-9) {
			t.Fatalf("%s: delta %s, benchstat on the gobench export %s", r.Label, pct(r.Delta, 2), edelta)
		}
		// The gate never fails a row benchstat calls unchanged or faster,
		// nor one whose change is within +5%, and never passes a row whose
		// interval reaches +5%.
		if r.Gate == analysis.Regression && (r.Verdict != analysis.Slower || !(r.Delta > 0.05)) {
			t.Fatalf("%s: regression with verdict %q and delta %v", r.Label, r.Verdict, r.Delta)
		}
		if r.Gate == analysis.Pass && !(r.DeltaHi < 0.05) {
			t.Fatalf("%s: pass with interval [%v, %v]", r.Label, r.DeltaLo, r.DeltaHi)
		}
	}
}

// TestBenchstatEdgeCases pins cases random generation rarely reaches: a
// significant difference between equal medians (benchstat prints "0.00%",
// no direction), all samples equal, one run a side.
func TestBenchstatEdgeCases(t *testing.T) {
	t.Parallel()
	rep := func(v float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	cases := []struct {
		name       string
		base, head []float64
		want       analysis.Verdict
	}{
		{"equal medians, significant", append(rep(1, 5), rep(5, 6)...), append(rep(5, 6), rep(9, 5)...), analysis.Same},
		{"all equal", rep(2, 10), rep(2, 10), analysis.Same},
		{"one run a side", []float64{1}, []float64{2}, analysis.Same},
		{"disjoint", rep(1, 8), rep(2, 8), analysis.Slower},
	}
	for _, tc := range cases {
		base, head := fixture(spec{Label: tc.name, Samples: tc.base}), fixture(spec{Label: tc.name, Samples: tc.head})
		checkBenchstat(t, base, head)
		c, err := analysis.CompareFiles(base, head, analysis.Options{Method: analysis.MethodBenchstat})
		if err != nil {
			t.Fatal(err)
		}
		if c.Rows[0].Verdict != tc.want {
			t.Errorf("%s: verdict %q (p=%v), want %q", tc.name, c.Rows[0].Verdict, c.Rows[0].P, tc.want)
		}
	}
}

func approxEqual(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}
