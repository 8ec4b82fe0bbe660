package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// TestSignedRankExactMatchesEnumeration checks the exact null distribution
// against all 2^n sign patterns of the ranks 1..n.
func TestSignedRankExactMatchesEnumeration(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 12; n++ {
		total := n * (n + 1) / 2
		counts := make([]float64, total+1)
		for mask := 0; mask < 1<<n; mask++ {
			s := 0
			for k := 1; k <= n; k++ {
				if mask&(1<<(k-1)) != 0 {
					s += k
				}
			}
			counts[s]++
		}
		cdf := signedRankExact(n)
		cum := 0.0
		for c := 0; c <= total; c++ {
			cum += counts[c]
			want := cum / float64(int(1)<<n)
			if got := cdf(c); math.Abs(got-want) > 1e-12 {
				t.Fatalf("n=%d: P(T <= %d) = %v, want %v", n, c, got, want)
			}
		}
		if cdf(-1) != 0 || cdf(total+5) != 1 {
			t.Fatalf("n=%d: cdf outside 0..%d is %v and %v", n, total, cdf(-1), cdf(total+5))
		}
	}
}

// TestSignedRankNormalNearExact: at the exact table's limit the normal
// approximation agrees with it to within 0.002 across the lower tail.
func TestSignedRankNormalNearExact(t *testing.T) {
	t.Parallel()
	n := signedRankExactLimit
	exact, approx := signedRankExact(n), signedRankNormal(n, nil)
	mean := n * (n + 1) / 4
	for c := 0; c <= mean; c += 97 {
		if d := math.Abs(exact(c) - approx(c)); d > 0.002 {
			t.Errorf("n=%d: P(T <= %d) exact %v, normal %v", n, c, exact(c), approx(c))
		}
	}
}

// TestPairedTextbookExample is R's wilcox.test(x, y, paired = TRUE)
// example (Hollander & Wolfe, depression scale): V = 40, one-sided p =
// 0.01953, so the two-sided p is 20/512.
func TestPairedTextbookExample(t *testing.T) {
	t.Parallel()
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	s := newPairedShift(y, x) // head − base = x − y
	if got, want := s.pValue(), 20.0/512; math.Abs(got-want) > 1e-12 {
		t.Errorf("p = %v, want %v", got, want)
	}
	if lo, hi := s.interval(1, 0.05); !(lo > 0 && lo <= s.estimate() && s.estimate() <= hi) {
		t.Errorf("95%% interval [%v, %v] around %v: want it above 0 (p < 0.05)", lo, hi, s.estimate())
	}
	if lo, _ := s.interval(1, 0.03); lo > 0 {
		t.Errorf("97%% interval starts at %v > 0, yet p = %v > 0.03", lo, s.pValue())
	}
}

// pairedFixture builds base and head files of one row each whose i-th runs
// share the factor drift[i] (the machine's state during round i).
func pairedFixture(drift, base, head []float64) (*harness.File, *harness.File) {
	b, h := make([]float64, len(drift)), make([]float64, len(drift))
	for i := range drift {
		b[i], h[i] = drift[i]*base[i], drift[i]*head[i]
	}
	return fixture(spec{Label: "c", Samples: b}), fixture(spec{Label: "c", Samples: h})
}

// TestPairedCancelsCommonDrift: rounds whose speed varies by ±30% (shared
// by the two runs of a round) hide a planted 10% slowdown from the
// two-sample comparison, while the paired one finds it, with an interval
// that covers it.
func TestPairedCancelsCommonDrift(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 30
	drift := lognormal(rng, n, 1, 0.3)
	base, head := pairedFixture(drift, lognormal(rng, n, 1, 0.02), lognormal(rng, n, 1.10, 0.02))
	o := Options{Threshold: 0.05}
	un := mustFiles(t, base, head, o)
	o.Paired = true
	pa := mustFiles(t, base, head, o)
	ur, pr := un.Rows[0], pa.Rows[0]
	t.Logf("unpaired %+.1f%% [%+.1f, %+.1f] %s; paired %+.1f%% [%+.1f, %+.1f] %s",
		100*ur.Delta, 100*ur.DeltaLo, 100*ur.DeltaHi, ur.Gate, 100*pr.Delta, 100*pr.DeltaLo, 100*pr.DeltaHi, pr.Gate)
	if ur.Gate != Inconclusive {
		t.Errorf("unpaired: gate %s, want inconclusive under ±30%% drift", ur.Gate)
	}
	if pr.Gate != Regression || !(pr.DeltaLo < 0.10 && 0.10 < pr.DeltaHi) || pr.DeltaHi-pr.DeltaLo > 0.05 {
		t.Errorf("paired: gate %s, interval [%v, %v]: want a regression with a narrow interval covering +10%%", pr.Gate, pr.DeltaLo, pr.DeltaHi)
	}
	if pr.Pairs != n || !pa.Paired {
		t.Errorf("paired: %d pairs (want %d), Comparison.Paired %v", pr.Pairs, n, pa.Paired)
	}
}

// TestPairedFalseAlarmRate measures the paired method's error rate on A/A
// tables with drift shared within rounds: with Holm, a table of 4 rows
// alarms in at most alpha of the trials (plus sampling slack).
func TestPairedFalseAlarmRate(t *testing.T) {
	t.Parallel()
	skipCalibrationInShort(t, "a thousand simulated tables")
	const trials, rows, n = 1000, 4, 12
	rng := rand.New(rand.NewPCG(15, 3))
	alarms := 0
	for range trials {
		var bs, hs []spec
		for r := range rows {
			drift := lognormal(rng, n, 1, 0.3)
			b, h := pairedFixture(drift, lognormal(rng, n, 1, 0.05), lognormal(rng, n, 1, 0.05))
			label := fmt.Sprintf("r%d", r)
			bs = append(bs, spec{Label: label, Samples: b.Results[0].WallSeconds()})
			hs = append(hs, spec{Label: label, Samples: h.Results[0].WallSeconds()})
		}
		c := mustFiles(t, fixture(bs...), fixture(hs...), Options{Paired: true})
		for _, r := range c.Rows {
			if r.Verdict != Same {
				alarms++
				break
			}
		}
	}
	rate := float64(alarms) / trials
	slack := 3 * math.Sqrt(0.05*0.95/trials)
	t.Logf("paired A/A tables of %d rows, %d pairs: any false alarm in %.1f%%", rows, n, 100*rate)
	if rate > 0.05+slack {
		t.Errorf("false alarms in %.1f%% of tables, above 5%% + %.1f%%", 100*rate, 100*slack)
	}
}

// TestPairedSkipsFailedRuns: a run that failed on either side drops its
// pair, and the other pairs stay aligned by index.
func TestPairedSkipsFailedRuns(t *testing.T) {
	t.Parallel()
	b := &harness.Result{Runs: []harness.Run{{WallNs: 1e9, Cells: 10}, {Failed: true}, {WallNs: 3e9, Cells: 10}, {WallNs: 4e9, Cells: 10}}}
	h := &harness.Result{Runs: []harness.Run{{WallNs: 2e9, Cells: 20}, {WallNs: 5e9, Cells: 20}, {WallNs: 6e9, Cells: 20}}}
	xs, ys := pairedSamples(b, h, Wall, false)
	if fmt.Sprint(xs, ys) != "[1 3] [2 6]" {
		t.Errorf("time pairs %v %v, want [1 3] [2 6]", xs, ys)
	}
	xs, ys = pairedSamples(b, h, Wall, true)
	if fmt.Sprint(xs, ys) != "[0.1 0.3] [0.1 0.3]" { // seconds per cell
		t.Errorf("per-unit pairs %v %v, want [0.1 0.3] [0.1 0.3]", xs, ys)
	}
}

// TestPairedByNumber: runs carrying Pair numbers pair by number, whatever
// their positions (a failed warm-up recorded on one side shifts them).
func TestPairedByNumber(t *testing.T) {
	t.Parallel()
	b := &harness.Result{Runs: []harness.Run{{Failed: true}, {WallNs: 1e9, Pair: 1}, {WallNs: 3e9, Pair: 2}}}
	h := &harness.Result{Runs: []harness.Run{{WallNs: 2e9, Pair: 1}, {WallNs: 6e9, Pair: 2}, {WallNs: 9e9, Pair: 3}}}
	if xs, ys := pairedSamples(b, h, Wall, false); fmt.Sprint(xs, ys) != "[1 3] [2 6]" {
		t.Errorf("pairs %v %v, want [1 3] [2 6]", xs, ys)
	}
}

// TestPairedNeedsHL: a paired benchstat comparison is refused.
func TestPairedNeedsHL(t *testing.T) {
	t.Parallel()
	f := fixture(spec{Label: "c", Samples: []float64{1, 2, 3}})
	_, err := CompareFiles(f, f, Options{Method: MethodBenchstat, Paired: true})
	if err == nil || !strings.Contains(err.Error(), "paired") {
		t.Errorf("err = %v, want a refusal naming the paired comparison", err)
	}
}

// TestMediansOutsidePairsWarns: when runs jump between two speeds from
// pair to pair, the sides' medians can say something the pairs rule out;
// the row then carries a warning. A steady machine gives none.
func TestMediansOutsidePairsWarns(t *testing.T) {
	t.Parallel()
	jitter := func(xs []float64) []float64 {
		for i := range xs {
			xs[i] *= 1 + 0.001*float64(i)
		}
		return xs
	}
	// Nine pairs in which head is 30% slower, two in which the base ran in
	// the slow mode and the head in the fast one: the medians read -57%.
	base := jitter([]float64{1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3})
	head := jitter([]float64{1.3, 1.3, 1.3, 1.3, 1.3, 3.9, 3.9, 3.9, 3.9, 1, 1})
	c := mustFiles(t, fixture(spec{Label: "x", Samples: base}), fixture(spec{Label: "x", Samples: head}), Options{Paired: true})
	r := c.Rows[0]
	if m := r.Head.Median/r.Base.Median - 1; m >= r.DeltaLo {
		t.Fatalf("fixture: medians %+.1f%% inside the interval [%+.1f%%, %+.1f%%]", 100*m, 100*r.DeltaLo, 100*r.DeltaHi)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "outside the paired interval") }) {
		t.Errorf("no warning for medians outside the pairs' interval: %q", r.Warnings)
	}
	steady := jitter([]float64{1, 1.1, 0.9, 1.05, 0.95, 1, 1.02, 0.98, 1.01, 0.99, 1})
	slower := make([]float64, len(steady))
	for i, x := range steady {
		slower[i] = 1.2 * x * (1 + 0.002*float64(i%3))
	}
	c = mustFiles(t, fixture(spec{Label: "x", Samples: steady}), fixture(spec{Label: "x", Samples: slower}), Options{Paired: true})
	if w := c.Rows[0].Warnings; len(w) != 0 {
		t.Errorf("a steady machine warns: %q", w)
	}
}
