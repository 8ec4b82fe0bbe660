// Command gatecheck measures the error rates of `rootbench ab`'s gate, in
// each condition a machine may be in (quiet, or busy with N CPU-bound
// noise processes that gatecheck starts and stops) and on each metric ab
// judges (wall time, CPU time). It has three modes.
//
// The live check runs many A/A sessions (the same build on both sides:
// every regression reported is a false alarm) and sessions with a planted
// slowdown on the head side of one cell (a regression not reported is a
// miss), at ab's default budget unless told otherwise, under each
// condition of -noise in turn, and writes the false-alarm and detection
// rates per condition and metric, with 95% Wilson intervals, beside the
// replay's, and the time ab took to flag each planted slowdown, to
// OUT.json and OUT.md:
//
//	gatecheck -rootbench bin/rootbench-faulty -aa 6 -planted 4 -noise 0,4 \
//	    -cells ocaml,boxroot,ref,cgo-handle -slow boxroot -pcts 5%,10%,10%cpu -out results/gate-check [-- AB FLAGS]
//
// A planted slowdown is one in the metric it names, and needs a rootbench
// built with -tags rootbench_faulty: its head workers get
// ROOTBENCH_SLOW=CELL=PCT% or CELL=PCT%cpu (impls.SlowEnv). Inside every
// measured pass of CELL, once its workers have finished, one thread
// busy-spins: in wall time, for PCT% of the pass's wall time, so the
// pass's wall time grows by exactly PCT% and its CPU time by what the
// process used meanwhile; in CPU time, until that thread has used (by its
// own CPU clock) PCT% of the pass's CPU time, which the process's CPU time
// during the spin is added to, so the run's CPU time grows by PCT%
// however busy the machine and its wall time by however long that took. The spin is inside the passes the
// worker measures, so both metrics see it, and each run records what was
// planted in each (stats planted_wall_ns and planted_cpu_ns), from which
// a reader computes both shifts. Trials of the different kinds are
// interleaved (A/A, 5%, 10%, A/A, ...) so that drift of the machine falls
// on all of them alike. The time to flag is, for each planted trial, the
// time into the session of the first look at which ab's rule, given the
// runs it had then, judged the slowed cell a regression.
//
// With -record, gatecheck records -count A/A sessions for the replay under
// one condition (-noise N), into -dir/quiet/ or -dir/noiseN/, each at ab's
// defaults with the gate 0.01% so that it runs to its budget look, and
// appends every session's exit status to that directory's record.jsonl;
// a session that ends without a verdict keeps its partial export as
// failed-aa-*.json.gz:
//
//	gatecheck -record -noise 4 -count 10 -rootbench bin/rootbench-faulty -dir results/sessions [-- AB FLAGS]
//
// Noise processes are this program re-executed with -spin (one busy
// thread each), each the leader of its own process group; they are killed
// when the condition's sessions end, on an error, on SIGINT or SIGTERM
// (forwarded to the running ab session, which then writes what it
// measured), and, on Linux, by the kernel when gatecheck itself dies.
//
// With -replay, gatecheck runs no session: it makes thousands of synthetic
// sessions from the pairs of recorded ab sessions (their --export-json files,
// .json or .json.gz), grouped by the condition their directory names (a
// session elsewhere is of no recorded condition), and judges them with the
// decision code ab runs (analysis.Sequential), at the recorded looks and
// pair counts, on every metric the sessions measured together, with a
// planted slowdown multiplying the slowed cell's head runs in one metric
// (see replay.go, metric.go, template.go and pace.go); it checks the
// targets of each condition (targets.go) and, for each target missed,
// models longer budgets (-search) for one that meets it; it writes OUT.json
// and OUT.md (default results/gate-replay), one section per condition and
// metric, and the live report (-live) from its JSON and the live check's:
//
//	gatecheck -replay [-sessions 4000] [-pcts 2,5,10,20] [-variant 45m] results/sessions/*/aa-*.json.gz
//
// Exit status: 0 when every trial ran (whatever the rates), 1 when a trial
// could not run (or a recorded session could not be replayed, or a
// recorded one gave no verdict), 2 for bad flags, 130 and 143 when SIGINT
// or SIGTERM stopped a recording.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/rootbench/rootbench/exitstatus"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == spinFlag {
		spinForever()
	}
	cfg, rcfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(exitstatus.Usage)
	}
	switch {
	case rcfg != nil:
		err = runReplay(rcfg)
	case cfg.record != nil:
		err = record(cfg.record)
	default:
		err = run(cfg)
	}
	var ie errInterrupted
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(ie.exitCode())
	case err != nil:
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(exitstatus.Failed)
	}
}
