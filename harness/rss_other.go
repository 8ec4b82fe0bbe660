//go:build !darwin

package harness

// maxrssUnit converts rusage's ru_maxrss to bytes: Linux and the BSDs report
// KiB.
const maxrssUnit = 1024
