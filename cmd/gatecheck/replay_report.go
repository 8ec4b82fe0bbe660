package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
	Machine     string          `json:"machine"`
	LoadAvg     []float64       `json:"load_avg,omitempty"`
	Jobs        int             `json:"jobs"`
	ElapsedNs   int64           `json:"elapsed_ns"`
	FinishedAt  time.Time       `json:"finished_at"`
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
	CPUs      int       `json:"cpus"`
	BudgetNs  int64     `json:"budget_ns"`
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
// removes.
type Dependence struct {
	Label    string  `json:"label"`
	Lag1     float64 `json:"lag1"`
	Lag2     float64 `json:"lag2"`
	Pairs    int     `json:"pairs"`
	Sessions int     `json:"sessions"`
	Spread   float64 `json:"spread"`
}

func newReplayReport(c *replayConfig, r *replayer, inputs []*template, scs []scenario, results [][]synthetic, took time.Duration) *ReplayReport {
	rep := &ReplayReport{
		Command: strings.Join(c.args, " "), Resample: c.resample, Seed: c.seed, Sessions: c.sessions, Planted: c.planted,
		Alpha: c.alpha, Threshold: c.gate, BudgetNs: c.budget.Nanoseconds(), Cells: c.cellList, Slow: c.slow,
		Jobs: c.jobs, ElapsedNs: took.Nanoseconds(), FinishedAt: time.Now().UTC(),
	}
	if c.resample == resampleBlock {
		rep.Block = c.block
	}
	if rep.Jobs <= 0 {
		rep.Jobs = runtime.GOMAXPROCS(0)
	}
	m := harness.CollectMachine()
	rep.Machine = fmt.Sprintf("%s, %d CPUs", m.CPUModel, m.LogicalCPUs)
	rep.LoadAvg = m.LoadAvg
	rule := r.rule()
	for i, t := range inputs {
		s := r.templates[i]
		in := ReplayInput{File: t.name, StartedAt: t.base.StartedAt, LoadAvg: t.base.Machine.LoadAvg, CPUs: t.base.Machine.LogicalCPUs,
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
	rep.Dependence = dependence(inputs, max(c.block, 2))
	for si, sc := range scs {
		rates, cellRates, errs := tally(r, sc, results[si])
		rep.Rates = append(rep.Rates, rates...)
		rep.CellRates = append(rep.CellRates, cellRates...)
		rep.Errors += errs
		if sc.raw {
			// Beside the resampled A/A rates: the recorded sessions
			// themselves, judged once each.
			rates, _, errs := tally(r, scenario{name: aaRecorded, raw: true}, r.asRecorded())
			rep.Rates = append(rep.Rates, rates...)
			rep.Errors += errs
		}
	}
	return rep
}

// tally counts one scenario's outcomes: rows reported as regressions on
// the cells not slowed (false alarms), per row and per session; on the
// slowed cell, regressions (detections) and passes; rows left
// inconclusive. The A/A scenario also gets each benchmark's rates.
func tally(r *replayer, sc scenario, res []synthetic) (rates, cellRates []Rate, errs int) {
	var alarms, rows, alarmSessions, hits, passes, slowed, undecided, total, decided int
	type cellCount struct{ alarms, undecided, rows int }
	cells := map[string]*cellCount{}
	var order []string
	for _, s := range res {
		if s.err != "" || s.rows == nil {
			errs++
			continue
		}
		if !slices.Contains(s.rows, "inconclusive") {
			decided++
		}
		t := r.templates[s.template]
		alarmed := false
		for i, out := range s.rows {
			b := t.benches[i]
			total++
			if out == "inconclusive" {
				undecided++
			}
			if sc.pct != 0 && b.cell == r.slow {
				slowed++
				switch out {
				case "regression":
					hits++
				case "pass":
					passes++
				}
				continue
			}
			rows++
			if out == "regression" {
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
				if out == "regression" {
					cc.alarms++
				}
				if out == "inconclusive" {
					cc.undecided++
				}
			}
		}
		if alarmed {
			alarmSessions++
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
			newRate(fmt.Sprintf("%s on %s: passed (slowdown ruled out beyond the gate)", sc.name, r.slow), passes, slowed, ""),
			newRate(fmt.Sprintf("%s: false alarms per row on the other cells", sc.name), alarms, rows, ""))
	}
	rates = append(rates,
		newRate(sc.name+": rows left inconclusive", undecided, total, ""),
		newRate(sc.name+": sessions with every row decided", decided, n, ""))
	return rates, cellRates, errs
}

// variantReport tallies a variant's replay.
func variantReport(name string, r *replayer, scs []scenario, results [][]synthetic) VariantReport {
	v := VariantReport{Name: name}
	var rounds []float64
	for _, t := range r.templates {
		rounds = append(rounds, float64(t.rounds))
	}
	v.Rounds = int(stats.Median(rounds))
	v.Sessions = len(results[0])
	for si, sc := range scs {
		rates, _, _ := tally(r, sc, results[si])
		v.Rates = append(v.Rates, rates...)
	}
	return v
}

// dependence measures, per benchmark, the lag-1 and lag-2 correlation of
// the pairs' log ratios within each recorded session (each session's
// ratios centred on their own mean), pooled over the sessions
// (analysis.PooledAutocorrelation); and the spread of the sessions'
// shifts, median log ratios, in units of their block bootstrap standard
// errors (analysis.SpreadInStandardErrors), over the sessions with at
// least 4 blocks of pairs.
func dependence(ts []*template, block int) []Dependence {
	type acc struct {
		lags           *analysis.PooledAutocorrelation
		shifts, errors []float64
	}
	accs := map[string]*acc{}
	var order []string
	for _, t := range ts {
		for _, b := range t.benches {
			d := logRatios(b.pairs)
			a := accs[b.label]
			if a == nil {
				a = &acc{lags: analysis.NewPooledAutocorrelation(2)}
				accs[b.label] = a
				order = append(order, b.label)
			}
			a.lags.Add(d)
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
		out = append(out, dep)
	}
	return out
}

// Markers of the replay's section in the live report.
const (
	replayBegin = "<!-- gatecheck -replay: begin -->"
	replayEnd   = "<!-- gatecheck -replay: end -->"
)

// write writes OUT.json and OUT.md, and the replay's section of the live
// report (when live is not "" and the file exists).
func (rep *ReplayReport) write(out, live string) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the replay report: %w", err)
	}
	if err := os.WriteFile(out+".json", append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the replay report: %w", err)
	}
	if err := os.WriteFile(out+".md", []byte(rep.markdown()), 0o644); err != nil {
		return fmt.Errorf("write the replay report: %w", err)
	}
	if live == "" {
		return nil
	}
	old, err := os.ReadFile(live)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the live report: %w", err)
	}
	rel, err := filepath.Rel(filepath.Dir(live), out+".md")
	if err != nil {
		rel = out + ".md"
	}
	text := withSection(string(old), rep.section(rel))
	if err := os.WriteFile(live, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write the live report: %w", err)
	}
	return nil
}

// withSection replaces the replay's section of a live report, or appends
// it.
func withSection(doc, section string) string {
	i, j := strings.Index(doc, replayBegin), strings.Index(doc, replayEnd)
	if i >= 0 && j > i {
		return doc[:i] + section + doc[j+len(replayEnd):]
	}
	return strings.TrimRight(doc, "\n") + "\n\n" + section + "\n"
}

// sectionOf returns the replay's section of a live report, "" when it has
// none.
func sectionOf(doc string) string {
	i, j := strings.Index(doc, replayBegin), strings.Index(doc, replayEnd)
	if i >= 0 && j > i {
		return doc[i : j+len(replayEnd)]
	}
	return ""
}

// headline is the replayed rates the live report shows: false alarms,
// detections and undecided rows.
func (rep *ReplayReport) headline() []Rate {
	var out []Rate
	for _, r := range rep.Rates {
		if strings.Contains(r.Name, "false alarms per") || strings.Contains(r.Name, "detected") ||
			(strings.HasPrefix(r.Name, "A/A") && strings.Contains(r.Name, "inconclusive")) {
			out = append(out, r)
		}
	}
	return out
}

// section is the replay's section of the live report; link is the full
// report's path relative to it.
func (rep *ReplayReport) section(link string) string {
	var b strings.Builder
	b.WriteString(replayBegin + "\n")
	b.WriteString("## Replayed rates\n\n")
	fmt.Fprintf(&b, "Generated by `make gate-replay` (`%s`); the full report, its method and inputs: [%s](%s).\n", shortCommand(rep.Command), link, link)
	fmt.Fprintf(&b, "%d synthetic A/A sessions and %d per planted slowdown, resampled (%s) from %d recorded A/A sessions\n", rep.Sessions, rep.Planted, rep.method(), len(rep.Inputs))
	fmt.Fprintf(&b, "of this machine (%s) and judged by\n", rep.loadRange())
	b.WriteString("the decision code `ab` runs (`analysis.Sequential`), at the recorded looks and pair counts.\n\n")
	rateTable(&b, rep.headline())
	b.WriteString(strings.TrimPrefix(rep.targets(), "\n"))
	b.WriteString(replayEnd)
	return b.String()
}

// Targets of issue 24.
const (
	targetAlarms    = 0.01  // A/A false alarms per row, at most
	targetAlarmsHi  = 0.015 // and the upper bound of their interval
	targetDetect    = 0.95  // planted 10% detected, at least
	targetDetectPct = "planted 10% on"
)

// targets says which targets the replay meets, and which modelled
// variants meet those it does not.
func (rep *ReplayReport) targets() string {
	find := func(rates []Rate, prefix string) (Rate, bool) {
		for _, r := range rates {
			if strings.HasPrefix(r.Name, prefix) && !strings.Contains(r.Name, "passed") {
				return r, true
			}
		}
		return Rate{}, false
	}
	meets := func(rates []Rate) (alarms, detect bool) {
		a, okA := find(rates, "A/A: false alarms per row")
		d, okD := find(rates, targetDetectPct)
		return okA && a.Rate <= targetAlarms && a.Hi <= targetAlarmsHi, okD && d.Rate >= targetDetect
	}
	word := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**not met**"
	}
	var b strings.Builder
	b.WriteString("\nTargets (issue 24), by this replay:\n\n")
	alarms, detect := meets(rep.Rates)
	if r, ok := find(rep.Rates, "A/A: false alarms per row"); ok {
		fmt.Fprintf(&b, "- A/A false alarms at most 1%% of rows, upper bound at most 1.5%%: %.2f%% (%.2f%% – %.2f%%): %s.\n", 100*r.Rate, 100*r.Lo, 100*r.Hi, word(alarms))
	}
	if r, ok := find(rep.Rates, targetDetectPct); ok {
		fmt.Fprintf(&b, "- Planted 10%% on %s detected at least 95%%: %.2f%% (%.2f%% – %.2f%%): %s.\n", rep.Slow, 100*r.Rate, 100*r.Lo, 100*r.Hi, word(detect))
	}
	if r, ok := find(rep.Rates, "A/A: rows left inconclusive"); ok {
		fmt.Fprintf(&b, "- A/A rows left inconclusive: %.2f%% (%.2f%% – %.2f%%).\n", 100*r.Rate, 100*r.Lo, 100*r.Hi)
	}
	if (alarms && detect) || len(rep.Variants) == 0 {
		return b.String()
	}
	var both []string
	for _, v := range rep.Variants {
		if a, d := meets(v.Rates); a && d {
			both = append(both, v.Name)
		}
	}
	if len(both) == 0 {
		b.WriteString("- None of the modelled budgets and cell sets meets both (see the full report).\n")
	} else {
		fmt.Fprintf(&b, "- Modelled budgets and cell sets that meet both: %s (see the full report).\n", strings.Join(both, "; "))
	}
	return b.String()
}

// loadRange says the recorded sessions' load: "one-minute load average
// 5.8 to 15.4 on 2 CPUs at their start".
func (rep *ReplayReport) loadRange() string {
	lo, hi := math.Inf(1), math.Inf(-1)
	cpus := map[int]bool{}
	for _, in := range rep.Inputs {
		if len(in.LoadAvg) > 0 {
			lo, hi = min(lo, in.LoadAvg[0]), max(hi, in.LoadAvg[0])
		}
		cpus[in.CPUs] = true
	}
	if lo > hi {
		return "load not recorded"
	}
	on := ""
	if len(cpus) == 1 {
		for n := range cpus {
			on = fmt.Sprintf(" on %d CPUs", n)
		}
	}
	return fmt.Sprintf("one-minute load average %.1f to %.1f%s at their start", lo, hi, on)
}

// shortCommand is a command line with its run of recorded files in one
// directory written as a pattern: "gatecheck -replay dir/aa-*.json.gz (19
// files)".
func shortCommand(cmd string) string {
	words := strings.Fields(cmd)
	first := len(words)
	for first > 0 && (strings.HasSuffix(words[first-1], ".json") || strings.HasSuffix(words[first-1], ".json.gz")) {
		first--
	}
	files := words[first:]
	if len(files) < 3 {
		return cmd
	}
	dir, ext := filepath.Dir(files[0]), ".json"
	if strings.HasSuffix(files[0], ".gz") {
		ext = ".json.gz"
	}
	prefix := strings.TrimSuffix(filepath.Base(files[0]), ext)
	for _, f := range files {
		if filepath.Dir(f) != dir || !strings.HasSuffix(f, ext) {
			return cmd
		}
		base := filepath.Base(f)
		for !strings.HasPrefix(base, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return fmt.Sprintf("%s %s*%s (%d files)", strings.Join(words[:first], " "), filepath.Join(dir, prefix), ext, len(files))
}

func (rep *ReplayReport) method() string {
	return resampling{rep.Resample, rep.Block}.String()
}

// variantColumns are the rates a variant's table shows, by name prefix.
var variantColumns = []struct{ head, name string }{
	{"A/A false alarms per row", "A/A: false alarms per row"},
	{"A/A false alarms per session", "A/A: false alarms per session"},
	{"A/A rows inconclusive", "A/A: rows left inconclusive"},
	{"5% detected", "planted 5% on"},
	{"10% detected", "planted 10% on"},
}

func variantTable(b *strings.Builder, vs []VariantReport) {
	b.WriteString("| variant | A/A sessions | rounds (median) |")
	for _, col := range variantColumns {
		b.WriteString(" " + col.head + " |")
	}
	b.WriteString("\n|---|---:|---:|" + strings.Repeat("---|", len(variantColumns)) + "\n")
	for _, v := range vs {
		fmt.Fprintf(b, "| %s | %d | %d |", v.Name, v.Sessions, v.Rounds)
		for _, col := range variantColumns {
			cell := "–"
			for _, r := range v.Rates {
				if strings.HasPrefix(r.Name, col.name) && !strings.Contains(r.Name, "passed") {
					cell = fmt.Sprintf("%.2f%% (%.2f–%.2f)", 100*r.Rate, 100*r.Lo, 100*r.Hi)
					break
				}
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func rateTable(b *strings.Builder, rates []Rate) {
	b.WriteString("| measured | count | rate | 95% interval (Wilson) |\n|---|---:|---:|---|\n")
	for _, r := range rates {
		fmt.Fprintf(b, "| %s | %d of %d | %.2f%% | %.2f%% – %.2f%% |\n", r.Name, r.Hits, r.Of, 100*r.Rate, 100*r.Lo, 100*r.Hi)
	}
	b.WriteString("\n")
}

// markdown renders the full replay report.
func (rep *ReplayReport) markdown() string {
	var b strings.Builder
	b.WriteString("# The gate's error rates, replayed\n\n")
	b.WriteString("Generated by `gatecheck -replay` (`make gate-replay`); do not edit. The live check, which runs real\n")
	b.WriteString("sessions, is [gate-check.md](gate-check.md).\n\n")
	fmt.Fprintf(&b, "- command: `%s`\n", rep.Command)
	fmt.Fprintf(&b, "- %d synthetic A/A sessions, %d per planted slowdown; resampling: %s; seed %d\n", rep.Sessions, rep.Planted, rep.method(), rep.Seed)
	budget := "each session's recorded budget"
	if rep.BudgetNs > 0 {
		budget = "modelled budget " + time.Duration(rep.BudgetNs).String()
	}
	cells := "every recorded cell"
	if rep.Cells != "" {
		cells = "cells " + rep.Cells
	}
	fmt.Fprintf(&b, "- gate %+g%%, alpha %g over the session; %s; %s; slowed cell `%s`\n", 100*rep.Threshold, rep.Alpha, budget, cells, rep.Slow)
	fmt.Fprintf(&b, "- replayed on %s, %d jobs, load average %v, in %s", rep.Machine, rep.Jobs, rep.LoadAvg,
		time.Duration(rep.ElapsedNs).Round(time.Second))
	if rep.Errors > 0 {
		fmt.Fprintf(&b, "; %d synthetic session(s) gave no verdict and are left out", rep.Errors)
	}
	b.WriteString("\n\n## Rates\n\n")
	rateTable(&b, rep.Rates)
	b.WriteString(strings.TrimPrefix(rep.targets(), "\n"))
	b.WriteString("\n")
	b.WriteString("A/A rates by benchmark:\n\n")
	rateTable(&b, rep.CellRates)
	if len(rep.Variants) > 0 {
		b.WriteString("## Other budgets and cell sets, modelled\n\n")
		b.WriteString("The recorded sessions replayed as sessions with another budget or cell set would have been: the pairs per\n")
		b.WriteString("round set again from the kept cells' costs, as the engine balances them, the rounds' durations scaled by\n")
		b.WriteString("what is kept, the looks planned again and the budget look placed where the budget ends at the recorded\n")
		b.WriteString("pace; a session longer than recorded resamples its pairs beyond those recorded. Rates with their 95%\n")
		b.WriteString("Wilson intervals.\n\n")
		variantTable(&b, rep.Variants)
	}
	b.WriteString("## Method\n\n")
	b.WriteString(methodText)
	if len(rep.Resamplings) > 0 {
		fmt.Fprintf(&b, "\nThe same replay with the other resamplings (this report's: %s):\n\n", rep.method())
		variantTable(&b, rep.Resamplings)
	} else {
		b.WriteString("\n")
	}
	b.WriteString("Dependence between neighbouring pairs (correlation of pair log ratios within a recorded session), and the\n")
	b.WriteString("spread of the sessions' shifts in units of their own standard errors (about 1 when the sessions differ by\n")
	b.WriteString("their pairs' noise only; above 1, each session has a shift of its own, which centring removes: read the\n")
	b.WriteString("\"recorded shifts kept\" rows then):\n\n")
	b.WriteString("| benchmark | pairs | lag 1 | lag 2 | sessions | spread of shifts |\n|---|---:|---:|---:|---:|---:|\n")
	for _, d := range rep.Dependence {
		spread := "–" // too few sessions with enough pairs
		if d.Sessions >= 2 {
			spread = fmt.Sprintf("%.2f", d.Spread)
		}
		fmt.Fprintf(&b, "| %s | %d | %+.2f | %+.2f | %d | %s |\n", d.Label, d.Pairs, d.Lag1, d.Lag2, d.Sessions, spread)
	}
	b.WriteString("\n## Recorded sessions\n\n")
	b.WriteString("Rounds: at the budget look as replayed (* from the pace model); model: what the pace model gives for the\n")
	b.WriteString("recorded budget, the check of the model against the recording. Pairs: recorded → replayed (pairs per round).\n\n")
	b.WriteString("| file | started | load at start | budget | looks planned | rounds | model | pairs |\n|---|---|---|---:|---|---:|---|---|\n")
	for _, in := range rep.Inputs {
		star := ""
		if in.Estimated {
			star = "*"
		}
		var pairs []string
		for _, p := range in.Pairs {
			pairs = append(pairs, fmt.Sprintf("%s %d→%d (%d)", p.Label, p.Recorded, p.Replayed, p.Reps))
		}
		fmt.Fprintf(&b, "| %s | %s | %v | %s | %v | %d%s | %d rounds, looks %v | %s |\n", filepath.Base(in.File),
			in.StartedAt.UTC().Format(time.RFC3339), in.LoadAvg, time.Duration(in.BudgetNs), in.Plan, in.Rounds, star,
			in.ModelRounds, in.ModelPlan, strings.Join(pairs, ", "))
	}
	return b.String()
}

// methodText says how the synthetic sessions are made.
const methodText = `Each synthetic session takes a recorded session as its template (session k uses template k mod
the number of recorded sessions): its planned looks, the rounds up to its budget look and each benchmark's
pairs per round (2 + (rounds − 2)·reps pairs after a number of rounds, as the A/B engine balances them). For
every benchmark it draws that many recorded pairs (a base run and the head run made next to it, both kept
whole), numbers them as the engine does and, for a planted slowdown of x%, multiplies the workload wall time
of every head run of the slowed cell by 1 + x/100. Then it runs what ` + "`ab`" + ` runs: at each look,
` + "`analysis.Sequential.Decide`" + ` on both sides' files (built and summarised as the engine builds them), stopping at
the first look that decides every row; at the end ` + "`Verdict`" + ` on the session's file. The scenarios of one session
number draw the same pairs, so they differ by the planted slowdown only.

Resampling: "block" (the default) draws moving blocks of consecutive pairs from the template session's own
pairs; "pooled" draws single pairs from one benchmark's pairs pooled over all recorded sessions. Blocks keep
what independent draws lose: each session's own noise level (a session recorded while the machine was busy
stays busy in its synthetic copies) and the dependence between neighbouring pairs, which the signed-rank test
assumes away. Every draw keeps a pair's order (base first in odd pairs, head first in even ones) so that drift
within a pair cancels as in ` + "`ab`" + `. A session decided before its budget (recorded with the default gate) is extended
to the rounds its budget allows at its recorded pace; its pairs are resampled beyond those recorded.

Centring: within each recorded session, each benchmark's head runs are divided by 1 + the change the gate
estimates from its pairs (the Hodges-Lehmann estimate, ` + "`analysis.CompareFiles`" + ` paired), so that its pairs show
no change in the estimate the gate tests: the A/A null made exact, and a planted x% exactly x%. (Centring
on the median log ratio instead leaves a skewed session's pseudo-median off zero, and that shift, resampled,
is found more surely the longer the synthetic session.) The
"recorded shifts kept" rows skip it: each synthetic session then carries the shift its template measured,
noise included, as if it were true, so that rate errs high, the more so the fewer pairs the sessions have.
`
