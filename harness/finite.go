package harness

import "math"

// FiniteOrNil returns a pointer to x, or nil when x is NaN or infinite:
// JSON has no infinities, so a figure that may be unbounded (an interval
// bound with too few runs) is written as a *float64 field that is null,
// or left out with omitempty, when it is not finite. ABGateRow's fields
// and the compare JSON document use it.
func FiniteOrNil(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}
