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
	e := newEngine(opt, ref, func(ctx context.Context, b *Benchmark, name string) (Run, bool) {
		return execWorker(ctx, workerCmd{exe: opt.Executable, args: b.Args, env: opt.Env, timeout: opt.Timeout,
			show: opt.ShowOutput, log: logPath(logDir, name)})
	})
	e.tool = CollectTool(opt.CommandLine)
	e.machine = CollectMachine()
	return e.run(ctx)
}

// execFunc makes one run of a benchmark; name names the run for its log
// ("boxroot-run3"); interrupted reports that ctx was cancelled during the
// run, which then means nothing.
type execFunc func(ctx context.Context, b *Benchmark, name string) (run Run, interrupted bool)

// benchState is the progress of one benchmark.
type benchState struct {
	b        *Benchmark
	runs     []Run // recorded runs: measured runs and failed warm-ups, in run order
	warm     int   // warm-up runs made
	measured int   // measured runs made, failed ones included
	wallSum  int64 // total process wall time of the measured runs, ns
	target   int   // measured runs planned, re-estimated after every round
	stopped  bool  // a run failed without IgnoreFailure: no more runs
	reported bool  // OnResult has been called
}

// done reports whether the benchmark needs no more measured runs.
func (s *benchState) done() bool { return s.stopped || s.measured >= s.target }

// engine plans and records the runs. It is used by one goroutine.
type engine struct {
	opt     Options
	ref     string // resolved reference label, "" for the fastest
	exec    execFunc
	tool    Tool
	machine Machine
	states  []*benchState
	next    int // Index of the next recorded run
	started time.Time
	bar     *progress
}

func newEngine(opt Options, ref string, exec execFunc) *engine {
	e := &engine{opt: opt, ref: ref, exec: exec, started: time.Now()}
	for i := range opt.Benchmarks {
		s := &benchState{b: &opt.Benchmarks[i]}
		s.target = e.estimate(s)
		e.states = append(e.states, s)
	}
	return e
}

func (e *engine) run(ctx context.Context) (*File, error) {
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
func (e *engine) runInterleaved(ctx context.Context) bool {
	for w := 0; w < e.opt.Warmup; w++ {
		for _, s := range e.states {
			if s.stopped {
				continue
			}
			if e.runOne(ctx, s, true) {
				return true
			}
		}
	}
	for {
		ran := false
		for _, s := range e.states {
			if s.done() {
				continue
			}
			ran = true
			if e.runOne(ctx, s, false) {
				return true
			}
		}
		if !ran {
			return false
		}
		for _, s := range e.states {
			s.target = e.estimate(s)
		}
		e.round()
	}
}

// runGrouped makes all runs of one benchmark, then the next; a "round" is one
// run. It reports an interruption.
func (e *engine) runGrouped(ctx context.Context) bool {
	for _, s := range e.states {
		for s.warm < e.opt.Warmup && !s.stopped {
			if e.runOne(ctx, s, true) {
				return true
			}
		}
		for !s.done() {
			if e.runOne(ctx, s, false) {
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

// runOne makes one run of s and records it. It reports an interruption
// (ctx cancelled before or during the run; nothing is recorded).
func (e *engine) runOne(ctx context.Context, s *benchState, warmup bool) bool {
	if ctx.Err() != nil {
		return true
	}
	e.bar.describe(s, warmup, e.plannedTotal(), e.doneTotal())
	name := runName(s.b.Label, warmup, s.warm+1, s.measured+1)
	run, interrupted := e.exec(ctx, s.b, name)
	if interrupted {
		return true
	}
	if run.Failed {
		e.notify(s.b.Label, warmup, s.warm+1, s.measured+1, &run)
	}
	if warmup {
		s.warm++
		if run.Failed {
			run.Error = "warm-up run: " + run.Error
			e.record(s, run)
		}
	} else {
		s.measured++
		s.wallSum += run.ProcessWallNs
		e.record(s, run)
	}
	e.bar.set(e.plannedTotal(), e.doneTotal())
	return false
}

// record appends a run to s, giving it the next session-wide Index.
func (e *engine) record(s *benchState, run Run) {
	run.Index = e.next
	e.next++
	s.runs = append(s.runs, run)
	if run.Failed && !e.opt.IgnoreFailure {
		s.stopped = true
	}
}

// estimate plans the number of measured runs of s: Runs when given, else
// clamp(ceil(MinTime / mean process wall so far), MinRuns, MaxRuns).
func (e *engine) estimate(s *benchState) int {
	o := &e.opt
	if o.Runs > 0 {
		return o.Runs
	}
	n := o.MinRuns
	if o.MinTime > 0 && s.measured > 0 && s.wallSum > 0 {
		mean := float64(s.wallSum) / float64(s.measured)
		want := math.Ceil(float64(o.MinTime) / mean)
		if want > float64(n) {
			n = int(min(want, math.MaxInt32))
		}
	}
	if o.MaxRuns > 0 && n > o.MaxRuns {
		n = o.MaxRuns
	}
	return n
}

// plannedTotal is the number of runs (warm-ups included) currently planned
// over all benchmarks; doneTotal the number made.
func (e *engine) plannedTotal() int {
	n := 0
	for _, s := range e.states {
		if s.stopped {
			n += s.warm + s.measured
		} else {
			n += e.opt.Warmup + max(s.target, s.measured)
		}
	}
	return n
}

func (e *engine) doneTotal() int {
	n := 0
	for _, s := range e.states {
		n += s.warm + s.measured
	}
	return n
}

// notify writes the one-line notice of a failed run to Options.Notices.
func (e *engine) notify(label string, warmup bool, warm, measured int, run *Run) {
	if e.opt.Notices == nil {
		return
	}
	e.bar.clear()
	fmt.Fprintln(e.opt.Notices, failureNotice(label, warmup, warm, measured, run))
	e.bar.redraw()
}

// round hands a snapshot to OnRound, with the progress bar out of the way of
// anything it prints.
func (e *engine) round() {
	if e.opt.OnRound != nil {
		f := e.snapshot(true)
		e.bar.clear()
		e.opt.OnRound(f)
		e.bar.redraw()
	}
}

// report calls OnResult for s with f, a snapshot that contains it.
func (e *engine) report(f *File, s *benchState) {
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
func (e *engine) finish(partial bool) *File {
	f := e.snapshot(partial)
	f.FinishedAt = time.Now()
	e.bar.finish()
	if e.opt.OnResult != nil {
		for _, s := range e.states {
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
func (e *engine) snapshot(partial bool) *File {
	o := &e.opt
	f := &File{
		Schema:    Schema,
		Tool:      e.tool,
		Machine:   e.machine,
		Workload:  o.Workload,
		Unit:      o.Unit,
		Params:    cloneParams(o.Params),
		Reference: e.ref,
		StartedAt: e.started,
		Partial:   partial,
		Warmup:    o.Warmup,
		Order:     o.Order.String(),
		Warnings:  MachineWarnings(e.machine),
		Results:   []Result{},
	}
	f.Tool.CommandLine = slices.Clone(e.tool.CommandLine)
	f.Machine.LoadAvg = slices.Clone(e.machine.LoadAvg)
	f.Results = resultsOf(e.states)
	Summarize(f)
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
