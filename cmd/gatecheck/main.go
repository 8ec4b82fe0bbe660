// Command gatecheck measures the error rates of `rootbench ab`'s gate: it
// runs many A/A sessions (the same build on both sides: every regression
// reported is a false alarm) and sessions with a planted slowdown on the head
// side of one cell (a regression not reported is a miss), at ab's default
// budget unless told otherwise, and writes the false-alarm and detection
// rates, with 95% Wilson intervals and the command that produced them, to
// OUT.json and OUT.md.
//
// The planted slowdown needs a rootbench built with -tags rootbench_faulty:
// its head workers get ROOTBENCH_SLOW=CELL=PCT%, which makes every measured
// pass of CELL take (1+PCT/100) times as long. Trials of the different kinds
// are interleaved (A/A, 5%, 10%, A/A, ...) so that drift of the machine
// falls on all of them alike.
//
// Usage (see `make gate-check`):
//
//	go run ./cmd/gatecheck -rootbench bin/rootbench-faulty -aa 25 -planted 25 \
//	    -cells ocaml,boxroot,ref,cgo-handle -slow boxroot -pcts 5,10 -out results/gate-check [-- AB FLAGS]
//
// With -replay, gatecheck runs no session: it makes thousands of synthetic
// sessions from the pairs of recorded ab sessions (their --export-json files,
// .json or .json.gz) and judges them with the decision code ab runs
// (analysis.Sequential), at the recorded looks and pair counts, with a
// planted slowdown multiplying the slowed cell's head runs (see replay.go,
// template.go and pace.go); it writes OUT.json and OUT.md (default
// results/gate-replay) and its section of the live report (-live):
//
//	go run ./cmd/gatecheck -replay [-sessions 4000] [-pcts 2,5,10,20] [-variant 45m] results/sessions/aa-*.json.gz
//
// Exit status: 0 when every trial ran (whatever the rates), 1 when a trial
// could not run (or a recorded session could not be replayed), 2 for bad
// flags.
package main

import (
	"fmt"
	"os"
)

func main() {
	cfg, rcfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(2)
	}
	if rcfg != nil {
		err = runReplay(rcfg)
	} else {
		err = run(cfg)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(1)
	}
}
