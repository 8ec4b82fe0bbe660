package analysis

// This file states what each row's delta interval rules out: the smallest
// slowdown a passing row excludes, the least change a significant row
// shows, or the range an undecided row still allows with the runs the gate
// would need. It assumes what the interval's method assumes
// (hodgeslehmann.go, benchstat.go) and adds nothing: every statement is
// read off the interval, at its level, that decides the row's verdict and
// gate.

import "math"

// Claim names what a row's interval rules out (RuledOut.Claim).
type Claim string

// The claims.
const (
	// NoSlowdownBeyond: every change above Bound (≥ 0) is ruled out, so
	// no slowdown beyond it: what a row that passes the gate shows.
	NoSlowdownBeyond Claim = "no-slowdown-beyond"
	// FasterByAtLeast: every change above Bound (< 0) is ruled out: the
	// head is faster by at least −Bound.
	FasterByAtLeast Claim = "faster-by-at-least"
	// SlowerByAtLeast: every change below Bound (> 0) is ruled out: the
	// head is slower by at least Bound (a regression, or a slowdown with
	// the gate off).
	SlowerByAtLeast Claim = "slower-by-at-least"
	// StillPossible: the interval holds zero, or the gate has not decided:
	// every change between Lo and Hi is still possible, everything outside
	// is ruled out.
	StillPossible Claim = "still-possible"
	// NothingRuledOut: the interval is unbounded (too few runs for one at
	// the row's level).
	NothingRuledOut Claim = "nothing"
)

// RuledOut is what a row's delta interval rules out at the row's level,
// put as one claim: the interval, level and gate outcome that decide the
// row, read for the reader who asks "what change could this still hide?".
type RuledOut struct {
	Claim Claim
	// Bound is the claim's figure, a change as a fraction (head/base − 1):
	// the interval's upper bound for NoSlowdownBeyond and FasterByAtLeast,
	// its lower bound for SlowerByAtLeast (the other way round for a
	// higher-is-better metric); 0 for StillPossible and NothingRuledOut.
	Bound float64
	// Lo and Hi are the changes still possible (the row's DeltaLo and
	// DeltaHi, ±Inf where unbounded); every change outside is ruled out at
	// Level.
	Lo, Hi float64
	Level  float64
	// MoreRuns is, for a row the gate left inconclusive, about how many
	// more runs per side would decide it (Row.MoreRuns; 0 when unknown).
	MoreRuns int
}

// RuleOut returns what r's interval rules out, from r's DeltaLo, DeltaHi,
// Level, Gate and MoreRuns, which must be final. CompareFiles and
// CompareCells fill Row.RuledOut with it once the gate has decided; code
// that decides rows by another rule (a sequential one, say) calls it on
// its final rows.
//
// The claim: nothing when the interval is unbounded; the range still
// possible for an inconclusive row; else faster by at least −DeltaHi when
// the interval lies below zero; no slowdown beyond DeltaHi for a row that
// passes; slower by at least DeltaLo when the interval lies above zero;
// otherwise (the gate off, no significant change) the range still
// possible. For a higher-is-better metric (B/s), "slower" is a fall and
// "faster" a rise: a pass rules out a fall beyond DeltaLo, a regression
// shows a fall of at least −DeltaHi, and so on.
func RuleOut(r Row) RuledOut {
	out := RuledOut{Lo: r.DeltaLo, Hi: r.DeltaHi, Level: r.Level}
	// The claim is read in the direction for the worse (Row.worse), its
	// bound given back as a delta.
	_, lo, hi := r.worse()
	back := func(v float64) float64 {
		if r.Metric.HigherIsBetter {
			return invert(v)
		}
		return v
	}
	switch {
	case math.IsNaN(r.DeltaLo) || math.IsNaN(r.DeltaHi) || math.IsInf(r.DeltaLo, -1) && math.IsInf(r.DeltaHi, 1):
		out.Claim = NothingRuledOut
	case r.Gate == Inconclusive:
		out.Claim = StillPossible
	case hi < 0:
		out.Claim, out.Bound = FasterByAtLeast, back(hi)
	case r.Gate == Pass:
		out.Claim, out.Bound = NoSlowdownBeyond, back(hi)
	case lo > 0:
		out.Claim, out.Bound = SlowerByAtLeast, back(lo)
	default:
		out.Claim = StillPossible
	}
	if r.Gate == Inconclusive {
		out.MoreRuns = r.MoreRuns
	}
	return out
}
