//go:build !linux

package faulty

import (
	"errors"
	"time"
)

// errNoCPUClock says why a CPU clock cannot be read here.
var errNoCPUClock = errors.New("the thread CPU clock is read on Linux only")

// ThreadCPU fails outside Linux (see the Linux version).
func ThreadCPU() (time.Duration, error) { return 0, errNoCPUClock }
