package harness

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxCPU bounds CPU numbers in a list (Linux's CPU_SETSIZE is 1024).
const maxCPU = 1023

// ParseCPUList parses a CPU list in the kernel's notation: comma-separated
// CPU numbers and inclusive ranges, e.g. "0", "0-1", "0,2-3". It returns the
// CPUs in increasing order, without duplicates.
func ParseCPUList(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty CPU list (accepted: CPU numbers and ranges, e.g. 0, 0-1, 0,2-3)")
	}
	var cpus []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("CPU list %q has an empty item (accepted: e.g. 0, 0-1, 0,2-3)", s)
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := cpuNumber(s, lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = cpuNumber(s, hi); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("CPU list %q: range %s goes backwards (write %d-%d)", s, part, b, a)
			}
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

func cpuNumber(list, s string) (int, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("CPU list %q: %q is not a CPU number (accepted: whole numbers from 0, and ranges like 0-3)", list, s)
	}
	if n > maxCPU {
		return 0, fmt.Errorf("CPU list %q: CPU %d is out of range (at most %d)", list, n, maxCPU)
	}
	return n, nil
}

// FormatCPUList writes CPUs (in increasing order) in the kernel's notation,
// collapsing runs into ranges: [0 1 2 5] is "0-2,5".
func FormatCPUList(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
