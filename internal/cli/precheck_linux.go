package cli

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/rootbench/rootbench/harness"
)

// checkCPUsAllowed reports the first CPU of cpus this process may not run on
// (absent from the machine or outside its affinity mask).
func checkCPUsAllowed(cpus []int) error {
	var mask unix.CPUSet
	if err := unix.SchedGetaffinity(0, &mask); err != nil {
		return fmt.Errorf("read this process's CPU affinity: %w", err)
	}
	var allowed []int
	for c := 0; c < len(mask)*64; c++ {
		if mask.IsSet(c) {
			allowed = append(allowed, c)
		}
	}
	for _, c := range cpus {
		if !mask.IsSet(c) {
			return fmt.Errorf("CPU %d is not on this machine or not available to this process (accepted: CPUs %s)", c, harness.FormatCPUList(allowed))
		}
	}
	return nil
}
