//go:build !race

package history_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
