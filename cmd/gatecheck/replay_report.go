package main

// The replay's report: its figures (the rates of each scenario, the
// recorded sessions as replayed, the dependence between their pairs), as
// OUT.json holds them.

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// ReplayReport is what `gatecheck -replay` writes to OUT.json; OUT.md says
// the same for people, and the live report (results/gate-check.md) gets
// its headline rates in a section of its own.
type ReplayReport struct {
	Command string `json:"command"`
	// Resample is block or pooled; Block the pairs per block.
	Resample string `json:"resample"`
	Block    int    `json:"block,omitempty"`
	Seed     uint64 `json:"seed"`
	// Sessions and Planted are the synthetic sessions per A/A and per
	// planted scenario.
	Sessions  int     `json:"sessions"`
	Planted   int     `json:"planted_sessions"`
	Alpha     float64 `json:"alpha"`
	Threshold float64 `json:"threshold"`
	// BudgetNs is the modelled budget (0: each session's recorded one);
	// Cells the cells kept ("" all).
	BudgetNs int64  `json:"budget_ns,omitempty"`
	Cells    string `json:"cells,omitempty"`
	Slow     string `json:"slow"`
	// Inputs are the recorded sessions, as replayed.
	Inputs []ReplayInput `json:"inputs"`
	// Dependence is the correlation of neighbouring pairs' log ratios
	// within the recorded sessions, per benchmark.
	Dependence []Dependence `json:"dependence"`
	Rates      []Rate       `json:"rates"`
	// CellRates are the A/A rates of each benchmark.
	CellRates []Rate `json:"cell_rates"`
	// Variants are other budgets and cell sets, modelled (-variant).
	Variants []VariantReport `json:"variants,omitempty"`
	// Resamplings are the same replay with the other resamplings
	// (-check-resampling): A/A and a planted 10%.
	Resamplings []VariantReport `json:"resamplings,omitempty"`
	Errors      int             `json:"errors"` // synthetic sessions with no verdict
	ReplayRun
}

// ReplayRun is where and how long a replay ran.
type ReplayRun struct {
	Machine    string    `json:"machine"`
	LoadAvg    []float64 `json:"load_avg,omitempty"`
	Jobs       int       `json:"jobs"`
	ElapsedNs  int64     `json:"elapsed_ns"`
	FinishedAt time.Time `json:"finished_at"`
}

// newReplayRun is this machine, with jobs sessions judged at once (0:
// GOMAXPROCS), and a replay that took took.
func newReplayRun(jobs int, took time.Duration) ReplayRun {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	m := harness.CollectMachine()
	return ReplayRun{Machine: fmt.Sprintf("%s, %d CPUs", m.CPUModel, m.LogicalCPUs), LoadAvg: m.LoadAvg, Jobs: jobs,
		ElapsedNs: took.Nanoseconds(), FinishedAt: time.Now().UTC()}
}

// VariantReport is the replay of the recorded sessions as sessions with
// another budget or cell set would have been (template.scaled).
type VariantReport struct {
	Name string `json:"name"`
	// Sessions is the synthetic A/A sessions (the first scenario's).
	Sessions int `json:"sessions"`
	// Rounds is the median over the recorded sessions of the rounds at
	// the budget look, as modelled.
	Rounds int    `json:"rounds"`
	Rates  []Rate `json:"rates"`
}

// ReplayInput is one recorded session as the replay uses it.
type ReplayInput struct {
	File      string    `json:"file"`
	StartedAt time.Time `json:"started_at"`
	LoadAvg   []float64 `json:"load_avg,omitempty"` // at the session's start
	// Load is the lowest and highest one-minute load average its runs
	// started under (absent when they did not record it).
	Load     []float64 `json:"load,omitempty"`
	CPUs     int       `json:"cpus"`
	BudgetNs int64     `json:"budget_ns"`
	// Plan and Rounds are the planned looks and the rounds at the budget
	// look as replayed; Estimated when they come from the pace (another
	// budget or cell set, or a session decided before its budget).
	Plan      []int `json:"plan"`
	Rounds    int   `json:"rounds"`
	Estimated bool  `json:"estimated,omitempty"`
	// ModelRounds and ModelPlan are what the pace model gives for the
	// recorded budget: the check of the model against the recording.
	ModelRounds int   `json:"model_rounds"`
	ModelPlan   []int `json:"model_plan"`
	// Pairs is each benchmark's recorded pairs and, at the budget look as
	// replayed, the pairs a synthetic session has.
	Pairs []BenchPairs `json:"pairs"`
}

// BenchPairs is one benchmark's pair counts.
type BenchPairs struct {
	Label    string `json:"label"`
	Recorded int    `json:"recorded"`
	Reps     int    `json:"reps"`
	Replayed int    `json:"replayed"`
}

// Dependence is the correlation of a benchmark's pair log ratios with those
// of the pair lag places later, in the same recorded session; and how far
// the sessions' shifts (median log ratios) spread beyond what their own
// pairs' noise explains: the root mean square over the sessions of (shift
// − mean shift) / its standard error (the spread of the median over block
// resamples of the session), about 1 when the sessions differ by noise
// only, above when each session has a shift of its own that centring
// removes. PairSD is the standard deviation of a session's pair log
// ratios, the noise a row must decide through: its median over the
// sessions and their least and greatest.
type Dependence struct {
	Label    string  `json:"label"`
	Lag1     float64 `json:"lag1"`
	Lag2     float64 `json:"lag2"`
	Pairs    int     `json:"pairs"`
	Sessions int     `json:"sessions"`
	Spread   float64 `json:"spread"`
	PairSD   Range   `json:"pair_sd"`
}

// Range is a figure's median over several sessions, and its least and
// greatest.
type Range struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// newReplayReport is the report of metric k of a replay: its A/A scenarios
// and those planted in metric k, tallied on metric k's rows.
func newReplayReport(c *replayConfig, r *replayer, inputs []*template, scs []scenario, results [][]synthetic, k int, took time.Duration) *ReplayReport {
	rep := &ReplayReport{
		Command: strings.Join(c.args, " "), Resample: c.resample, Seed: c.seed, Sessions: c.sessions, Planted: c.planted,
		Alpha: c.alpha, Threshold: c.gate, BudgetNs: c.budget.Nanoseconds(), Cells: c.cellList, Slow: c.slow,
		ReplayRun: newReplayRun(c.jobs, took),
	}
	if c.resample == resampleBlock {
		rep.Block = c.block
	}
	rule := r.rule()
	for i, t := range inputs {
		s := r.templates[i]
		in := ReplayInput{File: t.name, StartedAt: t.base.StartedAt, LoadAvg: t.base.Machine.LoadAvg, Load: t.load, CPUs: t.base.Machine.LogicalCPUs,
			BudgetNs: s.maxTime.Nanoseconds(), Plan: s.plan, Rounds: s.rounds, Estimated: s.estimated,
			ModelRounds: t.pace.roundsWithin(t.maxTime), ModelPlan: rule.PlanLooks(t.pace.reach(t.maxTime))}
		for _, b := range t.benches {
			bp := BenchPairs{Label: b.label, Recorded: len(b.pairs)}
			for _, sb := range s.benches {
				if sb.label == b.label {
					bp.Reps, bp.Replayed = sb.reps, sb.pairsAt(s.rounds)
				}
			}
			in.Pairs = append(in.Pairs, bp)
		}
		rep.Inputs = append(rep.Inputs, in)
	}
	rep.Dependence = dependence(inputs, max(c.block, 2), k)
	for si, sc := range scs {
		if sc.pct != 0 && sc.metric != k {
			continue
		}
		rates, cellRates, errs := tally(r, sc, results[si], k)
		rep.Rates = append(rep.Rates, rates...)
		rep.CellRates = append(rep.CellRates, cellRates...)
		rep.Errors += errs
		if sc.raw {
			// Beside the resampled A/A rates: the recorded sessions
			// themselves, judged once each.
			rates, _, errs := tally(r, scenario{name: aaRecorded, raw: true}, r.asRecorded(), k)
			rep.Rates = append(rep.Rates, rates...)
			rep.Errors += errs
		}
	}
	return rep
}

// tally counts one scenario's outcomes on the rows of metric k: rows
// reported as regressions on the cells not slowed (false alarms), per row
// and per session; on the slowed cell, regressions (detections), rows
// found slower (interval above 0, beyond the gate or not) and passes; rows
// left inconclusive. The A/A scenario also gets each
// benchmark's rates.
func tally(r *replayer, sc scenario, res []synthetic, k int) (rates, cellRates []Rate, errs int) {
	var alarms, rows, alarmSessions, hits, found, passes, slowed, undecided, total, decided int
	type cellCount struct{ alarms, undecided, rows int }
	cells := map[string]*cellCount{}
	var order []string
	for _, s := range res {
		if s.err != "" || s.rows == nil {
			errs++
			continue
		}
		t := r.templates[s.template]
		nm := len(t.metrics)
		alarmed, undecidedRow := false, false
		for row, out := range s.rows {
			if metricOf(row, nm) != k {
				continue
			}
			b := t.benches[benchOf(row, nm)]
			regression, inconclusive := out.gate == analysis.Regression, out.gate == analysis.Inconclusive
			total++
			if inconclusive {
				undecidedRow = true
				undecided++
			}
			if sc.pct != 0 && b.cell == r.slow {
				slowed++
				if out.slower {
					found++
				}
				if regression {
					hits++
				}
				if out.gate == analysis.Pass {
					passes++
				}
				continue
			}
			rows++
			if regression {
				alarms++
				alarmed = true
			}
			if sc.pct == 0 && !sc.raw {
				cc := cells[b.label]
				if cc == nil {
					cc = &cellCount{}
					cells[b.label] = cc
					order = append(order, b.label)
				}
				cc.rows++
				if regression {
					cc.alarms++
				}
				if inconclusive {
					cc.undecided++
				}
			}
		}
		if alarmed {
			alarmSessions++
		}
		if !undecidedRow {
			decided++
		}
	}
	n := len(res)
	if sc.pct == 0 {
		rates = append(rates,
			newRate(sc.name+": false alarms per row (rows reported as regressions)", alarms, rows, ""),
			newRate(sc.name+": false alarms per session (sessions with any regression)", alarmSessions, n, ""))
		for _, l := range order {
			cc := cells[l]
			cellRates = append(cellRates,
				newRate(fmt.Sprintf("A/A %s: false alarms", l), cc.alarms, cc.rows, ""),
				newRate(fmt.Sprintf("A/A %s: left inconclusive", l), cc.undecided, cc.rows, ""))
		}
	} else {
		rates = append(rates,
			newRate(fmt.Sprintf("%s on %s: detected (reported as a regression)", sc.name, r.slow), hits, slowed, ""),
			newRate(fmt.Sprintf("%s on %s: found slower (its interval above 0, beyond the gate or not)", sc.name, r.slow), found, slowed, ""),
			newRate(fmt.Sprintf("%s on %s: passed (slowdown ruled out beyond the gate)", sc.name, r.slow), passes, slowed, ""),
			newRate(fmt.Sprintf("%s: false alarms per row on the other cells", sc.name), alarms, rows, ""))
	}
	rates = append(rates,
		newRate(sc.name+": rows left inconclusive", undecided, total, ""),
		newRate(sc.name+": sessions with every row decided", decided, n, ""))
	return rates, cellRates, errs
}

// variantReport tallies a variant's replay on metric k: its A/A scenarios
// and those planted in metric k.
func variantReport(name string, r *replayer, scs []scenario, results [][]synthetic, k int) VariantReport {
	v := VariantReport{Name: name}
	var rounds []float64
	for _, t := range r.templates {
		rounds = append(rounds, float64(t.rounds))
	}
	v.Rounds = int(stats.Median(rounds))
	v.Sessions = len(results[0])
	for si, sc := range scs {
		if sc.pct != 0 && sc.metric != k {
			continue
		}
		rates, _, _ := tally(r, sc, results[si], k)
		v.Rates = append(v.Rates, rates...)
	}
	return v
}

// dependence measures, per benchmark, in metric k of the templates, the
// lag-1 and lag-2 correlation of the pairs' log ratios within each recorded session (each session's
// ratios centred on their own mean), pooled over the sessions
// (analysis.PooledAutocorrelation); and the spread of the sessions'
// shifts, median log ratios, in units of their block bootstrap standard
// errors (analysis.SpreadInStandardErrors), over the sessions with at
// least 4 blocks of pairs.
func dependence(ts []*template, block, k int) []Dependence {
	type acc struct {
		lags                *analysis.PooledAutocorrelation
		shifts, errors, sds []float64
	}
	accs := map[string]*acc{}
	var order []string
	for _, t := range ts {
		for _, b := range t.benches {
			d := logRatios(b.pairs, t.metrics[k])
			a := accs[b.label]
			if a == nil {
				a = &acc{lags: analysis.NewPooledAutocorrelation(2)}
				accs[b.label] = a
				order = append(order, b.label)
			}
			a.lags.Add(d)
			if len(d) >= 2 {
				a.sds = append(a.sds, stats.Describe(d).Stddev)
			}
			if se := analysis.MedianBootstrapError(d, block); se > 0 && len(d) >= 4*block {
				a.shifts = append(a.shifts, stats.Median(d))
				a.errors = append(a.errors, se)
			}
		}
	}
	var out []Dependence
	for _, l := range order {
		a := accs[l]
		dep := Dependence{Label: l, Pairs: a.lags.Values(), Lag1: a.lags.At(1), Lag2: a.lags.At(2), Sessions: len(a.shifts)}
		if dep.Sessions >= 2 {
			dep.Spread = analysis.SpreadInStandardErrors(a.shifts, a.errors)
		}
		if sd := stats.Describe(a.sds); sd.N > 0 {
			dep.PairSD = Range{Median: sd.Median, Min: sd.Min, Max: sd.Max}
		}
		out = append(out, dep)
	}
	return out
}
