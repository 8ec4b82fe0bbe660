//go:build !linux

package cli

import (
	"fmt"
	"runtime"
)

// checkCPUsAllowed refuses pinning: it needs Linux's sched_setaffinity.
func checkCPUsAllowed([]int) error {
	return fmt.Errorf("pinning to CPUs needs Linux (sched_setaffinity); this is %s", runtime.GOOS)
}
