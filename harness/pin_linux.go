package harness

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Pin restricts the calling process to the CPUs in cpus, a CPU list such as
// "0", "0-1" or "0,2-3" (see ParseCPUList), with sched_setaffinity. Every CPU
// must be one this process may run on.
//
// sched_setaffinity applies to one thread, and a Go process already has
// several, so Pin sets the mask on every thread in /proc/self/task. Threads
// created later inherit the mask from the thread that creates them, which
// then already has it. Call Pin early, before the workload starts threads.
func Pin(cpus string) error {
	list, err := ParseCPUList(cpus)
	if err != nil {
		return err
	}
	var avail unix.CPUSet
	if err := unix.SchedGetaffinity(0, &avail); err != nil {
		return fmt.Errorf("read this process's CPU affinity: %w", err)
	}
	var allowed []int
	for c := 0; c <= maxCPU; c++ {
		if avail.IsSet(c) {
			allowed = append(allowed, c)
		}
	}
	var set unix.CPUSet
	for _, c := range list {
		if !avail.IsSet(c) {
			return fmt.Errorf("CPU %d does not exist or is not available to this process (available: %s)", c, FormatCPUList(allowed))
		}
		set.Set(c)
	}
	// Threads may come and go while we iterate: repeat until a pass finds
	// no thread left to pin.
	pinned := map[int]bool{}
	for pass := 0; pass < 10; pass++ {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("pin to CPUs %s: list threads: %w", cpus, err)
		}
		fresh := 0
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil || pinned[tid] {
				continue
			}
			fresh++
			if err := unix.SchedSetaffinity(tid, &set); err != nil {
				if errors.Is(err, unix.ESRCH) {
					continue // the thread exited
				}
				return fmt.Errorf("pin to CPUs %s: sched_setaffinity: %w", cpus, err)
			}
			pinned[tid] = true
		}
		if fresh == 0 {
			return nil
		}
	}
	return nil
}
