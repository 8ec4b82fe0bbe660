//go:build race

package rapidchecks

// raceEnabled: this binary runs under the race detector.
const raceEnabled = true
