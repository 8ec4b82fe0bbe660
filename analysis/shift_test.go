package analysis

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// bruteCDF enumerates every way of placing m first-sample values among
// m+n ranks and tabulates P(U ≤ c), U counting the pairs where the
// second-sample value is below the first-sample one.
func bruteCDF(m, n int) []float64 {
	counts := make([]float64, m*n+1)
	total := 0.0
	for mask := 0; mask < 1<<(m+n); mask++ {
		ones := 0
		for b := 0; b < m+n; b++ {
			if mask>>b&1 == 1 {
				ones++
			}
		}
		if ones != m {
			continue
		}
		// Bit b set: rank b holds a first-sample value. U counts, for each
		// first-sample value, the second-sample values ranked below it.
		u, below := 0, 0
		for b := 0; b < m+n; b++ {
			if mask>>b&1 == 1 {
				u += below
			} else {
				below++
			}
		}
		counts[u]++
		total++
	}
	out := make([]float64, len(counts))
	acc := 0.0
	for u, c := range counts {
		acc += c
		out[u] = acc / total
	}
	return out
}

func TestExactCDFMatchesEnumeration(t *testing.T) {
	t.Parallel()
	for m := 1; m <= 6; m++ {
		for n := 1; n <= 6; n++ {
			want := bruteCDF(m, n)
			got := exactCDF(m, n)
			for c := -1; c <= m*n+1; c++ {
				w := 0.0
				switch {
				case c >= m*n:
					w = 1
				case c >= 0:
					w = want[c]
				}
				if math.Abs(got(c)-w) > 1e-12 {
					t.Fatalf("m=%d n=%d: P(U <= %d) = %v, enumeration gives %v", m, n, c, got(c), w)
				}
			}
		}
	}
}

func TestNormalApproximationNearExact(t *testing.T) {
	t.Parallel()
	exact, normal := exactCDF(40, 40), normalCDF(40, 40, nil)
	for _, c := range []int{500, 600, 700, 800} {
		if d := math.Abs(exact(c) - normal(c)); d > 0.005 {
			t.Errorf("P(U <= %d) at 40+40: exact %v, normal %v", c, exact(c), normal(c))
		}
	}
}

// drawSample draws n positive times on a coarse grid (so ties happen),
// scaled by a shift factor.
func drawSample(t *rapid.T, n int, scale float64, name string) []float64 {
	spread := rapid.IntRange(0, 30).Draw(t, name+" spread")
	xs := rapid.SliceOfN(rapid.IntRange(100-spread, 100+spread), n, n).Draw(t, name)
	out := make([]float64, n)
	for i, x := range xs {
		out[i] = float64(x) * scale * 1e-3
	}
	return out
}

// drawRows draws rows rows r0, r1, ...: a base sample of a size drawn from
// baseN and a head sample of a size drawn from headN (nil: the base's
// size), scaled by a factor drawn from shift.
func drawRows(t *rapid.T, rows int, baseN, headN *rapid.Generator[int], shift *rapid.Generator[float64]) (bs, hs []spec) {
	for i := range rows {
		nb := baseN.Draw(t, "n1")
		nh := nb
		if headN != nil {
			nh = headN.Draw(t, "n2")
		}
		k := shift.Draw(t, "shift")
		label := fmt.Sprintf("r%d", i)
		bs = append(bs, spec{Label: label, Samples: drawSample(t, nb, 1, "base")})
		hs = append(hs, spec{Label: label, Samples: drawSample(t, nh, k, "head")})
	}
	return bs, hs
}

// TestVerdictNeverContradictsInterval is the promise of the default
// method: on random samples (ties, tiny and unequal sizes, many rows, any
// alpha, with and without Holm, paired or not), a row is significant exactly when its
// interval excludes zero, exactly when its adjusted p-value is at most
// alpha; the estimate lies inside its interval; and the gate's outcome
// follows its definition.
func TestVerdictNeverContradictsInterval(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		rows := rapid.IntRange(1, 6).Draw(t, "rows")
		bs, hs := drawRows(t, rows, rapid.IntRange(1, 60), rapid.IntRange(1, 60), rapid.Float64Range(0.8, 1.25))
		o := Options{
			Alpha:      rapid.SampledFrom([]float64{0.001, 0.01, 0.05, 0.1, 0.3}).Draw(t, "alpha"),
			Correction: rapid.SampledFrom([]Correction{CorrectionHolm, CorrectionNone}).Draw(t, "correction"),
			Threshold:  rapid.SampledFrom([]float64{0, 0.01, 0.05, 0.2}).Draw(t, "threshold"),
			// Paired rows compare the i-th runs of the two sides.
			Paired: rapid.Bool().Draw(t, "paired"),
		}
		c, err := CompareFiles(fixture(bs...), fixture(hs...), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Rows {
			excludes := r.DeltaLo > 0 || r.DeltaHi < 0
			significant := r.Verdict != Same
			if significant != excludes || significant != (r.PAdjusted <= o.Alpha) {
				t.Fatalf("%s: verdict %q, interval [%v, %v], adjusted p %v (raw %v) at alpha %v: they disagree",
					r.Label, r.Verdict, r.DeltaLo, r.DeltaHi, r.PAdjusted, r.P, o.Alpha)
			}
			if (r.Verdict == Slower) != (r.DeltaLo > 0) || (r.Verdict == Faster) != (r.DeltaHi < 0) {
				t.Fatalf("%s: verdict %q with interval [%v, %v]", r.Label, r.Verdict, r.DeltaLo, r.DeltaHi)
			}
			if !(r.DeltaLo <= r.Delta && r.Delta <= r.DeltaHi) {
				t.Fatalf("%s: estimate %v outside its interval [%v, %v]", r.Label, r.Delta, r.DeltaLo, r.DeltaHi)
			}
			if r.PAdjusted < r.P || r.PAdjusted > 1 {
				t.Fatalf("%s: adjusted p %v, raw p %v", r.Label, r.PAdjusted, r.P)
			}
			if o.Correction == CorrectionNone && r.PAdjusted != r.P {
				t.Fatalf("%s: no correction, yet adjusted p %v != raw %v", r.Label, r.PAdjusted, r.P)
			}
			var want Outcome
			switch {
			case o.Threshold == 0:
				want = GateOff
			case r.DeltaHi < o.Threshold:
				want = Pass
			case significant && r.Delta > o.Threshold:
				want = Regression
			default:
				want = Inconclusive
			}
			if r.Gate != want {
				t.Fatalf("%s: gate %q, want %q (interval [%v, %v], estimate %v, verdict %q)", r.Label, r.Gate, want, r.DeltaLo, r.DeltaHi, r.Delta, r.Verdict)
			}
			if err := ruledOutAgrees(r, o.Threshold); err != "" {
				t.Fatalf("%s: %s", r.Label, err)
			}
		}
	})
}

// TestHolmIsNoLooserThanPerRow: with the correction, a row is never
// significant when it is not significant uncorrected, and its interval is
// at least as wide.
func TestHolmIsNoLooserThanPerRow(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		rows := rapid.IntRange(2, 5).Draw(t, "rows")
		bs, hs := drawRows(t, rows, rapid.IntRange(4, 20), nil, rapid.Float64Range(0.9, 1.1))
		holm, err := CompareFiles(fixture(bs...), fixture(hs...), Options{})
		if err != nil {
			t.Fatal(err)
		}
		none, err := CompareFiles(fixture(bs...), fixture(hs...), Options{Correction: CorrectionNone})
		if err != nil {
			t.Fatal(err)
		}
		for i := range holm.Rows {
			h, n := holm.Rows[i], none.Rows[i]
			if h.Verdict != Same && n.Verdict == Same {
				t.Fatalf("%s: significant with Holm, not without", h.Label)
			}
			if h.DeltaLo > n.DeltaLo || h.DeltaHi < n.DeltaHi {
				t.Fatalf("%s: Holm interval [%v, %v] narrower than the per-row one [%v, %v]", h.Label, h.DeltaLo, h.DeltaHi, n.DeltaLo, n.DeltaHi)
			}
		}
	})
}

// TestGateProperties checks the gate's promises on random samples: a head
// that is the base scaled by less than 1+threshold never regresses (noise
// cannot fail it), and a head slower than every base run by far beyond the
// threshold always regresses once each side has 4 runs.
func TestGateProperties(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 20).Draw(t, "n")
		xs := rapid.SliceOfN(rapid.Float64Range(0.5, 2), n, n).Draw(t, "samples")
		th := rapid.Float64Range(0.005, 0.5).Draw(t, "threshold")
		o := Options{Threshold: th}
		compare := func(k float64) Row {
			c, err := CompareFiles(fixture(spec{Label: "x", Samples: xs}), fixture(spec{Label: "x", Samples: scaled(xs, k)}), o)
			if err != nil {
				t.Fatal(err)
			}
			return c.Rows[0]
		}
		k := rapid.Float64Range(0.5, 1+0.99*th).Draw(t, "scale within")
		if row := compare(k); row.Gate == Regression {
			t.Fatalf("scale %v < 1+%v failed the gate: estimate %v interval [%v, %v]", k, th, row.Delta, row.DeltaLo, row.DeltaHi)
		}
		lo, hi := slices.Min(xs), slices.Max(xs)
		if n < 4 {
			return
		}
		k = (1 + th) * hi / lo * rapid.Float64Range(1.01, 3).Draw(t, "scale beyond")
		if row := compare(k); row.Verdict != Slower || row.Gate != Regression {
			t.Fatalf("scale %v (spread %v..%v, n=%d) passed a %v gate: verdict %q p=%v interval [%v, %v]",
				k, lo, hi, n, th, row.Verdict, row.P, row.DeltaLo, row.DeltaHi)
		}
	})
}

func TestMinRunsFor(t *testing.T) {
	t.Parallel()
	// Two samples, exact: 2/C(2n, n) <= alpha/mult; n=4: 2/70 = 0.029.
	// Pairs: 2·2^-n <= alpha/mult; n=6: 0.03125 <= 0.05, n=5: 0.0625.
	for _, c := range []struct {
		name        string
		f           func(mult, alpha float64, limit int) int
		mult, alpha float64
		want        int
	}{
		{"minRunsFor", minRunsFor, 1, 0.05, 4}, {"minRunsFor", minRunsFor, 1, 0.01, 5}, {"minRunsFor", minRunsFor, 10, 0.05, 6},
		{"minPairsFor", minPairsFor, 1, 0.05, 6}, {"minPairsFor", minPairsFor, 4, 0.05, 8}, {"minPairsFor", minPairsFor, 1, 0.01, 8},
	} {
		if got := c.f(c.mult, c.alpha, 200); got != c.want {
			t.Errorf("%s(%v, %v) = %d, want %d", c.name, c.mult, c.alpha, got, c.want)
		}
	}
}
