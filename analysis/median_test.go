package analysis

import (
	"math"
	"testing"
)

// A point's median and interval are the ones a comparison row shows for a
// side: benchmath's, finite from six values, unbounded below.
func TestMedianSummary(t *testing.T) {
	t.Parallel()
	values := []float64{5, 1, 4, 2, 3, 6, 7, 9, 8}
	s := MedianSummary(values)
	if s.Median != 5 || s.N != 9 {
		t.Errorf("median %g of %d values; want 5 of 9", s.Median, s.N)
	}
	if !(s.Lo < s.Median && s.Median < s.Hi) || math.IsInf(s.Lo, 0) || s.Confidence < DefaultConfidence {
		t.Errorf("interval [%g, %g] at %g does not hold the median at %g or more", s.Lo, s.Hi, s.Confidence, DefaultConfidence)
	}
	if values[0] != 5 {
		t.Errorf("the values were reordered: %v", values)
	}
	few := MedianSummary([]float64{1, 2, 3})
	if few.Median != 2 || !math.IsInf(few.Lo, -1) || !math.IsInf(few.Hi, 1) {
		t.Errorf("three values: median %g [%g, %g]; want 2 with an unbounded interval", few.Median, few.Lo, few.Hi)
	}
	if (MedianSummary(nil) != Summary{}) {
		t.Errorf("no values: %+v; want the zero Summary", MedianSummary(nil))
	}
}
