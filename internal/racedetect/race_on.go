//go:build race

package racedetect

// Enabled is true: this binary runs under the race detector.
const Enabled = true
