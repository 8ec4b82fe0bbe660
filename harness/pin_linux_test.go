package harness

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// checkAffinity checks that every thread of this process may run exactly on
// want, and returns the number of threads checked.
func checkAffinity(want []int) (int, error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(tid, &set); err != nil {
			continue // exited meanwhile
		}
		var got []int
		for c := 0; c <= maxCPU; c++ {
			if set.IsSet(c) {
				got = append(got, c)
			}
		}
		if FormatCPUList(got) != FormatCPUList(want) {
			return n, fmt.Errorf("thread %d may run on CPUs %s, want %s", tid, FormatCPUList(got), FormatCPUList(want))
		}
		n++
	}
	return n, nil
}

func TestPinErrors(t *testing.T) {
	t.Parallel()
	// These fail before changing anything, so they run in the test process.
	if err := Pin("0-"); err == nil || !strings.Contains(err.Error(), "not a CPU number") {
		t.Errorf("Pin(\"0-\") = %v, want a parse error", err)
	}
	err := Pin("1023")
	if err == nil || !strings.Contains(err.Error(), "CPU 1023 does not exist or is not available") ||
		!strings.Contains(err.Error(), "(available: ") {
		t.Errorf("Pin(\"1023\") = %v, want an error naming the CPU and the available ones", err)
	}
}

func TestPinWorker(t *testing.T) {
	t.Parallel()
	// Pin to the first CPU this process may use (not always CPU 0 in a
	// container).
	var avail unix.CPUSet
	if err := unix.SchedGetaffinity(0, &avail); err != nil {
		t.Fatal(err)
	}
	cpu := 0
	for !avail.IsSet(cpu) {
		cpu++
	}
	opt := fakeOptions(t, bench("pinned", "pin", strconv.Itoa(cpu)))
	opt.Runs = 1
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	r := f.Results[0]
	if r.Failed != 0 || r.Runs[0].Stats["threads"] < 2 {
		t.Fatalf("pinned worker: %+v; want success with every thread pinned to CPU %d", r.Runs[0], cpu)
	}
}
