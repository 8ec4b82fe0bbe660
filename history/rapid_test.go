package history_test

import (
	"flag"
	"os"
)

// raceRapidChecks is the number of cases each model test (model_test.go)
// draws under the race detector, against rapid's default of 100 without
// it: every case opens a SQLite store, whose translated C code the
// detector slows several times over, and 25 cases still run the adds, two
// connections at once included, in drawn orders under the detector.
const raceRapidChecks = "25"

// raceChecks lowers rapid's number of checks to raceRapidChecks under the
// race detector, unless -rapid.checks or $RAPID_CHECKS sets it.
func raceChecks() {
	if !raceEnabled || os.Getenv("RAPID_CHECKS") != "" {
		return
	}
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", raceRapidChecks); err != nil {
			panic(err)
		}
	}
}
