package analysis

// This file controls the error rate across a comparison's rows with
// Holm's step-down procedure, then builds each MethodHL row's interval and
// verdict at the level Holm tested it at. Holm assumes nothing about how
// the rows' tests depend on one another: the family-wise error rate stays
// at most Alpha whatever the dependence, as long as each row's p-value is
// valid on its own.

import (
	"fmt"
	"math"
	"sort"
)

// correct applies the correction to MethodHL rows, then computes each
// row's interval at the level it was tested at and its verdict from that
// interval.
//
// Holm's step-down tests the rows in increasing order of p at levels
// α/m, α/(m−1), ..., stopping at the first row it cannot reject. Each row's
// interval is built at the level Holm tested it at, and the rows after the
// stopping step at the stopping step's level, so every row is significant
// (its adjusted p <= α) exactly when its interval excludes zero: a rejected
// row's p is at most its level, the stopping row's p exceeds its level,
// and every later row's p is at least the stopping row's.
func (c *Comparison) correct() {
	m := len(c.Rows)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	if c.Correction == CorrectionHolm {
		sort.SliceStable(order, func(a, b int) bool { return c.Rows[order[a]].P < c.Rows[order[b]].P })
		stopped := false
		stopMult := 1.0
		running := 0.0
		for step, i := range order {
			r := &c.Rows[i]
			mult := float64(m - step)
			if !stopped && !(mult*r.P <= c.Alpha) {
				stopped, stopMult = true, mult
			}
			if stopped {
				r.mult = stopMult
			} else {
				r.mult = mult
			}
			running = max(running, min(1, mult*r.P))
			r.PAdjusted = running
		}
	}
	for i := range c.Rows {
		r := &c.Rows[i]
		lo, hi := r.sh.interval(r.mult, c.Alpha)
		r.DeltaLo, r.DeltaHi = math.Expm1(lo), math.Expm1(hi)
		if math.IsInf(lo, -1) {
			r.DeltaLo = lo // unbounded, not −100%
		}
		r.Level = 1 - c.Alpha/r.mult
		up, down := directions(r.Metric)
		switch {
		case lo > 0:
			r.Verdict = up
		case hi < 0:
			r.Verdict = down
		default:
			r.Verdict = Same
		}
		if math.IsInf(lo, 0) {
			r.Warnings = append(r.Warnings, fmt.Sprintf("too few runs for a finite delta interval at %.4g%% (have %d+%d, need >= %d per side)",
				100*r.Level, r.Base.N, r.Head.N, r.sh.minRuns(r.mult, c.Alpha)))
		}
		r.minRuns = r.sh.minRuns(r.mult, c.Alpha)
		r.sh = nil
	}
}
