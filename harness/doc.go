// Package harness is rootbench's engine: it plans the runs of a set of
// benchmarks, starts one worker process per run, collects each run's
// figures, and computes the statistics of the results file. It knows no cell
// implementation: the CLI describes each benchmark by its label, parameters
// and worker command line.
//
// The parent side is Execute (run control: warm-ups, run counts from a time
// budget, interleaved or grouped order, timeouts, failures, interruption,
// progress bar, per-round snapshots), ExecuteAB (two builds of rootbench in
// one session: ABBA order, planned looks, a time budget; see ab.go for the
// stopping rule and why it keeps the false-alarm rate) and Summarize
// (statistics, outliers, warnings, relative speed; see the stats
// subpackage).
//
// A failed run is recorded, never fatal: its Error is one line (the cause,
// such as "killed by signal 9 (SIGKILL; likely the OOM killer)" or "exit
// status 2: fatal error: out of memory", and the log file holding the
// worker's whole stdout and stderr), its StderrTail stops before any Go
// crash report, and Options.Notices announces it as it happens; the other
// benchmarks go on. The progress bar fits the terminal's width and is erased
// when Execute returns, interrupted or not. The worker side is
// Measure (GC and memory figures around the workload), WriteWorkerLine and
// Pin. CollectMachine, CollectTool and MachineWarnings record where and with
// what a file was measured. The results file itself is described in
// schema.go and read by Load and Decode.
//
// Workers are started in their own process group and measured with wait4's
// rusage, so the package needs a Unix system; pinning needs Linux.
package harness
