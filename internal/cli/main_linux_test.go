package cli

import (
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

func TestPinRefusesAbsentCPU(t *testing.T) {
	t.Parallel()
	mustRefuse(t, []refusal{
		{args: []string{"run", "--pin", strconv.Itoa(absentCPU(t))}, want: []string{"--pin", "accepted: CPUs"}},
	})
}

// absentCPU returns a CPU number this process may not run on.
func absentCPU(t *testing.T) int {
	var mask unix.CPUSet
	if err := unix.SchedGetaffinity(0, &mask); err != nil {
		t.Fatalf("read the CPU affinity: %v", err)
	}
	for c := 0; c < 1024; c++ {
		if !mask.IsSet(c) {
			return c
		}
	}
	t.Fatal("every CPU from 0 to 1023 is available: no absent CPU to pin to")
	return 0
}
