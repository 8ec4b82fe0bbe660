//go:build !linux

package harness

import (
	"fmt"
	"runtime"
)

// Pin restricts the calling process to the CPUs in cpus. It needs Linux's
// sched_setaffinity; elsewhere it checks the list and reports that pinning is
// not supported.
func Pin(cpus string) error {
	if _, err := ParseCPUList(cpus); err != nil {
		return err
	}
	return fmt.Errorf("pinning to CPUs needs Linux (sched_setaffinity); this is %s", runtime.GOOS)
}
