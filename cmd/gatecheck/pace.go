package main

// The pace of a recorded session, and the session another budget or cell
// set would have made at that pace (template.scaled).

import (
	"fmt"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// pace times a session's rounds: the first block (rounds 1 and 2, one pair
// of each benchmark) took block, and each later round perRound; first is
// when the first round started, since the session's start. estRound is
// the engine's estimate of a balanced round, made after the first block
// (balance: the block's round scaled by the pairs each benchmark makes
// per round from then on), from which it plans the looks.
type pace struct {
	first, block, perRound, estRound time.Duration
}

// autoPlanRounds is the rounds of the first ABBA block, after which the
// engine balances the benchmarks and plans the looks.
const autoPlanRounds = harness.AutoPlanRounds

// paceOf times the rounds of a recorded session from its runs' start times
// and its last look.
func paceOf(f *harness.ABFile, rounds int) (pace, error) {
	since := func(t time.Time) time.Duration { return t.Sub(f.StartedAt) }
	var p pace
	firstSet, blockSet := false, false
	var blockEnd time.Duration
	for _, side := range []*harness.File{f.Base, f.Head} {
		for _, r := range side.Results {
			for _, run := range r.Runs {
				switch {
				case run.Pair == 1 && (!firstSet || since(run.StartedAt) < p.first):
					p.first, firstSet = since(run.StartedAt), true
				case run.Pair == autoPlanRounds+1 && (!blockSet || since(run.StartedAt) < blockEnd):
					blockEnd, blockSet = since(run.StartedAt), true
				}
			}
		}
	}
	if !firstSet {
		return p, fmt.Errorf("no measured pair")
	}
	var end time.Duration
	if n := len(f.Looks); n > 0 {
		end = time.Duration(f.Looks[n-1].ElapsedNs)
	} else {
		end = f.FinishedAt.Sub(f.StartedAt)
	}
	if !blockSet || rounds <= autoPlanRounds {
		// The budget ended within the first block.
		p.block = end - p.first
		p.perRound = p.block / autoPlanRounds
		return p, nil
	}
	p.block = blockEnd - p.first
	p.perRound = (end - blockEnd) / time.Duration(rounds-autoPlanRounds)
	if p.perRound <= 0 || p.block <= 0 {
		return p, fmt.Errorf("the runs' start times do not follow the rounds")
	}
	return p, nil
}

// roundsWithin is the rounds a session with this pace makes in budget
// (the engine's test: another round is made while the time so far plus
// one round's duration fits the budget), at least the first block.
func (p pace) roundsWithin(budget time.Duration) int {
	left := budget - p.first - p.block
	if left < p.perRound || p.perRound <= 0 {
		return autoPlanRounds
	}
	return autoPlanRounds + int(left/p.perRound)
}

// reach is the runs per side the engine's plan expects after the first
// block: its estimate of a balanced round carried to the budget.
func (p pace) reach(budget time.Duration) int {
	left := budget - p.first - p.block
	return autoPlanRounds + int(max(0, left)/max(p.estRound, 1))
}

// estimateRound is balance()'s estimate of a round once the benchmarks make
// their reps: the first block's round times the share of the block's cost
// per run that the reps multiply.
func estimateRound(block time.Duration, benches []benchSource) time.Duration {
	before, after := 0.0, 0.0
	for _, b := range benches {
		before += b.blockNs
		after += float64(b.reps) * b.blockNs
	}
	if before <= 0 {
		return block / autoPlanRounds
	}
	return time.Duration(float64(block) / autoPlanRounds * after / before)
}

// scaled is the template as a session with a different budget (0 keeps
// the recorded one) and only the benchmarks whose cells are in keep (nil
// keeps all) would have been: the reps set again from the kept benchmarks'
// first-block costs (as balance does), the block's and the rounds'
// durations scaled by the cost of what is kept (each run's wall time and
// the recorded overhead per run), the looks planned again
// (rule.PlanLooks) from the engine's estimate of a round, and the budget
// look placed where the budget ends at the recorded pace. With neither
// change it is the template itself: the recorded plan and rounds.
func (t *template) scaled(budget time.Duration, keep map[string]bool, rule *analysis.Sequential) (*template, error) {
	if (budget == 0 || budget == t.maxTime) && keep == nil {
		return t, nil
	}
	s := *t
	if budget != 0 {
		s.maxTime = budget
	}
	// A run costs its process wall time and an overhead beyond it
	// (starting the worker, recording the run): the recorded rounds'
	// duration beyond their runs' wall time, spread over their runs.
	var runs, wall float64
	for _, b := range t.benches {
		runs += 2 * float64(b.reps)
		wall += float64(b.reps) * b.pairNs
	}
	over := max(0, (float64(t.pace.perRound)-wall)/runs)
	s.benches = nil
	var allBlock, keptBlock, allRound, keptRound, slowest float64
	for _, b := range t.benches {
		allBlock += 2 * (b.blockNs + over)
		allRound += float64(b.reps) * (b.pairNs + 2*over)
		if keep == nil || keep[b.cell] {
			s.benches = append(s.benches, b)
			keptBlock += 2 * (b.blockNs + over)
			slowest = max(slowest, b.blockNs)
		}
	}
	if len(s.benches) == 0 {
		return nil, fmt.Errorf("none of the cells kept is in the session")
	}
	for i := range s.benches {
		b := &s.benches[i]
		if slowest > 0 && b.blockNs > 0 {
			b.reps = harness.PairsPerRound(slowest, b.blockNs)
		}
		keptRound += float64(b.reps) * (b.pairNs + 2*over)
	}
	if allBlock > 0 {
		s.pace.block = time.Duration(float64(t.pace.block) * keptBlock / allBlock)
	}
	if allRound > 0 {
		s.pace.perRound = time.Duration(float64(t.pace.perRound) * keptRound / allRound)
	}
	s.pace.estRound = estimateRound(s.pace.block, s.benches)
	s.plan = rule.PlanLooks(s.pace.reach(s.maxTime))
	s.rounds = s.pace.roundsWithin(s.maxTime)
	s.estimated = true
	return &s, nil
}
