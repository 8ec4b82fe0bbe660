package compare

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// TestGoBenchTextMatchesBenchstat writes random go test -bench output
// (fractional and integer ns/op as the testing package prints them,
// repeated values, varying iteration counts, unequal sample sizes), reads
// it with harness.DecodeGoBench and compares with the benchstat method:
// every median, interval bound and p-value must equal, bit for bit, what
// benchmath computes from the same text read by benchfmt, as benchstat
// does, on each unit (sec/op and B/op, a row each). The default method must
// compare the same rows, per op.
func TestGoBenchTextMatchesBenchstat(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		nb := rapid.IntRange(1, 3).Draw(t, "benchmarks")
		var base, head strings.Builder
		base.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/p\n")
		head.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/p\n")
		for i := range nb {
			// Around 10^scale ns/op, printed with the decimals the testing
			// package would use for that magnitude.
			scale := rapid.IntRange(-4, 8).Draw(t, "scale")
			spread := rapid.IntRange(0, 30).Draw(t, "spread")
			shift := rapid.IntRange(-40, 40).Draw(t, "shift")
			for side, w := range []*strings.Builder{&base, &head} {
				n := rapid.IntRange(1, 12).Draw(t, "n")
				for range n {
					x := rapid.IntRange(1000-spread, 1000+spread).Draw(t, "x")
					if side == 1 {
						x += shift
					}
					ns := float64(x) / 1000 * pow10(scale)
					iters := rapid.IntRange(1, 1_000_000_000).Draw(t, "iters")
					fmt.Fprintf(w, "BenchmarkB%d/sub=%d-2 \t%d\t%s ns/op\t 16 B/op\n", i, i, iters, formatNs(ns))
				}
			}
		}
		bf, err := harness.DecodeGoBench(strings.NewReader(base.String()), "base.txt")
		if err != nil {
			t.Fatal(err)
		}
		hf, err := harness.DecodeGoBench(strings.NewReader(head.String()), "head.txt")
		if err != nil {
			t.Fatal(err)
		}
		c, err := analysis.CompareFiles(bf, hf, analysis.Options{Method: analysis.MethodBenchstat})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Rows) != 2*nb {
			t.Fatalf("%d rows, want %d (sec/op and B/op of each benchmark)", len(c.Rows), 2*nb)
		}
		for _, r := range c.Rows {
			unit := r.Metric.Name
			bstat, hstat := readBenchstatUnit(t, base.String(), "base.txt", unit), readBenchstatUnit(t, head.String(), "head.txt", unit)
			old, cur := bstat[r.Label], hstat[r.Label]
			if old.sample == nil || cur.sample == nil {
				t.Fatalf("row %q: no such benchmark in benchfmt's reading", r.Label)
			}
			cmp := benchmath.AssumeNothing.Compare(old.sample, cur.sample)
			for _, pair := range [][2]float64{
				{r.Base.Median, old.summary.Center}, {r.Base.Lo, old.summary.Lo}, {r.Base.Hi, old.summary.Hi},
				{r.Head.Median, cur.summary.Center}, {r.Head.Lo, cur.summary.Lo}, {r.Head.Hi, cur.summary.Hi},
				{r.P, cmp.P},
			} {
				if pair[0] != pair[1] {
					t.Fatalf("%s: %v, benchstat %v", r.Label, pair[0], pair[1])
				}
			}
			delta := cmp.FormatDelta(old.summary.Center, cur.summary.Center)
			if want := benchstatVerdict(delta); r.Verdict != want {
				t.Fatalf("%s: verdict %q, benchstat %q", r.Label, r.Verdict, delta)
			}
			if r.Basis != "per op" {
				t.Fatalf("%s: basis %q, want per op", r.Label, r.Basis)
			}
			for _, w := range r.Warnings {
				if strings.Contains(w, "different amounts of work") {
					t.Fatalf("%s: warning %q: Go benchmark text is per op by design", r.Label, w)
				}
			}
		}
		hl, err := analysis.CompareFiles(bf, hf, analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hl.Rows) != 2*nb {
			t.Fatalf("default method: %d rows, want %d", len(hl.Rows), 2*nb)
		}
	})
}

func pow10(k int) float64 {
	x := 1.0
	for ; k > 0; k-- {
		x *= 10
	}
	for ; k < 0; k++ {
		x /= 10
	}
	return x
}

// formatNs prints ns/op as the testing package does (its prettyPrint):
// whole nanoseconds from 999.95 up, else the decimals that keep about
// four significant digits, down to seven.
func formatNs(ns float64) string {
	prec := 7
	for i, limit := range []float64{999.95, 99.995, 9.9995, 0.99995, 0.099995, 0.0099995, 0.00099995} {
		if ns >= limit {
			prec = i
			break
		}
	}
	return strconv.FormatFloat(ns, 'f', prec, 64)
}

// TestGoBenchText checks the text output for Go benchmark text: the header
// names the measure (time per op) and the rows carry no per-op suffix.
func TestGoBenchText(t *testing.T) {
	t.Parallel()
	text := func(ns ...string) string {
		var b strings.Builder
		for _, v := range ns {
			fmt.Fprintf(&b, "BenchmarkX-2 1000 %s ns/op\n", v)
		}
		return b.String()
	}
	bf, err := harness.DecodeGoBench(strings.NewReader(text("10.0", "10.1", "10.2", "10.0", "10.1", "10.2")), "old.txt")
	if err != nil {
		t.Fatal(err)
	}
	hf, err := harness.DecodeGoBench(strings.NewReader(text("12.0", "12.1", "12.2", "12.0", "12.1", "12.2")), "new.txt")
	if err != nil {
		t.Fatal(err)
	}
	c, err := analysis.CompareFiles(bf, hf, analysis.Options{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	s := write(t, Text, c)
	for _, want := range []string{"go test -bench: base = base, head = head; median time per op", " X-2 ", "10.10ns", "12.10ns", "REGRESSION"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "(per op)") {
		t.Fatalf("row names carry the basis, which the header states:\n%s", s)
	}
}
