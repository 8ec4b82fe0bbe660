package analysis

// This file compares, for MethodHL, the rows of a unit that Go benchmark
// text declares exact (`Unit NAME assume=exact`, benchmath.AssumeExact: a
// binary's size, a count that does not vary). It assumes what the
// declaration says: a run measures the value without error, so each side's
// value is known from one run. The change is the log ratio of the two
// sides' values (each side's mode, as benchmath summarises an exact
// sample), significant whenever the values differ, with that one ratio as
// its interval at every level: the verdict and the interval still agree.
// Values that vary within a side break the assumption; the row then
// carries benchmath's warning, as benchstat's does.

import (
	"math"

	"golang.org/x/perf/benchmath"
)

// exactShift is the comparison of two exact samples of positive values.
type exactShift struct{ d float64 }

// newExactShift compares base and head, whose values are positive.
func newExactShift(base, head []float64) *exactShift {
	mode := func(xs []float64) float64 {
		return benchmath.AssumeExact.Summary(benchmath.NewSample(append([]float64(nil), xs...), &benchmath.DefaultThresholds), 1).Center
	}
	return &exactShift{d: math.Log(mode(head)) - math.Log(mode(base))}
}

func (s *exactShift) estimate() float64 { return s.d }

// pValue is 0 when the values differ, 1 when they are equal.
func (s *exactShift) pValue() float64 {
	if s.d == 0 {
		return 1
	}
	return 0
}

func (s *exactShift) interval(mult, alpha float64) (lo, hi float64) { return s.d, s.d }

// minRuns is 1: one run per side knows an exact value.
func (s *exactShift) minRuns(mult, alpha float64) int { return 1 }
