// Package harness is rootbench's engine: it plans the runs of a set of
// benchmarks, starts one worker process per run, collects each run's
// figures, and computes the statistics of the results file. It knows no cell
// implementation: the CLI describes each benchmark by its label, parameters
// and worker command line.
//
// The parent side is Execute (run control: warm-ups, run counts from a time
// budget, interleaved or grouped order, timeouts, failures, interruption,
// progress bar, per-round snapshots), ExecuteAB (two builds of rootbench in
// one session; see "A/B sessions" below), DescribeWorker and MatchSides (the
// worker protocol: what each build's worker accepts; protocol*.go) and Summarize (statistics,
// outliers, warnings; see the stats subpackage; relative figures belong to
// package analysis, which harness does not import). The worker side is
// Measure (GC and memory figures around the workload), WriteWorkerLine and
// Pin. CollectMachine, CollectTool, ToolOf and MachineWarnings record where
// and with what a file was measured. The results file itself is described
// in schema.go and read by Load and Decode; LoadAny and DecodeAny also
// read Go benchmark text into the same shape (DecodeGoBench), for compare.
//
// Workers are started in their own process group and measured with wait4's
// rusage, so the package needs a Unix system; pinning needs Linux.
//
// # Failed runs and the terminal
//
// A failed run is recorded, never fatal: its Error is one line, the cause
// ("killed by signal 9 (SIGKILL; likely the OOM killer)", "exit status 2:
// fatal error: out of memory", "timed out after 30s") and the log file that
// holds the worker's whole stdout and stderr; its StderrTail stops before any
// Go crash report, so no stack trace reaches the terminal; Options.Notices
// announces it as it happens; the other benchmarks go on. The progress bar
// fits the terminal's width (down to 60 columns, by shortening the
// description) and is erased when Execute returns, interrupted or not.
//
// # A/B sessions: ABBA order
//
// ExecuteAB runs the same benchmarks with two worker binaries, base and head,
// and keeps sampling until the caller's Decide says every row is decided or
// the time budget runs out. A round makes at least one pair of runs of every
// benchmark, one run per side, back to back; the side that goes first
// alternates from pair to pair, so every benchmark's runs go base, head,
// head, base, base, head, ... Over each block of two pairs a linear drift of
// the machine (heat, frequency, a background job ramping up) adds the same
// total to both sides and cancels in their difference, and any change of
// the machine between pairs cancels within each pair, which is how the
// analysis compares them (analysis.Options.Paired). Rounds interleave the
// benchmarks as `run` does.
//
// # A/B sessions: when the data are examined
//
// Sampling until a test says "significant" and stopping there inflates the
// false-alarm rate far beyond the test's alpha. ExecuteAB therefore asks its
// SequentialRule (analysis.Sequential, which owns the false-alarm guarantee:
// see analysis/sequential.go) only at planned looks: when every benchmark has
// the planned runs per side (sizes fixed before any data is seen), and, if
// the budget ends between two planned looks, once more on the runs made by
// then; the budget's look takes the place of the planned looks not reached.
// So a session makes at most as many looks as planned, and Look.Of carries
// that number for the rule to split its alpha over. When the rule plans the
// looks itself (PlannedLooks nil), the harness asks for the plan once, after
// the first ABBA block (two rounds), with the runs per side the budget
// allows at the pace measured so far: never with what the rounds measured.
//
// Both run and ab make their runs through one engine (engine.go), which owns
// making and recording a run, progress, failure notices and building a
// side's results file; run's scheduler (run.go) and ab's (ab_engine.go) sit on it.
//
// The same first block sets how many pairs each benchmark makes per round:
// round(slowest mean run / its mean run), 1 to 16 (balance), so that each
// benchmark gets about the same share of the budget; a look's size counts
// the runs of the slowest benchmark, which makes one pair per round. Each
// measured run records its Pair number, and the analysis pairs by it. The last
// look itself is made when the budget ends rather than at its planned size
// (a pace estimate, which later rounds may beat), so the session uses its
// whole budget; the time it is made at depends on the runs' durations only,
// never on what the two sides measured.
//
// # A/B sessions: the budget
//
// Before each round ExecuteAB estimates its duration from the rounds made so
// far and does not start one that would end after ABOptions.MaxTime. The
// session thus ends within about one round of the budget.
package harness
