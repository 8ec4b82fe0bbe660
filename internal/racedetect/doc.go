// Package racedetect says whether the binary was built with the race
// detector (go build -race), for the tests that shrink their sizes (never
// their checks) under it: the detector makes instrumented code several
// times slower, and every process a test binary re-executes (workers,
// adders) is instrumented too.
package racedetect
