package main

import (
	"os"
	"testing"

	"github.com/rootbench/rootbench/internal/rapidchecks"
)

func TestMain(m *testing.M) {
	// Each case of TestRunExperimentsIsTheSequentialModel runs its series
	// twice, in parallel and one after another; the detector slows both
	// several times over while it can only find a race in the parallel
	// run, which 25 cases of one to four experiments still exercise.
	rapidchecks.UnderRace(25)
	os.Exit(m.Run())
}
