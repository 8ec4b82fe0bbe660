package faulty

import (
	"runtime"
	"time"
)

// The busy waits behind the planted slowdown (impls.SlowEnv). Each spins
// on one OS thread (locked for the spin) and returns the wall time it spun
// and the CPU time that thread used meanwhile, read from the thread's own
// CPU clock (ThreadCPU): a spin descheduled by a busy machine lasts longer
// in wall time but not in CPU time. They burn CPU as real work would,
// instead of sleeping: a planted slowdown competes for the cores like the
// workload it lengthens.

// Spin busy-waits on the calling goroutine until at least d of wall time
// has passed (more when the thread was descheduled). cpu is 0 where the
// thread CPU clock cannot be read.
func Spin(d time.Duration) (wall, cpu time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, cpuErr := ThreadCPU()
	start := time.Now()
	for time.Since(start) < d {
		burn()
	}
	wall = time.Since(start)
	if cpu1, err := ThreadCPU(); err == nil && cpuErr == nil {
		cpu = cpu1 - cpu0
	}
	return wall, cpu
}

// SpinCPU busy-waits on the calling goroutine until its thread has used at
// least d of CPU time, however long that takes in wall time. It fails only
// where the thread CPU clock cannot be read (see ThreadCPU).
func SpinCPU(d time.Duration) (wall, cpu time.Duration, err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, err := ThreadCPU(); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	cpu = spinUntil(func() time.Duration {
		t, _ := ThreadCPU() // it was read above: it does not fail now
		return t
	}, d)
	return time.Since(start), cpu, nil
}

// spinUntil burns CPU until clock has advanced by at least d since the
// call, and returns by how much it advanced. It reads the clock between
// bursts of burn (a few microseconds each), so the spin overshoots d by at
// most one burst and one reading, and most of its time is spent in user
// code, as the workload's own, rather than in the clock's system call.
func spinUntil(clock func() time.Duration, d time.Duration) time.Duration {
	start := clock()
	for {
		if used := clock() - start; used >= d {
			return used
		}
		burn()
	}
}

// sink keeps burn's arithmetic from being optimised away.
var sink uint64

// burn does a few microseconds of arithmetic.
func burn() {
	x := sink | 1
	for i := range 1 << 10 {
		x = x*6364136223846793005 + uint64(i)
	}
	sink = x
}
