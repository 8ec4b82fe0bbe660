package main

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// fakeSession is an A/A session as the A/B engine records it: rounds
// rounds, benchmark i making one pair in each of the first two rounds and
// reps[i] after; run times noise-distributed around cost[i] seconds;
// stopped at the budget look.
func fakeSession(t *testing.T, rounds int, cells []string, reps []int, cost []float64, noise float64) *harness.ABFile {
	t.Helper()
	return fakeSessionSeeded(t, 3, rounds, cells, reps, cost, noise)
}

// fakeSessionSeeded is fakeSession with the noise drawn from seed.
func fakeSessionSeeded(t *testing.T, seed uint64, rounds int, cells []string, reps []int, cost []float64, noise float64) *harness.ABFile {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 4))
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f := &harness.ABFile{Schema: harness.ABSchema, MaxTimeNs: int64(3 * time.Minute), Stopped: harness.StopBudget,
		StartedAt: start, PlannedLooks: []int{6, 12, 24}}
	sides := [2]*harness.File{{Schema: harness.Schema, Workload: "msgpass", Unit: "cell"}, {Schema: harness.Schema, Workload: "msgpass", Unit: "cell"}}
	for _, c := range cells {
		for _, s := range sides {
			s.Results = append(s.Results, harness.Result{Cell: c, Label: c, Params: map[string]string{}})
		}
	}
	clock, index := time.Duration(0), 0
	pairs := make([]int, len(cells))
	for r := range rounds {
		for i := range cells {
			n := 1
			if r >= autoPlanRounds {
				n = reps[i]
			}
			for range n {
				pairs[i]++
				order := [2]int{0, 1}
				if pairs[i]%2 == 0 {
					order = [2]int{1, 0}
				}
				for _, side := range order {
					wall := time.Duration(cost[i] * (1 + noise*rng.NormFloat64()) * 1e9)
					sides[side].Results[i].Runs = append(sides[side].Results[i].Runs, harness.Run{
						Index: index, StartedAt: start.Add(clock), WallNs: int64(wall), Cells: 1000,
						ProcessWallNs: int64(wall) + 1e6, Pair: pairs[i]})
					index++
					clock += wall + time.Millisecond
				}
			}
		}
	}
	f.Looks = []harness.ABLog{
		{Look: harness.Look{Number: 1, Of: 3, Runs: 6}, ElapsedNs: 1},
		{Look: harness.Look{Number: 2, Of: 3, Runs: rounds, Final: true, Budget: true}, ElapsedNs: clock.Nanoseconds()},
	}
	f.Base, f.Head = sides[0], sides[1]
	harness.Summarize(f.Base)
	harness.Summarize(f.Head)
	return f
}

func TestTemplateOfARecordedSession(t *testing.T) {
	t.Parallel()
	f := fakeSession(t, 10, []string{"ocaml", "boxroot", "cgo-handle"}, []int{8, 4, 1}, []float64{0.01, 0.02, 0.08}, 0.02)
	tp, err := newTemplate("fake", f, []metric{wallMetric})
	if err != nil {
		t.Fatal(err)
	}
	if tp.rounds != 10 || tp.estimated {
		t.Errorf("rounds %d (estimated %v), want the recorded 10", tp.rounds, tp.estimated)
	}
	for i, want := range []int{8, 4, 1} {
		b := tp.benches[i]
		if b.reps != want || b.pairsAt(10) != len(b.pairs) || b.pairsAt(2) != 2 || b.pairsAt(1) != 1 {
			t.Errorf("%s: reps %d, pairs at 10 rounds %d (recorded %d), want reps %d", b.label, b.reps, b.pairsAt(10), len(b.pairs), want)
		}
	}
	looks := tp.looks()
	want := []harness.Look{{Number: 1, Of: 3, Runs: 6}, {Number: 2, Of: 3, Runs: 10, Final: true, Budget: true}}
	if len(looks) != len(want) || looks[0] != want[0] || looks[1] != want[1] {
		t.Errorf("looks %+v, want %+v", looks, want)
	}
	// A session whose counts are not the engine's rounds is refused.
	f.Base.Results[0].Runs = f.Base.Results[0].Runs[:len(f.Base.Results[0].Runs)-1]
	if _, err := newTemplate("fake", f, []metric{wallMetric}); err == nil {
		t.Error("a session with a pair missing was accepted")
	}
	f.Stopped = harness.StopInterrupted
	if _, err := newTemplate("fake", f, []metric{wallMetric}); err == nil {
		t.Error("an interrupted session was accepted")
	}
}

// Modelling another budget or cell set: the pace model gives back the
// recorded rounds, twice the budget about twice the rounds, and dropping
// the slowest cell rebalances the others (the slowest kept makes one pair
// per round) and speeds the rounds up.
func TestScaledTemplate(t *testing.T) {
	t.Parallel()
	f := fakeSession(t, 12, []string{"ocaml", "boxroot", "cgo-handle"}, []int{8, 4, 1}, []float64{0.01, 0.02, 0.08}, 0.02)
	f.MaxTimeNs = f.Looks[len(f.Looks)-1].ElapsedNs + int64(time.Millisecond)
	tp, err := newTemplate("fake", f, []metric{wallMetric})
	if err != nil {
		t.Fatal(err)
	}
	rule := (&replayer{alpha: 0.05, threshold: 0.05}).rule()
	if got := tp.pace.roundsWithin(tp.maxTime); got < 11 || got > 13 {
		t.Errorf("the pace model gives %d rounds for the recorded budget, recorded 12", got)
	}
	if same, err := tp.scaled(tp.maxTime, nil, rule); err != nil || same != tp {
		t.Errorf("the recorded budget and every cell: %v, %v, want the template itself", same, err)
	}
	long, err := tp.scaled(2*tp.maxTime, nil, rule)
	if err != nil {
		t.Fatal(err)
	}
	if long.rounds < 2*12-4 || long.rounds > 2*12+2 || !long.estimated {
		t.Errorf("twice the budget: %d rounds, want about %d", long.rounds, 2*12-2)
	}
	if n := len(long.plan); n == 0 || n > analysis.DefaultAutoLooks || long.plan[n-1]%2 != 0 {
		t.Errorf("twice the budget: looks planned %v", long.plan)
	}
	fast, err := tp.scaled(0, map[string]bool{"ocaml": true, "boxroot": true}, rule)
	if err != nil {
		t.Fatal(err)
	}
	if len(fast.benches) != 2 || fast.benches[0].reps != 2 || fast.benches[1].reps != 1 {
		t.Errorf("ocaml and boxroot kept: %+v, want reps 2 and 1", fast.benches)
	}
	if fast.rounds <= 2*tp.rounds {
		t.Errorf("without the slowest cell: %d rounds in the budget, recorded %d with it", fast.rounds, tp.rounds)
	}
	if _, err := tp.scaled(0, map[string]bool{"nosuch": true}, rule); err == nil {
		t.Error("a cell set with none of the session's cells was accepted")
	}
}
