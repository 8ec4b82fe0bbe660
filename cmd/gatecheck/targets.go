package main

// The targets the gate's evidence is held to, as the replay checks them
// per condition and metric, and the search for a budget that meets those
// missed: the recorded sessions replayed as sessions of longer budgets
// (template.scaled), shortest first.

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// targetSpec is one target: the conditions it holds in (quiet, busy or
// both), the metric (each metric when ""), the replayed rate it reads (by
// the name tally gives it) and its bounds.
type targetSpec struct {
	where   string
	metric  string
	measure string // what is measured; cellMark stands for the slowed cell
	rate    string // the prefix of the rate's name; cellMark stands for the slowed cell
	atLeast bool   // the rate must be at least bound (else at most)
	bound   float64
	// hiBound, when positive, also bounds the upper end of the rate's
	// 95% Wilson interval.
	hiBound float64
	pct     float64 // the planted slowdown the rate needs replayed, if any
	// gated is true when the rate counts the slowed rows the gate reports
	// as regressions (tally's "detected").
	gated bool
}

// beyondBudgets says why no budget can meet the target at gate (a
// fraction), "" when a longer budget may: the gate reports a regression
// only when its estimate lands beyond the gate, so a planted slowdown
// equal to the gate is reported about half the time, however many pairs
// the session makes.
func (s targetSpec) beyondBudgets(gate float64) string {
	if !s.gated || !s.atLeast || s.bound <= 0.5 || math.Abs(s.pct-100*gate) > 1e-9 {
		return ""
	}
	return fmt.Sprintf("none can: a slowdown equal to the gate (%s) is reported as a regression only when its estimate lands beyond the gate, about half the time", pct(gate))
}

// cellMark stands for the slowed cell in a target's measure and rate.
const cellMark = "CELL"

// Where a target holds.
const (
	whereBoth  = "both"
	whereQuiet = "quiet"
	whereBusy  = "busy"
)

// replayTargets are the targets a replay checks: on 3-minute sessions with
// the default gate, few false alarms in every condition and metric;
// under noise, a planted 10% reported as a regression in CPU time; when
// quiet, a planted 5% reported as a regression, and found slower, in
// either metric, and few rows left undecided.
//
// A planted slowdown equal to the gate is reported as a regression only
// about half the time at any budget (targetSpec.beyondBudgets); whether
// the gate notices it at all is the rate of rows found slower (the
// interval above 0), the second 5% target.
var replayTargets = []targetSpec{
	{where: whereBoth, measure: "A/A false alarms per row", rate: "A/A: false alarms per row", bound: 0.01, hiBound: 0.015},
	{where: whereBusy, metric: cpuMetric.name, measure: "planted 10% on " + cellMark + " detected", rate: "planted 10% on " + cellMark + ": detected", atLeast: true, bound: 0.90, pct: 10, gated: true},
	{where: whereQuiet, measure: "planted 5% on " + cellMark + " detected", rate: "planted 5% on " + cellMark + ": detected", atLeast: true, bound: 0.90, pct: 5, gated: true},
	{where: whereQuiet, measure: "planted 5% on " + cellMark + " found slower (interval above 0)", rate: "planted 5% on " + cellMark + ": found slower", atLeast: true, bound: 0.90, pct: 5},
	{where: whereQuiet, measure: "A/A rows left inconclusive", rate: "A/A: rows left inconclusive", bound: 0.25},
}

// holds reports whether the target holds in a condition of noise
// processes (-1: not recorded, where no target holds).
func (s targetSpec) holds(noise int) bool {
	switch s.where {
	case whereQuiet:
		return noise == 0
	case whereBusy:
		return noise > 0
	}
	return noise >= 0
}

// says is the target's bounds in words: "≥ 90%" or "≤ 1%, upper bound ≤ 1.5%".
func (s targetSpec) says() string {
	op := "≤"
	if s.atLeast {
		op = "≥"
	}
	out := fmt.Sprintf("%s %s", op, pct(s.bound))
	if s.hiBound > 0 {
		out += fmt.Sprintf(", Wilson upper bound ≤ %s", pct(s.hiBound))
	}
	return out
}

// met reports whether r meets the target.
func (s targetSpec) met(r Rate) bool {
	if s.atLeast {
		return r.Of > 0 && r.Rate >= s.bound
	}
	return r.Of > 0 && r.Rate <= s.bound && (s.hiBound <= 0 || r.Hi <= s.hiBound)
}

// find is the target's rate among rates.
func (s targetSpec) find(rates []Rate, slow string) (Rate, bool) {
	prefix := strings.ReplaceAll(s.rate, cellMark, slow)
	for _, r := range rates {
		if strings.HasPrefix(r.Name, prefix) {
			return r, true
		}
	}
	return Rate{}, false
}

// TargetResult is one target in one condition and metric, as replayed.
type TargetResult struct {
	Condition string `json:"condition"`
	Noise     int    `json:"noise"`
	Metric    string `json:"metric"`
	Measure   string `json:"measure"`
	Target    string `json:"target"`
	// Rate is the replayed figure at the recorded budget; nil when it was
	// not replayed (Note says why).
	Rate *Rate `json:"rate,omitempty"`
	Met  bool  `json:"met"`
	// BudgetNs is the shortest budget modelled that meets the target
	// when the recorded one does not, and BudgetRate its figure there; 0
	// when none does (or no search was made: Note says).
	BudgetNs   int64  `json:"budget_ns,omitempty"`
	BudgetRate *Rate  `json:"budget_rate,omitempty"`
	Note       string `json:"note,omitempty"`

	spec targetSpec
	k    int // the metric's index in the condition's reports
}

// conditionTargets checks the targets that hold in g's condition against
// its reports, one per metric of ms.
func conditionTargets(g *sessionGroup, ms []metric, reps []*ReplayReport, slow string) []TargetResult {
	var out []TargetResult
	for _, s := range replayTargets {
		if !s.holds(g.noise) {
			continue
		}
		measure := strings.ReplaceAll(s.measure, cellMark, slow)
		for _, m := range allMetrics {
			if s.metric != "" && s.metric != m.name {
				continue
			}
			t := TargetResult{Condition: g.cond, Noise: g.noise, Metric: m.name, Measure: measure, Target: s.says(), spec: s, k: -1}
			for k := range ms {
				if ms[k].name == m.name {
					t.k = k
				}
			}
			if t.k < 0 {
				t.Note = m.title + " not judged: the sessions did not measure it, or -metrics left it out"
				out = append(out, t)
				continue
			}
			r, ok := s.find(reps[t.k].Rates, slow)
			if !ok {
				t.Note = fmt.Sprintf("not replayed: -pcts lacks %g", s.pct)
				out = append(out, t)
				continue
			}
			t.Rate, t.Met = &r, s.met(r)
			out = append(out, t)
		}
	}
	return out
}

// searchBudgets models the budgets of -search longer than the recorded
// ones, shortest first, until each target missed is met by one (its
// BudgetNs) or the budgets run out; each budget modelled is a variant of
// every metric's report.
func (c *replayConfig) searchBudgets(inputs []*template, ts []TargetResult, reps []*ReplayReport, start time.Time) error {
	var missed []*TargetResult
	var pcts []float64
	for i := range ts {
		t := &ts[i]
		if t.Rate == nil || t.Met {
			continue
		}
		if why := t.spec.beyondBudgets(c.gate); why != "" {
			t.Note = why
			continue
		}
		if !t.spec.atLeast && t.Rate.Rate <= t.spec.bound {
			// Only the interval's upper end misses: more synthetic
			// sessions narrow it, a longer budget does not.
			t.Note = fmt.Sprintf("the rate is within %s, its interval is not: replay more sessions (-sessions)", pct(t.spec.bound))
			continue
		}
		missed = append(missed, t)
		if p := t.spec.pct; p > 0 && !slices.Contains(pcts, p) {
			pcts = append(pcts, p)
		}
	}
	if len(missed) == 0 {
		return nil
	}
	var longest time.Duration
	for _, t := range inputs {
		longest = max(longest, t.maxTime)
	}
	var tried []time.Duration
	for _, b := range c.search {
		if b <= max(longest, c.budget) {
			continue
		}
		tried = append(tried, b)
		vrs, err := c.variantReports(inputs, variant{budget: b, cells: c.cells, cellList: c.cellList}, pcts, reps, start)
		if err != nil {
			return err
		}
		left := 0
		for _, t := range missed {
			if t.BudgetNs > 0 {
				continue
			}
			if r, ok := t.spec.find(vrs[t.k].Rates, c.slow); ok && t.spec.met(r) {
				t.BudgetNs, t.BudgetRate = b.Nanoseconds(), &r
				continue
			}
			left++
		}
		if left == 0 {
			break
		}
	}
	for _, t := range missed {
		switch {
		case t.BudgetNs > 0:
		case len(tried) == 0:
			t.Note = "no longer budget modelled (-search)"
		default:
			t.Note = fmt.Sprintf("not met by any budget modelled (%s)", durations(tried))
		}
	}
	return nil
}

// durations lists budgets: "4m30s, 6m0s".
func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

// pct says a fraction as a percentage: "1.5%".
func pct(f float64) string { return fmt.Sprintf("%.4g%%", 100*f) }
