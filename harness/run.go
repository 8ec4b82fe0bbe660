package harness

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
)

// Execute measures the benchmarks: one worker process per run
// (Options.Executable with the benchmark's Args), in interleaved or grouped
// order, with the run count chosen by the options. It returns the results
// file with every run recorded and the statistics computed. (It would be
// called Run, but Run is the type of one run in the results file.)
//
// Failed runs do not make Execute fail: they are recorded in their
// benchmark's Result (File.FailedRuns counts them) and the caller decides
// what they mean. Invalid options return (nil, error) before anything runs.
// When ctx is cancelled, the running worker is killed (its run is dropped)
// and Execute returns the file measured so far, marked Partial, with
// ctx.Err().
//
// Runs are made one at a time; the callbacks are called from Execute's
// goroutine.
func Execute(ctx context.Context, opt Options) (*File, error) {
	opt, ref, err := opt.check()
	if err != nil {
		return nil, fmt.Errorf("benchmark plan: %w", err)
	}
	logDir := opt.logDir()
	e := newRunEngine(opt, ref, func(ctx context.Context, b *Benchmark, name string) (Run, bool) {
		return execWorker(ctx, workerCmd{exe: opt.Executable, args: b.Args, env: opt.Env, timeout: opt.Timeout,
			show: opt.ShowOutput, log: logPath(logDir, name)})
	})
	e.tool = CollectTool(opt.CommandLine)
	e.machine = CollectMachine()
	return e.run(ctx)
}

// execFunc makes one run of a benchmark of `run`'s one side; name names
// the run for its log ("boxroot-run3"); interrupted reports that ctx was
// cancelled during the run, which then means nothing.
type execFunc func(ctx context.Context, b *Benchmark, name string) (run Run, interrupted bool)

// runEngine is `run`'s scheduler on the one engine (engine.go): one side,
// run counts planned from MinTime, interleaved or grouped order.
type runEngine struct {
	*engine
	opt     Options
	ref     string // resolved reference label, "" for the fastest
	tool    Tool
	machine Machine
}

func newRunEngine(opt Options, ref string, exec execFunc) *runEngine {
	core := newCoreEngine([]string{"run"}, opt.Benchmarks, func(ctx context.Context, _ int, b *Benchmark, name string) (Run, bool) {
		return exec(ctx, b, name)
	})
	core.warmup, core.ignoreFailure, core.notices = opt.Warmup, opt.IgnoreFailure, opt.Notices
	e := &runEngine{engine: core, opt: opt, ref: ref}
	core.planned = e.plannedTotal
	for _, s := range e.bench() {
		s.target = e.estimate(s)
	}
	return e
}

// bench is the one side's benchmark states.
func (e *runEngine) bench() []*benchState { return e.states[0] }

func (e *runEngine) run(ctx context.Context) (*File, error) {
	if e.opt.Progress != nil {
		e.bar = newProgress(e.opt.Progress, e.plannedTotal())
	}
	var interrupted bool
	if e.opt.Order == Grouped {
		interrupted = e.runGrouped(ctx)
	} else {
		interrupted = e.runInterleaved(ctx)
	}
	if interrupted {
		return e.finish(true), ctx.Err()
	}
	return e.finish(false), nil
}

// runInterleaved makes the runs round-robin: first the warm-up rounds, then
// measured rounds of one run per unfinished benchmark, re-estimating every
// benchmark's run count after each round. It reports an interruption.
func (e *runEngine) runInterleaved(ctx context.Context) bool {
	for w := 0; w < e.opt.Warmup; w++ {
		for i, s := range e.bench() {
			if s.stopped {
				continue
			}
			if e.runOne(ctx, 0, i, true) {
				return true
			}
		}
	}
	for round := 1; ; round++ {
		ran := false
		for i, s := range e.bench() {
			if s.done() {
				continue
			}
			if !ran && e.awaitLoad(ctx, e.opt.WaitForLoad, round) {
				return true
			}
			ran = true
			if e.runOne(ctx, 0, i, false) {
				return true
			}
		}
		if !ran {
			return false
		}
		for _, s := range e.bench() {
			s.target = e.estimate(s)
		}
		e.round()
	}
}

// runGrouped makes all runs of one benchmark, then the next; a "round" is one
// run. It reports an interruption.
func (e *runEngine) runGrouped(ctx context.Context) bool {
	round := 0
	for i, s := range e.bench() {
		for s.warm < e.opt.Warmup && !s.stopped {
			if e.runOne(ctx, 0, i, true) {
				return true
			}
		}
		for !s.done() {
			round++
			if e.awaitLoad(ctx, e.opt.WaitForLoad, round) || e.runOne(ctx, 0, i, false) {
				return true
			}
			s.target = e.estimate(s)
			e.round()
		}
		if len(s.runs) > 0 && e.opt.OnResult != nil {
			f := e.snapshot(true)
			e.report(f, s)
		}
	}
	return false
}

// estimate plans the number of measured runs of s: Runs when given, else
// clamp(ceil(MinTime / mean process wall so far), floor, MaxRuns), where
// the floor is MinRuns, or less for a slow benchmark under MinRunsTime.
func (e *runEngine) estimate(s *benchState) int {
	o := &e.opt
	if o.Runs > 0 {
		return o.Runs
	}
	n := o.MinRuns
	if s.measured > 0 && s.wallSum > 0 {
		mean := float64(s.wallSum) / float64(s.measured)
		n = minRunsFloor(o.MinRuns, o.MinRunsTime, mean)
		if want := math.Ceil(float64(o.MinTime) / mean); o.MinTime > 0 && want > float64(n) {
			n = int(min(want, math.MaxInt32))
		}
	}
	if o.MaxRuns > 0 && n > o.MaxRuns {
		n = o.MaxRuns
	}
	return n
}

// minRunsFloor is the least number of runs of a benchmark whose runs take
// mean nanoseconds: minRuns, unless that many would take longer than
// capTime (when positive); then ceil(capTime / mean), but at least
// min(minRuns, FewestRuns).
func minRunsFloor(minRuns int, capTime time.Duration, mean float64) int {
	if capTime <= 0 || float64(minRuns)*mean <= float64(capTime) {
		return minRuns
	}
	return max(min(minRuns, FewestRuns), int(math.Ceil(float64(capTime)/mean)))
}

// plannedTotal is the number of runs (warm-ups included) currently planned
// over all benchmarks.
func (e *runEngine) plannedTotal() int {
	n := 0
	for _, s := range e.bench() {
		if s.stopped {
			n += s.warm + s.measured
		} else {
			n += e.opt.Warmup + max(s.target, s.measured)
		}
	}
	return n
}

// round hands a snapshot to OnRound, with the progress bar out of the way of
// anything it prints.
func (e *runEngine) round() {
	if e.opt.OnRound != nil {
		f := e.snapshot(true)
		e.bar.clear()
		e.opt.OnRound(f)
		e.bar.redraw()
	}
}

// report calls OnResult for s with f, a snapshot that contains it.
func (e *runEngine) report(f *File, s *benchState) {
	s.reported = true
	for i := range f.Results {
		if f.Results[i].Label == s.b.Label {
			e.bar.clear()
			e.opt.OnResult(f, &f.Results[i])
			e.bar.redraw()
			return
		}
	}
}

// finish builds the final file, reports the benchmarks not reported yet and
// calls OnRound a last time.
func (e *runEngine) finish(partial bool) *File {
	f := e.snapshot(partial)
	f.FinishedAt = time.Now()
	e.bar.finish()
	if e.opt.OnResult != nil {
		for _, s := range e.bench() {
			if !s.reported && len(s.runs) > 0 {
				e.report(f, s)
			}
		}
	}
	if e.opt.OnRound != nil {
		e.opt.OnRound(f)
	}
	return f
}

// snapshot builds a File of everything recorded so far, with statistics. It
// shares nothing mutable with the engine (Run.Stats maps are shared but never
// modified). Benchmarks without a recorded run are left out.
func (e *runEngine) snapshot(partial bool) *File {
	f := e.sideFile(0, fileHeader{tool: e.tool, machine: e.machine, workload: e.opt.Workload, unit: e.opt.Unit,
		params: e.opt.Params, reference: e.ref, order: e.opt.Order.String(), warmup: e.opt.Warmup, partial: partial})
	if w := e.opt.WaitForLoad; w != nil {
		f.WaitForLoad, f.LoadWaits = w.Below, slices.Clone(e.loadWaits)
	}
	return f
}

// resultsOf returns one Result per benchmark that has runs, in plan order,
// with copies of its parameters and runs.
func resultsOf(states []*benchState) []Result {
	var out []Result
	for _, s := range states {
		if len(s.runs) == 0 {
			continue
		}
		out = append(out, Result{
			Cell:   s.b.Cell,
			Label:  s.b.Label,
			Params: cloneParams(s.b.Params),
			Runs:   slices.Clone(s.runs),
		})
	}
	return out
}

// cloneParams copies a parameter map; nil becomes empty, so that the file
// says "params": {} rather than null.
func cloneParams(p map[string]string) map[string]string {
	if p == nil {
		return map[string]string{}
	}
	return maps.Clone(p)
}
