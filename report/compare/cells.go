package compare

// This file formats a row's figures the same way in every format: the
// benchmark's name, medians and times, deltas, intervals and their
// bounds, p-values, the gate cell and the conclusion.

import (
	"fmt"
	"math"
	"strings"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/report"
)

// rowName is a row's benchmark cell: its label ("base → head" when the
// labels differ), with the basis when the row compares per unit of work
// while others may not (Go benchmark text is per op throughout, which the
// header says).
func rowName(c *analysis.Comparison, r analysis.Row) string {
	name := r.Label
	if r.BaseLabel != "" {
		name = r.BaseLabel + " → " + r.Label
	}
	if r.Basis != "" && r.Basis != string(analysis.BasisTime) && !isGoBench(c) {
		name += " (" + r.Basis + ")"
	}
	return name
}

// metricCell is a row's metric cell, for tables whose rows name their
// metric (analysis.Comparison.NamesMetrics): "wall", "CPU", "process CPU"
// (CPU time of the whole worker, start-up and warm-up included), or the
// unit of Go benchmark text.
func metricCell(m analysis.Metric) string {
	switch m {
	case analysis.Wall:
		return "wall"
	case analysis.CPU:
		return "CPU"
	case analysis.ProcessCPU:
		return "process CPU"
	}
	return m.Label
}

// verdictText is a row's verdict cell: benchstat's "~", or "slower" and
// "faster" for a time, "worse" and "better" for another metric.
func verdictText(r analysis.Row) string {
	if r.Metric.IsTime() || r.Verdict == analysis.Same {
		return string(r.Verdict)
	}
	if r.Verdict == analysis.Slower {
		return "worse"
	}
	return "better"
}

// gateText is a row's gate cell: "pass", "REGRESSION", or "inconclusive
// (+12 runs)".
func gateText(r analysis.Row) string {
	switch r.Gate {
	case analysis.Regression:
		return "REGRESSION"
	case analysis.Inconclusive:
		if r.MoreRuns > 0 {
			return fmt.Sprintf("inconclusive (+%d runs)", r.MoreRuns)
		}
		return "inconclusive"
	case analysis.Pass:
		return "pass"
	}
	return ""
}

// Conclusion is a row's conclusion cell: what its interval rules out, as
// analysis.RuleOut puts it ("no slowdown beyond +3.1%", "faster by at
// least 1.2%", "slower by at least 6.2%", "-1.2% to +7.9% still
// possible", "nothing ruled out yet"). A row whose RuledOut was not
// filled (built by a rule other than analysis's Compare functions) is
// read with analysis.RuleOut.
func Conclusion(r analysis.Row) string {
	ro := r.RuledOut
	if ro.Claim == "" {
		ro = analysis.RuleOut(r)
	}
	// The words of a change for the worse and for the better: a time's,
	// a cost's (B/op), or a throughput's (B/s).
	worse, better, worsening := "slower", "faster", "slowdown"
	switch {
	case r.Metric.HigherIsBetter:
		worse, better, worsening = "lower", "higher", "fall"
	case !r.Metric.IsTime():
		worse, better, worsening = "higher", "lower", "rise"
	}
	switch ro.Claim {
	case analysis.NoSlowdownBeyond:
		return "no " + worsening + " beyond " + bound(ro.Bound)
	case analysis.FasterByAtLeast:
		return better + " by at least " + magnitude(ro.Bound)
	case analysis.SlowerByAtLeast:
		return worse + " by at least " + magnitude(ro.Bound)
	case analysis.StillPossible:
		return bound(ro.Lo) + " to " + bound(ro.Hi) + " still possible"
	}
	return "nothing ruled out yet"
}

// magnitude is bound without its sign: the size of a change.
func magnitude(v float64) string {
	return strings.TrimPrefix(bound(math.Abs(v)), "+")
}

// side formats one side of a row: the median, with benchstat's "± x%"
// interval in benchstat mode; "/cell" when the row compares per unit.
func side(c *analysis.Comparison, m analysis.Metric, s analysis.Summary) string {
	v := value(m, s.Median)
	if c.Method == analysis.MethodBenchstat {
		v += " ± " + benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
	}
	return v
}

// seconds formats a duration given in seconds with 4 significant digits,
// in the unit report.UnitFor picks.
func seconds(v float64) string {
	if s, ok := nonFinite(v, "∞"); ok {
		return s
	}
	u := report.UnitFor(math.Abs(v)) // the terminal output's choice of unit
	unit := u.String()
	x := v / u.Seconds()
	switch ax := math.Abs(x); {
	case ax >= 100:
		return fmt.Sprintf("%.1f%s", x, unit)
	case ax >= 10:
		return fmt.Sprintf("%.2f%s", x, unit)
	default:
		return fmt.Sprintf("%.3f%s", x, unit)
	}
}

// nonFinite is how v reads when it is not a finite number: inf for +∞,
// "-∞" and "?" for NaN; ok is false for a finite v.
func nonFinite(v float64, inf string) (s string, ok bool) {
	switch {
	case math.IsInf(v, 1):
		return inf, true
	case math.IsInf(v, -1):
		return "-∞", true
	case math.IsNaN(v):
		return "?", true
	}
	return "", false
}

// value formats a figure of metric m: a time with seconds, another unit's
// value scaled as benchstat scales it (benchunit: 1.150Gi for bytes, 95.37M
// otherwise).
func value(m analysis.Metric, v float64) string {
	if m.IsTime() {
		return seconds(v)
	}
	if s, ok := nonFinite(v, "∞"); ok {
		return s
	}
	return benchunit.Scale(v, benchunit.ClassOf(m.Name))
}

func absCI(m analysis.Metric, s analysis.Summary) string {
	return fmt.Sprintf("%s [%s, %s]", value(m, s.Median), value(m, s.Lo), value(m, s.Hi))
}

// pct formats a fraction as a signed percentage; ±Inf as ±∞.
func pct(v float64, prec int) string {
	if s, ok := nonFinite(v, "+∞"); ok {
		return s
	}
	x := 100 * v
	if math.Abs(x) < 0.5*math.Pow(10, -float64(prec)) {
		x = 0 // no "-0.00%"
	}
	return fmt.Sprintf("%+.*f%%", prec, x)
}

// pctPlain formats a fraction as an unsigned percentage ("5%", "0.5%").
func pctPlain(v float64) string {
	return fmt.Sprintf("%.4g%%", 100*v)
}

// interval formats the delta interval. A bound rounding to the other side
// of zero than its sign is shown with more precision, so a significant
// row never reads as if its interval touched zero.
func interval(r analysis.Row) string {
	return "[" + bound(r.DeltaLo) + ", " + bound(r.DeltaHi) + "]"
}

func bound(v float64) string {
	for prec := 1; prec < 6; prec++ {
		s := pct(v, prec)
		if v == 0 || (s != "+0."+strings.Repeat("0", prec)+"%" && s != "-0."+strings.Repeat("0", prec)+"%") {
			return s
		}
	}
	return pct(v, 6)
}

// pValue is benchstat's "p=0.000 n=10" annotation; under a correction, the
// adjusted p-value, which is what the verdict compares with α.
func pValue(c *analysis.Comparison, r analysis.Row) string {
	if c.Method == analysis.MethodBenchstat {
		return benchmath.Comparison{P: r.P, N1: r.Base.N, N2: r.Head.N}.String()
	}
	return benchmath.Comparison{P: r.PAdjusted, N1: r.Base.N, N2: r.Head.N}.String()
}

func pNumber(p float64) string {
	return fmt.Sprintf("%.3g", p)
}

func nString(r analysis.Row) string {
	if r.Base.N == r.Head.N {
		return fmt.Sprint(r.Base.N)
	}
	return fmt.Sprintf("%d+%d", r.Base.N, r.Head.N)
}
