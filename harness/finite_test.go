package harness

import (
	"math"
	"testing"
)

func TestFiniteOrNil(t *testing.T) {
	t.Parallel()
	for _, x := range []float64{0, -1.5, 0.03, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		if p := FiniteOrNil(x); p == nil || *p != x {
			t.Errorf("FiniteOrNil(%v) = %v, want a pointer to %v", x, p, x)
		}
	}
	for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		if p := FiniteOrNil(x); p != nil {
			t.Errorf("FiniteOrNil(%v) = %v, want nil", x, *p)
		}
	}
}
