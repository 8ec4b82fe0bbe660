// Package rapidchecks sizes pgregory.net/rapid's property tests for the
// race detector (tests only): a test binary built with -race draws fewer
// cases, where each case is slow under the detector.
package rapidchecks

import (
	"flag"
	"fmt"
	"os"

	"github.com/rootbench/rootbench/internal/racedetect"
)

// UnderRace sets rapid's number of checks (-rapid.checks) to n when the
// test binary runs under the race detector, unless -rapid.checks or
// $RAPID_CHECKS already sets it; without the detector rapid's default
// holds. Call it from TestMain, before m.Run.
func UnderRace(n int) {
	if !racedetect.Enabled || os.Getenv("RAPID_CHECKS") != "" {
		return
	}
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if set {
		return
	}
	if err := flag.Set("rapid.checks", fmt.Sprint(n)); err != nil {
		panic(fmt.Errorf("rapidchecks: the test binary has no -rapid.checks flag (it does not import rapid): %w", err))
	}
}
