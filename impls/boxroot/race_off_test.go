//go:build !race

package boxroot

const raceEnabled = false
