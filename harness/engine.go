package harness

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"
)

// The one run engine. `run` measures one build (one side), `ab` and
// `bisect` two (base and head); both make their runs through engine, which
// owns the bookkeeping every scheduler shares: making one run of a
// benchmark on a side, recording it, counting the runs made, progress,
// failure notices and building a side's results file. What differs is the
// scheduler on top: runEngine (run.go) plans run counts from MinTime and
// orders benchmarks interleaved or grouped; abEngine (ab_engine.go) makes ABBA
// pairs and consults a sequential rule at its looks.

// sideExec makes one run of a benchmark on a side; name names the run for
// its log ("head-boxroot-run3"); interrupted reports that ctx was cancelled
// during the run, which then means nothing.
type sideExec func(ctx context.Context, side int, b *Benchmark, name string) (run Run, interrupted bool)

// benchState is the progress of one benchmark on one side.
type benchState struct {
	b        *Benchmark
	runs     []Run // recorded runs: measured runs and failed warm-ups, in run order
	warm     int   // warm-up runs made
	measured int   // measured runs made, failed ones included
	wallSum  int64 // total process wall time of the measured runs, ns
	target   int   // measured runs planned (run's scheduler), re-estimated after every round
	stopped  bool  // a run failed without IgnoreFailure: no more runs
	reported bool  // OnResult has been called
}

// done reports whether the benchmark needs no more measured runs.
func (s *benchState) done() bool { return s.stopped || s.measured >= s.target }

// engine makes and records the runs of one session. It is used by one
// goroutine.
type engine struct {
	// names are the sides' names; with more than one side, they prefix
	// log names, progress descriptions and failure notices.
	names []string
	exec  sideExec
	// states[side][i] is benchmark i on that side. Invariant (more than
	// one side): a failure stops the benchmark on every side, so a
	// benchmark is stopped on all sides or on none.
	states        [][]*benchState
	benchmarks    []Benchmark
	warmup        int
	ignoreFailure bool
	notices       io.Writer
	bar           *progress
	next          int // Index of the next recorded run, across sides
	started       time.Time
	now           func() time.Time
	// planned is the scheduler's count of the runs it plans (warm-ups
	// included), for progress.
	planned func() int
	// pair numbers a benchmark's next measured run (A/B pairs); nil
	// leaves Run.Pair 0.
	pair func(i int) int
	// loadWaits are the waits for the load made before rounds (awaitLoad),
	// waited their total time, kept out of the session's elapsed time;
	// noWait is set once the load could not be read.
	loadWaits []LoadWaitLog
	waited    time.Duration
	noWait    bool
}

func newCoreEngine(names []string, benchmarks []Benchmark, exec sideExec) *engine {
	e := &engine{names: names, exec: exec, benchmarks: benchmarks, now: time.Now}
	e.started = e.now()
	e.states = make([][]*benchState, len(names))
	for side := range names {
		for i := range benchmarks {
			e.states[side] = append(e.states[side], &benchState{b: &benchmarks[i]})
		}
	}
	return e
}

// prefix is "head-" for a side's log names with two sides, "" with one.
func (e *engine) prefix(side int, sep string) string {
	if len(e.names) < 2 {
		return ""
	}
	return e.names[side] + sep
}

// runOne makes one run of benchmark i on a side and records it. It reports
// an interruption (ctx cancelled before or during the run; nothing is
// recorded).
func (e *engine) runOne(ctx context.Context, side, i int, warmup bool) bool {
	if ctx.Err() != nil {
		return true
	}
	s := e.states[side][i]
	desc := s.b.Label + " " + e.prefix(side, " ") + estimate(s, warmup)
	e.bar.describeText(desc, e.planned(), e.doneTotal())
	name := e.prefix(side, "-") + runName(s.b.Label, warmup, s.warm+1, s.measured+1)
	run, interrupted := e.exec(ctx, side, s.b, name)
	if interrupted {
		return true
	}
	if run.Failed && e.notices != nil {
		e.bar.clear()
		fmt.Fprintln(e.notices, e.prefix(side, ": ")+failureNotice(s.b.Label, warmup, s.warm+1, s.measured+1, &run))
		e.bar.redraw()
	}
	if warmup {
		s.warm++
		if run.Failed {
			run.Error = "warm-up run: " + run.Error
			e.record(side, i, run)
		}
	} else {
		s.measured++
		s.wallSum += run.ProcessWallNs
		if e.pair != nil {
			run.Pair = e.pair(i)
		}
		e.record(side, i, run)
	}
	e.bar.set(e.planned(), e.doneTotal())
	return false
}

// record appends a run to benchmark i on a side, giving it the next
// session-wide Index; a failure stops the benchmark on every side unless
// ignoreFailure.
func (e *engine) record(side, i int, run Run) {
	run.Index = e.next
	e.next++
	s := e.states[side][i]
	s.runs = append(s.runs, run)
	if run.Failed && !e.ignoreFailure {
		for _, st := range e.states {
			st[i].stopped = true
		}
	}
}

// elapsed is the session's time so far, the waits for the load left out
// (they have their own bound, LoadWait.Timeout): what its budget and the
// pace of its rounds count.
func (e *engine) elapsed() time.Duration { return e.now().Sub(e.started) - e.waited }

// doneTotal is the number of runs made, warm-ups included, on every side.
func (e *engine) doneTotal() int {
	n := 0
	for _, states := range e.states {
		for _, s := range states {
			n += s.warm + s.measured
		}
	}
	return n
}

// fileHeader is what a side's results file says besides its results.
type fileHeader struct {
	tool             Tool
	machine          Machine
	workload, unit   string
	params           map[string]string
	reference, order string
	warmup           int
	partial          bool
	finishes         bool // stamp FinishedAt with the engine's clock
}

// sideFile builds a side's results file from everything recorded so far,
// with statistics. It shares nothing mutable with the engine (Run.Stats maps
// are shared but never modified). Benchmarks without a recorded run are
// left out.
func (e *engine) sideFile(side int, h fileHeader) *File {
	f := &File{
		Schema:    Schema,
		Tool:      h.tool,
		Machine:   h.machine,
		Workload:  h.workload,
		Unit:      h.unit,
		Params:    cloneParams(h.params),
		Reference: h.reference,
		StartedAt: e.started,
		Partial:   h.partial,
		Warmup:    h.warmup,
		Order:     h.order,
		Warnings:  MachineWarnings(h.machine),
		Results:   []Result{},
	}
	f.Tool.CommandLine = slices.Clone(h.tool.CommandLine)
	f.Machine.LoadAvg = slices.Clone(h.machine.LoadAvg)
	if h.finishes {
		f.FinishedAt = e.now()
	}
	f.Results = resultsOf(e.states[side])
	Summarize(f)
	return f
}
