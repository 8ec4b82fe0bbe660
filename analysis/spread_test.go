package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSpreadInStandardErrors(t *testing.T) {
	t.Parallel()
	// ±1 standard error about the mean: sqrt(2·1/(2−1)).
	if got := SpreadInStandardErrors([]float64{-0.01, 0.01}, []float64{0.01, 0.01}); math.Abs(got-math.Sqrt2) > 1e-12 {
		t.Errorf("two estimates one standard error from their mean: %v, want sqrt(2)", got)
	}
	if got := SpreadInStandardErrors([]float64{0.3, 0.3, 0.3}, []float64{1, 2, 3}); got != 0 {
		t.Errorf("equal estimates: %v, want 0", got)
	}
	if got := SpreadInStandardErrors([]float64{1}, []float64{1}); got != 0 {
		t.Errorf("one estimate: %v, want 0", got)
	}
	// Estimates that differ by their noise only spread about 1; a shift
	// of their own beyond it spreads more.
	rng := rand.New(rand.NewPCG(2, 2))
	xs, ses, shifted := make([]float64, 2000), make([]float64, 2000), make([]float64, 2000)
	for i := range xs {
		ses[i] = 0.01 * (1 + rng.Float64())
		xs[i] = ses[i] * rng.NormFloat64()
		shifted[i] = xs[i] + 0.02*rng.NormFloat64()
	}
	if got := SpreadInStandardErrors(xs, ses); math.Abs(got-1) > 0.05 {
		t.Errorf("noise only: %v, want about 1", got)
	}
	if got := SpreadInStandardErrors(shifted, ses); got < 1.5 {
		t.Errorf("shifts of their own: %v, want well above 1", got)
	}
}
