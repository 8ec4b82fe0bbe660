package cli

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// memoryLimit returns the most memory one run may be estimated to need, and
// where that limit comes from: --max-memory when given (0: no limit), else
// the memory available now. 0 means no check (also when the available
// memory cannot be read: then nothing is refused).
func memoryLimit(flag int64, given bool) (int64, string) {
	if given {
		return flag, "--max-memory"
	}
	avail, err := memAvailable()
	if err != nil {
		return 0, ""
	}
	return avail, "the memory available (MemAvailable)"
}

// checkMemory refuses a configuration whose estimated peak memory exceeds
// limit (0: no limit). config names the scanned parameters, if any.
func checkMemory(p msgpass.Params, config [][2]string, limit int64, from string) error {
	if limit <= 0 {
		return nil
	}
	e := msgpass.EstimateMemory(p)
	if e.Bytes <= limit {
		return nil
	}
	what := "this plan"
	if len(config) > 0 {
		var kv []string
		for _, c := range config {
			kv = append(kv, c[0]+"="+c[1])
		}
		what = "configuration " + strings.Join(kv, " ")
	}
	return fmt.Errorf("%s needs an estimated %s per run (%d cells in flight × %d B, doubled for the GC, plus %s for the worker), more than %s of %s: lower --batch-size, --niters or --producers, set --max-delay, or pass --max-memory SIZE (0: no check)",
		what, parse.FormatBytes(e.Bytes), e.CellsInFlight, e.BytesPerCell, parse.FormatBytes(msgpass.BaseBytes), parse.FormatBytes(limit), from)
}

// memAvailable reads MemAvailable from /proc/meminfo: the memory the kernel
// estimates can be given to a new workload without swapping.
func memAvailable() (int64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("read available memory: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("read available memory: unexpected /proc/meminfo line %q", sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("read available memory: %w", err)
		}
		return kb << 10, nil
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read available memory: %w", err)
	}
	return 0, fmt.Errorf("read available memory: no MemAvailable in /proc/meminfo")
}
