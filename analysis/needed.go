package analysis

// This file estimates how many more runs an inconclusive row needs. It
// assumes that the interval's half-widths on the log scale shrink as
// 1/sqrt(n) around an unchanged estimate: a rule of thumb for rank
// intervals, not a guarantee, so the figure guides how long to sample and
// decides nothing.

import (
	"math"
	"time"
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

// BudgetToDecide estimates the time a session like the one judged here,
// which ran for elapsed, would need to decide every row it left
// undecided: elapsed times the largest (n + MoreRuns) / n over those rows,
// n being the row's pairs (its runs per side when unpaired). It assumes
// that every benchmark's pairs grow in proportion to the session's time
// (the harness keeps each benchmark's share of a round), that the looks
// are planned from the pace (so a longer budget tests its last look at the
// same level), and MoreRuns' rule of thumb; so it guides --max-time and
// decides nothing. ok is false when no row is undecided or one's need is
// unknown (MoreRuns 0).
func (c *Comparison) BudgetToDecide(elapsed time.Duration) (budget time.Duration, ok bool) {
	factor := 0.0
	for _, r := range c.Undecided() {
		n := min(r.Base.N, r.Head.N)
		if r.Pairs > 0 {
			n = r.Pairs
		}
		if r.MoreRuns <= 0 || n <= 0 {
			return 0, false
		}
		factor = max(factor, float64(n+r.MoreRuns)/float64(n))
	}
	if factor == 0 || elapsed <= 0 {
		return 0, false
	}
	return time.Duration(float64(elapsed) * factor), true
}
