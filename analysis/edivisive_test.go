package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// divergenceByDefinition is Q(σ, τ, κ) from the averages of Matteson and
// James' energy statistic, each over ordered pairs of distinct points.
func divergenceByDefinition(z []float64, sigma, tau, kappa int) float64 {
	x, y := z[sigma:tau], z[tau:kappa]
	mean := func(a, b []float64, distinct bool) float64 {
		sum, count := 0.0, 0
		for i := range a {
			for j := range b {
				if !distinct || i != j {
					sum, count = sum+math.Abs(a[i]-b[j]), count+1
				}
			}
		}
		if count == 0 {
			return 0
		}
		return sum / float64(count)
	}
	energy := 2*mean(x, y, false) - mean(x, x, true) - mean(y, y, true)
	return float64(len(x)*len(y)) / float64(len(x)+len(y)) * energy
}

func TestPairSumsDivergenceIsTheDefinition(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		z := rapid.SliceOfN(rapid.Float64Range(-3, 3), 2, 30).Draw(t, "z")
		sigma := rapid.IntRange(0, len(z)-2).Draw(t, "sigma")
		tau := rapid.IntRange(sigma+1, len(z)-1).Draw(t, "tau")
		kappa := rapid.IntRange(tau+1, len(z)).Draw(t, "kappa")
		got, want := newPairSums(z).divergence(sigma, tau, kappa), divergenceByDefinition(z, sigma, tau, kappa)
		if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("Q(%d, %d, %d) = %v, by definition %v", sigma, tau, kappa, got, want)
		}
	})
}

func TestBestSplitFindsAStep(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	z := make([]float64, 30)
	for i := range z {
		z[i] = 0.01 * rng.NormFloat64()
		if i >= 12 {
			z[i] += 0.2
		}
	}
	if c := newPairSums(z).bestSplit(0, len(z)); c.tau != 12 {
		t.Errorf("best split at %d (score %v), want 12", c.tau, c.score)
	}
	if c := newPairSums(z).bestSplit(12, len(z)); c.score > newPairSums(z).bestSplit(0, len(z)).score/4 {
		t.Errorf("the flat part scores %v, as much as the step", c.score)
	}
}

func TestWindowsCoverSymmetrically(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		length := rapid.IntRange(minChangePointWindow, 120).Draw(t, "length")
		n := rapid.IntRange(0, 500).Draw(t, "n")
		ws := windows(n, length)
		if n <= length {
			if !slices.Equal(ws, []span{{0, n}}) {
				t.Fatalf("windows(%d, %d) = %v, want the whole series", n, length, ws)
			}
			return
		}
		if ws[0].from != 0 || ws[len(ws)-1].to != n {
			t.Fatalf("windows(%d, %d) = %v do not span the series", n, length, ws)
		}
		for j, w := range ws {
			m := ws[len(ws)-1-j]
			if w.to-w.from != length || w.from != n-m.to {
				t.Fatalf("windows(%d, %d) = %v: window %d is not %d long or not the mirror of %v", n, length, ws, j, length, m)
			}
			if j > 0 && (w.from <= ws[j-1].from || w.from-ws[j-1].from > length/2) {
				t.Fatalf("windows(%d, %d) = %v: starts %d and %d are not 1 to %d apart", n, length, ws, ws[j-1].from, w.from, length/2)
			}
		}
	})
}
