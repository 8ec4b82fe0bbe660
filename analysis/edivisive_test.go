package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// divergenceByDefinition is Q(σ, τ, κ) summed pair by pair.
func divergenceByDefinition(z []float64, sigma, tau, kappa int) float64 {
	n, m := float64(tau-sigma), float64(kappa-tau)
	between, left, right := 0.0, 0.0, 0.0
	for i := sigma; i < tau; i++ {
		for j := tau; j < kappa; j++ {
			between += math.Abs(z[i] - z[j])
		}
		for j := i + 1; j < tau; j++ {
			left += math.Abs(z[i] - z[j])
		}
	}
	for i := tau; i < kappa; i++ {
		for j := i + 1; j < kappa; j++ {
			right += math.Abs(z[i] - z[j])
		}
	}
	e := 2 * between / (n * m)
	if n > 1 {
		e -= left / (n * (n - 1) / 2)
	}
	if m > 1 {
		e -= right / (m * (m - 1) / 2)
	}
	return n * m / (n + m) * e
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
