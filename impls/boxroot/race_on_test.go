//go:build race

package boxroot

// raceEnabled says the race detector is on: tests shrink their sizes (never
// their checks) to stay within the suite's time budget.
const raceEnabled = true
