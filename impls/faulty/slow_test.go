package faulty

import (
	"testing"
	"time"
)

// spinUntil stops at the first reading at least d past its start: exact up
// to one step of the clock, whatever the clock's pace.
func TestSpinUntilStopsAtTheFirstReadingPastItsTarget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ step, d, want time.Duration }{
		{7, 100, 105}, {10, 100, 100}, {250, 100, 250}, {3, 0, 3},
	} {
		now := 1000 * time.Hour
		clock := func() time.Duration { now += c.step; return now }
		if got := spinUntil(clock, c.d); got != c.want {
			t.Errorf("clock step %v, target %v: spun %v, want %v", c.step, c.d, got, c.want)
		}
	}
}
