//go:build !race

package rapidchecks

// raceEnabled: this binary runs without the race detector.
const raceEnabled = false
