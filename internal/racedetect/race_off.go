//go:build !race

package racedetect

// Enabled is false: this binary runs without the race detector.
const Enabled = false
