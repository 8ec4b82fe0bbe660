//go:build race

package history_test

// raceEnabled: this test binary, and so every adder process the crash test
// starts, runs under the race detector, which makes SQLite's translated C
// code several times slower.
const raceEnabled = true
