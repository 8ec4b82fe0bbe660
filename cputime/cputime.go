// Package cputime reads this process's CPU time, user and system apart
// (getrusage RUSAGE_SELF: every thread of the process, those that have
// exited included). The workloads read it where they start and stop their
// own clocks, so that a run's CPU time and its wall time cover the same
// interval.
package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// Times is CPU time, user and system.
type Times struct {
	User, Sys time.Duration
}

// Self is this process's CPU time so far. getrusage(RUSAGE_SELF) fails only
// on a bad buffer, which this call never passes; should it fail anyway,
// Self is the zero Times, and an interval that ends with it is clamped to
// zero by Sub.
func Self() Times {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return Times{}
	}
	return Times{User: time.Duration(ru.Utime.Nano()), Sys: time.Duration(ru.Stime.Nano())}
}

// Sub is the CPU time from start to t, each part clamped at zero.
func (t Times) Sub(start Times) Times {
	return Times{User: max(0, t.User-start.User), Sys: max(0, t.Sys-start.Sys)}
}

// Add is the sum of two intervals' CPU times.
func (t Times) Add(u Times) Times { return Times{User: t.User + u.User, Sys: t.Sys + u.Sys} }

// Total is user plus system time.
func (t Times) Total() time.Duration { return t.User + t.Sys }
