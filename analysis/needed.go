package analysis

// This file estimates how many more runs an inconclusive row needs. It
// assumes that the interval's half-widths on the log scale shrink as
// 1/sqrt(n) around an unchanged estimate: a rule of thumb for rank
// intervals, not a guarantee, so the figure guides how long to sample and
// decides nothing.

import (
	"math"
)

// moreRuns estimates how many more runs per side would decide an
// inconclusive row, taking the interval's half-widths (on the log scale) to
// shrink as 1/sqrt(n): to pass, the bound for the worse must fall below
// the threshold; to regress, the other must pass zero. With an
// unbounded interval it is the runs a finite one needs. 0 means unknown.
func (c *Comparison) moreRuns(r *Row) int {
	n := min(r.Base.N, r.Head.N)
	if r.Pairs > 0 {
		n = r.Pairs
	}
	if math.IsInf(r.DeltaLo, 0) || math.IsInf(r.DeltaHi, 0) {
		need := minRuns(math.Sqrt(DefaultConfidence))
		if c.Method == MethodHL {
			need = r.minRuns
		}
		return max(1, need-n)
	}
	we, wlo, whi := r.worse()
	lo, hi, e := math.Log1p(wlo), math.Log1p(whi), math.Log1p(we)
	t := math.Log1p(c.Threshold)
	var factor float64
	switch {
	case e < t:
		factor = (hi - e) / (t - e)
	case e > 0:
		factor = (e - lo) / e
	default:
		return 0
	}
	need := float64(n) * factor * factor
	if math.IsNaN(need) || math.IsInf(need, 0) || need > maxMoreRuns {
		return 0
	}
	return max(1, int(math.Ceil(need))-n)
}

// maxMoreRuns bounds the runs per side Row.MoreRuns states.
const maxMoreRuns = 10_000
