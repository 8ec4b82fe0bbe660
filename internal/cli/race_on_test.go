//go:build race

package cli

// raceEnabled: this test binary, and so every worker it starts, runs under
// the race detector, which multiplies a process's memory by 5 to 10.
const raceEnabled = true
