package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// An AR(1) series with coefficient φ has autocorrelation φ^k at lag k;
// pooled over series with shifts of their own, the shifts drop out.
func TestPooledAutocorrelationOfAR1(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 11))
	const phi = 0.5
	a := NewPooledAutocorrelation(2)
	for s := range 20 {
		d := make([]float64, 500)
		x := 0.0
		for i := range d {
			x = phi*x + rng.NormFloat64()
			d[i] = x + float64(s) // a shift of its own per series
		}
		a.Add(d)
	}
	if a.Values() != 20*500 {
		t.Errorf("%d values, want %d", a.Values(), 20*500)
	}
	for lag, want := range map[int]float64{1: phi, 2: phi * phi} {
		if got := a.At(lag); math.Abs(got-want) > 0.05 {
			t.Errorf("lag %d: %v, want about %v", lag, got, want)
		}
	}
}

func TestPooledAutocorrelationEdges(t *testing.T) {
	t.Parallel()
	alt := NewPooledAutocorrelation(2)
	alt.Add([]float64{1, -1, 1, -1, 1, -1, 1, -1})
	if got := alt.At(1); math.Abs(got-(-7.0/8)) > 1e-12 {
		t.Errorf("alternating series, lag 1: %v, want -7/8", got)
	}
	if got := alt.At(2); math.Abs(got-6.0/8) > 1e-12 {
		t.Errorf("alternating series, lag 2: %v, want 6/8", got)
	}
	flat := NewPooledAutocorrelation(1)
	flat.Add([]float64{3, 3, 3})
	flat.Add(nil)
	if got := flat.At(1); got != 0 {
		t.Errorf("series with no spread: %v, want 0", got)
	}
}
