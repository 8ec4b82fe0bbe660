package faulty

import "time"

// Spin busy-waits on the calling goroutine for at least d and returns the
// time it actually spun (at least d; more when the thread was descheduled).
// It burns CPU as real work would, instead of sleeping: a planted slowdown
// competes for the cores like the workload it lengthens.
func Spin(d time.Duration) time.Duration {
	start := time.Now()
	for {
		if e := time.Since(start); e >= d {
			return e
		}
	}
}
