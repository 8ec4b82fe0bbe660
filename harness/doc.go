// Package harness is rootbench's engine: it plans the runs of a set of
// benchmarks, starts one worker process per run, collects each run's
// figures, and computes the statistics of the results file. It knows no cell
// implementation: the CLI describes each benchmark by its label, parameters
// and worker command line.
//
// The parent side is Execute (run control: warm-ups, run counts from a time
// budget, interleaved or grouped order, timeouts, failures, interruption,
// progress bar, per-round snapshots) and Summarize (statistics, outliers,
// warnings; see the stats subpackage; relative figures belong to package
// analysis, which harness does not import). The worker side is
// Measure (GC and memory figures around the workload), WriteWorkerLine and
// Pin. CollectMachine, CollectTool and MachineWarnings record where and with
// what a file was measured. The results file itself is described in
// schema.go and read by Load and Decode.
//
// Workers are started in their own process group and measured with wait4's
// rusage, so the package needs a Unix system; pinning needs Linux.
package harness
