package faulty

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU is the CPU time (user and system) the calling OS thread has
// used (CLOCK_THREAD_CPUTIME_ID). Only meaningful while the goroutine stays
// on one thread: lock it (runtime.LockOSThread) between two readings.
func ThreadCPU() (time.Duration, error) { return clock(unix.CLOCK_THREAD_CPUTIME_ID, "thread") }

func clock(id int32, what string) (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0, fmt.Errorf("read the %s CPU clock: %w", what, err)
	}
	return time.Duration(ts.Nano()), nil
}
