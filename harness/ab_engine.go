package harness

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// The A/B engine: ExecuteAB and the rounds, looks and balance of its
// session (see "A/B sessions" in doc.go).

// AutoPlanRounds is how many measured rounds (one ABBA block) pace the
// automatic plan.
const AutoPlanRounds = 2

// ExecuteAB measures the benchmarks on both sides in ABBA order, asking the
// rule to decide at the planned looks, until it says done, the last look is
// made, the budget runs out or every benchmark failed (see "A/B sessions" in
// the package documentation; the error-rate argument is the rule's,
// analysis/sequential.go). It returns the
// session's file; each side's File has its statistics computed. Failed runs
// are recorded, not returned as errors. Invalid options return (nil, error)
// before anything runs. When ctx is cancelled the running worker is killed,
// its run dropped, and the file so far (sides marked Partial, Stopped
// "interrupted") is returned with ctx.Err().
func ExecuteAB(ctx context.Context, opt ABOptions) (*ABFile, error) {
	opt, err := opt.check()
	if err != nil {
		return nil, fmt.Errorf("A/B plan: %w", err)
	}
	logDir := (&Options{LogDir: opt.LogDir}).logDir()
	e := newABEngine(opt, func(ctx context.Context, side int, b *Benchmark, name string) (Run, bool) {
		s := opt.side(side)
		args := b.Args
		if s.Args != nil {
			args = s.Args(b)
		}
		return execWorker(ctx, workerCmd{exe: s.Executable, args: args, env: s.Env, timeout: opt.Timeout,
			log: logPath(logDir, name)})
	})
	for i := range e.tools {
		// A binary without build information (a wrapper script) is
		// measured all the same, with an unknown revision.
		e.tools[i], _ = ToolOf(opt.side(i).Executable, opt.CommandLine)
		e.tools[i].Modified = e.tools[i].Modified || opt.side(i).Modified
	}
	e.machine = CollectMachine()
	return e.run(ctx)
}

// abEngine plans and records the runs of an A/B session. It is used by one
// goroutine.
//
// Invariant (from engine): a benchmark is stopped on both sides or on
// neither (a failure stops both), so the sides of a running benchmark
// always have equal run counts after a round.
type abEngine struct {
	*engine
	opt     ABOptions
	tools   [2]Tool
	machine Machine
	looks   []ABLog
	// plan is the planned looks: the rule's fixed ones, or its automatic
	// plan once made (nil until then).
	plan []int
	// rounds counts the measured rounds.
	rounds int
	// lastAtBudget is set by the automatic plan: its last look is made
	// when the budget ends, not at the runs planned for it (a pace
	// estimate), so the whole budget is spent.
	lastAtBudget bool
	// reps[i] is how many pairs (a base and a head run, back to back)
	// benchmark i makes per round, pairs[i] how many it has made (see
	// balance); paceStart (the session's elapsed time then) and paceRounds
	// time the rounds since the last
	// change of reps, and estRound estimates a round until one is timed.
	reps, pairs []int
	paceStart   time.Duration
	paceRounds  int
	estRound    time.Duration
}

func newABEngine(opt ABOptions, exec sideExec) *abEngine {
	core := newCoreEngine([]string{opt.Base.Name, opt.Head.Name}, opt.Benchmarks, exec)
	core.warmup, core.ignoreFailure, core.notices = opt.Warmup, opt.IgnoreFailure, opt.Notices
	e := &abEngine{engine: core, opt: opt,
		reps: make([]int, len(opt.Benchmarks)), pairs: make([]int, len(opt.Benchmarks))}
	for i := range e.reps {
		e.reps[i] = 1
	}
	core.planned = e.plannedTotal
	core.pair = func(i int) int { return e.pairs[i] }
	e.plan = slices.Clone(opt.Rule.PlannedLooks())
	return e
}

func (e *abEngine) run(ctx context.Context) (*ABFile, error) {
	e.started = e.now()
	if e.opt.Progress != nil {
		e.bar = newProgress(e.opt.Progress, e.plannedTotal())
	}
	stopped, interrupted := e.sample(ctx)
	e.bar.finish()
	f := e.snapshot(interrupted)
	f.Stopped = stopped
	f.FinishedAt = e.now()
	if interrupted {
		return f, ctx.Err()
	}
	return f, nil
}

// sample makes the warm-ups, then rounds and looks until the session stops;
// it returns why, and whether ctx was cancelled.
func (e *abEngine) sample(ctx context.Context) (stopped string, interrupted bool) {
	for w := 0; w < e.opt.Warmup; w++ {
		for i := range e.opt.Benchmarks {
			for _, side := range abbaOrder(w) {
				if e.states[side][i].stopped {
					continue
				}
				if e.runOne(ctx, side, i, true) {
					return StopInterrupted, true
				}
			}
		}
	}
	next := 0     // index in Looks of the next planned look
	lastRuns := 0 // runs per side at the last look made
	for {
		if e.running() == 0 {
			return StopFailed, false
		}
		runs := e.runsPerSide()
		// Once, after the first block (balance resets paceRounds).
		if e.rounds == AutoPlanRounds && e.paceRounds == e.rounds {
			e.balance()
		}
		if e.plan == nil && e.rounds >= AutoPlanRounds {
			// The plan depends on the rounds' pace only, never on what
			// they measured.
			perRound, _ := e.perRound()
			left := e.opt.MaxTime - e.elapsed()
			reach := runs + int(max(0, left)/max(perRound, 1))
			e.plan = e.opt.Rule.PlanLooks(reach)
			if err := checkLooks(e.plan); err != nil || len(e.plan) > e.opt.Rule.MaxLooks() {
				panic(fmt.Sprintf("harness: the sequential rule planned looks %v (at most %d): %v", e.plan, e.opt.Rule.MaxLooks(), err))
			}
			e.lastAtBudget = true
		}
		// With the automatic plan, the budget's look takes the place of
		// the last planned one.
		planned := len(e.plan)
		if e.lastAtBudget {
			planned--
		}
		if next < planned && runs >= e.plan[next] {
			final := next == len(e.plan)-1
			done := e.look(Look{Number: next + 1, Of: e.lookCount(), Runs: runs, Final: final})
			next++
			lastRuns = runs
			switch {
			case done:
				return StopDecided, false
			case final:
				return StopLastLook, false
			}
			continue
		}
		if perRound, ok := e.perRound(); ok && e.opt.MaxTime > 0 {
			if e.elapsed()+perRound > e.opt.MaxTime {
				if runs > lastRuns {
					e.look(Look{Number: next + 1, Of: e.lookCount(), Runs: runs, Final: true, Budget: true})
				}
				return StopBudget, false
			}
		}
		if e.awaitLoad(ctx, e.opt.WaitForLoad, e.rounds+1) {
			return StopInterrupted, true
		}
		if e.rounds == 0 {
			e.paceStart = e.elapsed()
		}
		for i := range e.opt.Benchmarks {
			if e.states[sideBase][i].stopped {
				continue // stopped on both sides (see states)
			}
			for range e.reps[i] {
				// ABBA per benchmark: its pairs alternate which side
				// goes first.
				e.pairs[i]++
				for _, side := range abbaOrder(e.pairs[i] - 1) {
					if e.states[side][i].stopped {
						continue
					}
					if e.runOne(ctx, side, i, false) {
						return StopInterrupted, true
					}
				}
			}
		}
		e.rounds++
		e.paceRounds++
	}
}

// MaxPairsPerRound bounds the pairs a fast benchmark makes per round.
const MaxPairsPerRound = 16

// PairsPerRound is the pairs a benchmark whose mean run takes mean makes
// per round when the slowest benchmark's takes slowest: round(slowest /
// mean), between 1 and MaxPairsPerRound. balance applies it; a model of a
// session (cmd/gatecheck's replay) calls it too.
func PairsPerRound(slowest, mean float64) int {
	return min(MaxPairsPerRound, max(1, int(math.Round(slowest/mean))))
}

// balance gives each benchmark about the same share of the remaining time,
// from the first rounds' pace alone (each benchmark's mean process wall
// time per run over both sides, never the difference between the sides):
// benchmark i makes reps[i] = round(slowest mean / its mean) pairs per
// round, between 1 and MaxPairsPerRound. Without it every benchmark makes one pair
// per round and the slowest takes most of the budget (cgo-handle's runs
// last ten times ocaml's). The looks still count the runs of the slowest
// benchmark (runsPerSide); faster ones have more pairs at each look.
func (e *abEngine) balance() {
	means := make([]float64, len(e.reps))
	slowest := 0.0
	for i := range e.reps {
		b, h := e.states[sideBase][i], e.states[sideHead][i]
		if b.stopped || b.measured+h.measured == 0 {
			continue
		}
		means[i] = float64(b.wallSum+h.wallSum) / float64(b.measured+h.measured)
		slowest = max(slowest, means[i])
	}
	perRound, ok := e.perRound()
	if !ok || slowest <= 0 {
		return
	}
	before, after := 0.0, 0.0
	for i, m := range means {
		if m <= 0 {
			continue
		}
		e.reps[i] = PairsPerRound(slowest, m)
		before += m
		after += float64(e.reps[i]) * m
	}
	// Rounds now take longer: time them afresh, estimating the first.
	e.estRound = time.Duration(float64(perRound) * after / before)
	e.paceStart, e.paceRounds = e.elapsed(), 0
}

// lookCount is the most looks the session can make: the planned ones, or
// the rule's MaxLooks before the automatic plan is made.
func (e *abEngine) lookCount() int {
	if len(e.plan) > 0 {
		return len(e.plan)
	}
	return e.opt.Rule.MaxLooks()
}

// perRound is the mean duration of the rounds since the last balance (its
// estimate until one is timed); ok is false before the first round.
func (e *abEngine) perRound() (d time.Duration, ok bool) {
	switch {
	case e.paceRounds > 0:
		return (e.elapsed() - e.paceStart) / time.Duration(e.paceRounds), true
	case e.estRound > 0:
		return e.estRound, true
	}
	return 0, false
}

// abbaOrder is the order of the sides in round r: base first in even
// rounds, head first in odd ones.
func abbaOrder(r int) [2]int {
	if r%2 == 0 {
		return [2]int{sideBase, sideHead}
	}
	return [2]int{sideHead, sideBase}
}

// running counts the benchmarks not stopped.
func (e *abEngine) running() int {
	n := 0
	for _, s := range e.states[sideBase] {
		if !s.stopped {
			n++
		}
	}
	return n
}

// runsPerSide is the fewest measured runs of a running benchmark on either
// side.
func (e *abEngine) runsPerSide() int {
	n := -1
	for side := range e.states {
		for _, s := range e.states[side] {
			if !s.stopped && (n < 0 || s.measured < n) {
				n = s.measured
			}
		}
	}
	return max(n, 0)
}

// look asks the rule and records its answer.
func (e *abEngine) look(l Look) bool {
	f := e.snapshot(true)
	done, note := e.opt.Rule.Decide(f.Base, f.Head, l)
	e.looks = append(e.looks, ABLog{Look: l, ElapsedNs: e.elapsed().Nanoseconds(), Done: done, Note: note})
	if e.opt.OnLook != nil {
		snap := e.snapshot(true)
		snap.Stopped = StopRunning
		e.opt.OnLook(snap)
	}
	if note != "" && e.opt.Notices != nil {
		e.bar.clear()
		fmt.Fprintln(e.opt.Notices, note)
		e.bar.redraw()
	}
	return done
}

// plannedTotal is the number of runs (warm-ups included) the session makes
// if it goes to its last planned look or, when the budget ends it sooner by
// the rounds' pace so far, to the budget (a look's size counts rounds: the
// runs per side of the slowest benchmark, which makes one pair per round);
// doneTotal the number made.
func (e *abEngine) plannedTotal() int {
	n := 0
	last := AutoPlanRounds // until the automatic plan is made
	if len(e.plan) > 0 {
		last = e.plan[len(e.plan)-1]
	}
	if perRound, ok := e.perRound(); ok && e.opt.MaxTime > 0 && perRound > 0 {
		left := e.opt.MaxTime - e.elapsed()
		byBudget := e.rounds + max(0, int(left/perRound))
		if e.lastAtBudget {
			last = byBudget
		} else {
			last = min(last, byBudget)
		}
	}
	for side := range e.states {
		for i, s := range e.states[side] {
			if s.stopped {
				n += s.warm + s.measured
			} else {
				n += e.opt.Warmup + s.measured + max(0, last-e.rounds)*e.reps[i]
			}
		}
	}
	return n
}

// snapshot builds the session's file from everything recorded so far. The
// sides share nothing mutable with the engine.
func (e *abEngine) snapshot(partial bool) *ABFile {
	f := &ABFile{
		Schema:       ABSchema,
		BaseEnv:      slices.Clone(e.opt.Base.Env),
		HeadEnv:      slices.Clone(e.opt.Head.Env),
		PlannedLooks: slices.Clone(e.plan),
		MaxTimeNs:    e.opt.MaxTime.Nanoseconds(),
		Looks:        slices.Clone(e.looks),
		StartedAt:    e.started,
	}
	if f.Looks == nil {
		f.Looks = []ABLog{}
	}
	f.Base = e.sideFile(sideBase, partial)
	f.Head = e.sideFile(sideHead, partial)
	f.HighStealPairs = f.highStealPairs()
	if w := e.opt.WaitForLoad; w != nil {
		f.WaitForLoad, f.LoadWaits = w.Below, slices.Clone(e.loadWaits)
	}
	return f
}

// sideFile builds one side's results file, statistics computed.
func (e *abEngine) sideFile(side int, partial bool) *File {
	o := &e.opt
	return e.engine.sideFile(side, fileHeader{tool: e.tools[side], machine: e.machine, workload: o.Workload, unit: o.Unit,
		params: o.Params, order: "abba", warmup: o.Warmup, partial: partial, finishes: !partial})
}
