package main

import (
	"flag"
	"os"
	"testing"
)

// raceRapidChecks is the number of cases the property test
// TestRunExperimentsIsTheSequentialModel draws under the race detector,
// against rapid's default of 100: each case runs its series twice, in
// parallel and one after another, and the detector slows both several
// times over while it can only find a race in the parallel run, which 25
// cases of one to four experiments still exercise. Without the detector
// the default holds.
const raceRapidChecks = "25"

func TestMain(m *testing.M) {
	if raceEnabled && os.Getenv("RAPID_CHECKS") == "" {
		flag.Parse()
		set := false
		flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
		if !set {
			if err := flag.Set("rapid.checks", raceRapidChecks); err != nil {
				panic(err)
			}
		}
	}
	os.Exit(m.Run())
}
