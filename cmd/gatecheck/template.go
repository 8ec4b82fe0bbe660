package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"gonum.org/v1/gonum/stat"
)

// A recorded session as the replay uses it: the structure of the looks and
// rounds that `ab` (harness.ExecuteAB with analysis.Sequential, automatic
// looks) gave it, and every pair of runs it measured.
//
// What the A/B engine does, and the template keeps (harness/ab_engine.go):
//   - Rounds 1 and 2 make one pair of every benchmark; then balance() fixes
//     reps[i] pairs per round for benchmark i (the slowest makes 1), so after
//     R rounds benchmark i has 2 + (R−2)·reps[i] pairs (R ≤ 2: R pairs).
//   - A look is made when the rounds reach a planned size (runs per side of
//     the slowest benchmark, which is the number of rounds); with automatic
//     looks the last planned look is replaced by the budget look, made after
//     the last round the budget allows. Every look is tested as one of
//     len(PlannedLooks).
//   - Sampling stops at the first look that decides every row.
//
// template is one recorded session.
type template struct {
	name string
	// base and head are the sides' files without results: the header
	// (tool, machine, workload, parameters) every snapshot copies.
	base, head *harness.File
	maxTime    time.Duration
	// plan is the planned looks; rounds the rounds made up to the budget
	// look, recorded, or estimated (model) for a session decided before.
	plan    []int
	rounds  int
	benches []benchSource
	// pace is the timing of the rounds, for modelling other budgets.
	pace pace
	// estimated is true when rounds comes from the pace (the recorded
	// session stopped at a decision before its budget).
	estimated bool
}

// benchSource is one benchmark of a recorded session: its pairs, in Pair
// order, both runs successful.
type benchSource struct {
	cell, label string
	params      map[string]string
	reps        int
	pairs       []runPair
	// blockNs is the mean process wall time of a run in the first block
	// (pairs 1 and 2), what balance() sets reps from; pairNs the mean
	// process wall time of a pair (both runs) over the session.
	blockNs, pairNs float64
}

// runPair is one recorded pair: a base run and the head run made next to
// it. shift is the change its benchmark's pairs show in its session, as a
// log ratio (head over base): the Hodges-Lehmann estimate the gate
// computes (analysis.CompareFiles, paired), which centring removes.
type runPair struct {
	base, head harness.Run
	shift      float64
}

// pairsAt is the number of pairs benchmark b has after rounds rounds.
func (b *benchSource) pairsAt(rounds int) int {
	if rounds <= autoPlanRounds {
		return rounds
	}
	return autoPlanRounds + (rounds-autoPlanRounds)*b.reps
}

// loadTemplate reads a recorded session and checks that it is one the
// replay can reproduce: automatic looks, a budget, ended by the budget or a
// decision, the same benchmarks on both sides.
func loadTemplate(path string) (*template, error) {
	f, err := harness.LoadAB(path)
	if err != nil {
		return nil, err
	}
	t, err := newTemplate(path, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func newTemplate(name string, f *harness.ABFile) (*template, error) {
	switch {
	case f.MaxTimeNs <= 0:
		return nil, fmt.Errorf("no time budget: the replay reproduces automatic looks, planned from the budget")
	case f.Stopped != harness.StopBudget && f.Stopped != harness.StopDecided:
		return nil, fmt.Errorf("stopped %q: accepted are sessions that ended at a decision or at the budget", f.Stopped)
	case len(f.PlannedLooks) == 0:
		return nil, fmt.Errorf("no planned looks")
	case fixedLooks(f.Head.Tool.CommandLine):
		return nil, fmt.Errorf("recorded with fixed --looks: the replay reproduces automatic looks only")
	case len(f.Base.Results) != len(f.Head.Results) || len(f.Base.Results) == 0:
		return nil, fmt.Errorf("base has %d benchmarks, head %d: need the same, at least one", len(f.Base.Results), len(f.Head.Results))
	}
	t := &template{name: name, maxTime: time.Duration(f.MaxTimeNs), plan: slices.Clone(f.PlannedLooks)}
	t.base, t.head = header(f.Base), header(f.Head)
	rounds := -1
	for i := range f.Base.Results {
		b, h := &f.Base.Results[i], &f.Head.Results[i]
		if b.Label != h.Label {
			return nil, fmt.Errorf("benchmark %d is %q in base, %q in head", i+1, b.Label, h.Label)
		}
		src, made, err := sourceOf(b, h)
		if err != nil {
			return nil, err
		}
		t.benches = append(t.benches, src)
		if rounds < 0 || made < rounds {
			rounds = made // the slowest benchmark makes one pair per round
		}
	}
	for i := range t.benches {
		b := &t.benches[i]
		pairs := maxPair(&f.Base.Results[i])
		b.reps = 1
		if rounds > autoPlanRounds {
			extra := pairs - autoPlanRounds
			if extra%(rounds-autoPlanRounds) != 0 {
				return nil, fmt.Errorf("%s: %d pairs in %d rounds is not 2 + (rounds−2)·reps: not the A/B engine's rounds", b.label, pairs, rounds)
			}
			b.reps = extra / (rounds - autoPlanRounds)
		}
	}
	if err := t.setShifts(f); err != nil {
		return nil, err
	}
	p, err := paceOf(f, rounds)
	if err != nil {
		return nil, err
	}
	p.estRound = estimateRound(p.block, t.benches)
	t.pace = p
	t.rounds = rounds
	if f.Stopped == harness.StopDecided {
		// Decided before the budget: the rounds the budget would have
		// allowed at the recorded pace.
		t.rounds = max(rounds, p.roundsWithin(t.maxTime))
		t.estimated = true
	}
	return t, nil
}

// setShifts sets every pair's shift: the change the gate's estimator sees
// in the recorded session's pairs of its benchmark. Centring on it leaves
// the recorded pairs with a Hodges-Lehmann estimate of exactly 0 (the
// estimate moves with a shift of the log ratios), so that the pairs a
// synthetic session draws show no change in the estimate the gate tests,
// whatever the skew of their distribution.
func (t *template) setShifts(f *harness.ABFile) error {
	c, err := analysis.CompareFiles(f.Base, f.Head, analysis.Options{Paired: true, Metrics: []analysis.Metric{analysis.Wall}})
	if err != nil {
		return fmt.Errorf("the recorded pairs' change: %w", err)
	}
	for i := range t.benches {
		b := &t.benches[i]
		shift := math.NaN()
		for _, r := range c.Rows {
			if r.Label == b.label {
				shift = math.Log1p(r.Delta)
			}
		}
		if math.IsNaN(shift) || math.IsInf(shift, 0) {
			return fmt.Errorf("%s: the recorded pairs give no estimate of the change", b.label)
		}
		for j := range b.pairs {
			b.pairs[j].shift = shift
		}
	}
	return nil
}

// fixedLooks reports whether a command line gave --looks other than auto.
func fixedLooks(args []string) bool {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--looks=")
		if a == "--looks" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok && strings.TrimSpace(v) != "auto" {
			return true
		}
	}
	return false
}

// header copies a side's file without its results.
func header(f *harness.File) *harness.File {
	h := *f
	h.Results = nil
	h.Warnings = slices.Clone(f.Warnings)
	return &h
}

// maxPair is the highest Pair number of a result's runs.
func maxPair(r *harness.Result) int {
	n := 0
	for _, run := range r.Runs {
		n = max(n, run.Pair)
	}
	return n
}

// sourceOf collects one benchmark's pairs with both runs successful, in
// Pair order, and the number of pairs it made.
func sourceOf(b, h *harness.Result) (benchSource, int, error) {
	src := benchSource{cell: h.Cell, label: h.Label, params: h.Params}
	heads := map[int]harness.Run{}
	for _, run := range h.Runs {
		if run.Pair > 0 {
			heads[run.Pair] = run
		}
	}
	made := 0
	// The process wall times of the pairs' runs, summed per pair, and of
	// the first block's runs: whole nanoseconds, so their means are exact
	// whatever the order of summation.
	var pairWall, blockWall []float64
	for _, r := range []*harness.Result{b, h} {
		for _, run := range r.Runs {
			if run.Pair > 0 && run.Pair <= autoPlanRounds {
				blockWall = append(blockWall, float64(run.ProcessWallNs))
			}
		}
	}
	for _, run := range b.Runs {
		if run.Pair <= 0 {
			continue // a warm-up
		}
		made = max(made, run.Pair)
		hr, ok := heads[run.Pair]
		if !ok || run.Failed || hr.Failed {
			continue
		}
		src.pairs = append(src.pairs, runPair{base: run, head: hr})
		pairWall = append(pairWall, float64(run.ProcessWallNs+hr.ProcessWallNs))
	}
	slices.SortFunc(src.pairs, func(x, y runPair) int { return x.base.Pair - y.base.Pair })
	if len(src.pairs) == 0 {
		return src, 0, fmt.Errorf("%s: no pair of successful runs", b.Label)
	}
	src.pairNs = stat.Mean(pairWall, nil)
	if len(blockWall) > 0 {
		src.blockNs = stat.Mean(blockWall, nil)
	}
	return src, made, nil
}

// looks are the looks the session makes when none decides: the planned
// looks the rounds reach, but the last (automatic looks: the budget's look
// takes its place), then the budget look after the last round, unless a
// planned look was made there.
func (t *template) looks() []harness.Look {
	of := len(t.plan)
	var out []harness.Look
	last := 0
	for _, n := range t.plan[:of-1] {
		if n > t.rounds {
			break
		}
		out = append(out, harness.Look{Number: len(out) + 1, Of: of, Runs: n})
		last = n
	}
	if t.rounds > last {
		out = append(out, harness.Look{Number: len(out) + 1, Of: of, Runs: t.rounds, Final: true, Budget: true})
	}
	return out
}

// logRatios are the pairs' log ratios, head run over base run (workload
// wall time).
func logRatios(ps []runPair) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = math.Log(float64(p.head.WallNs) / float64(p.base.WallNs))
	}
	return out
}
