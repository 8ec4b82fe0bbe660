package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// The load around a run (Run.Env): what else the machine did while a
// worker ran, read by the parent from /proc on Linux (nil elsewhere).

// statPath is the file the run queue and the steal time are read from; a
// variable so that tests can point it at fixtures (as loadavgPath).
var statPath = "/proc/stat"

// HighSteal is the steal fraction above which a run's measurement is
// flagged (RunEnv.HighSteal, in A/B sessions): the hypervisor gave more
// than a tenth of the machine's CPU time to other guests while it ran, so
// its times hold a wait that is neither the benchmark's nor the same on the
// other run of its pair. Such runs are kept and counted, never dropped.
const HighSteal = 0.10

// procStat is one reading of /proc/stat: the aggregate "cpu" line's steal
// ticks and its total (user, nice, system, idle, iowait, irq, softirq and
// steal; guest time is already in user and nice), and procs_running.
type procStat struct {
	steal, total uint64
	running      float64
}

// parseProcStat reads a /proc/stat; ok is false without a "cpu" line of at
// least eight numbers or a procs_running line.
func parseProcStat(data []byte) (s procStat, ok bool) {
	var haveCPU, haveRunning bool
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 9 && f[0] == "cpu":
			var ticks [8]uint64
			for i := range ticks {
				v, err := strconv.ParseUint(f[i+1], 10, 64)
				if err != nil {
					return procStat{}, false
				}
				ticks[i] = v
				s.total += v
			}
			s.steal = ticks[7]
			haveCPU = true
		case len(f) == 2 && f[0] == "procs_running":
			v, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return procStat{}, false
			}
			s.running = float64(v)
			haveRunning = true
		}
	}
	return s, haveCPU && haveRunning
}

// envOf is a run's env from the load average when it started and the
// readings of /proc/stat at its start and end: the steal share of the CPU
// time that passed (0 when no tick passed) and the mean run queue.
func envOf(load1 float64, start, end procStat) *RunEnv {
	env := &RunEnv{Load1: load1, RunQueue: (start.running + end.running) / 2}
	if end.total > start.total && end.steal >= start.steal {
		env.Steal = min(1, float64(end.steal-start.steal)/float64(end.total-start.total))
	}
	env.HighSteal = env.Steal > HighSteal
	return env
}

// envProbe is a run's env being read: the readings at its start.
type envProbe struct {
	load1 float64
	start procStat
}

// startEnv reads the load and /proc/stat as a run starts; nil where they
// cannot be read (any OS but Linux).
func startEnv() *envProbe {
	if runtime.GOOS != "linux" {
		return nil
	}
	load1, err := Load1()
	if err != nil {
		return nil
	}
	s, ok := readProcStat()
	if !ok {
		return nil
	}
	return &envProbe{load1: load1, start: s}
}

// finish reads /proc/stat as the run ends and returns its env (nil when p
// is nil or the file cannot be read).
func (p *envProbe) finish() *RunEnv {
	if p == nil {
		return nil
	}
	end, ok := readProcStat()
	if !ok {
		return nil
	}
	return envOf(p.load1, p.start, end)
}

func readProcStat() (procStat, bool) {
	data, err := os.ReadFile(statPath)
	if err != nil {
		return procStat{}, false
	}
	return parseProcStat(data)
}

// Load1 is the machine's one-minute load average now (/proc/loadavg).
func Load1() (float64, error) {
	data, err := os.ReadFile(loadavgPath)
	if err != nil {
		return 0, fmt.Errorf("read the load average: %w", err)
	}
	l := loadAvg(data)
	if l == nil {
		return 0, fmt.Errorf("read the load average: %s holds no load averages", loadavgPath)
	}
	return l[0], nil
}
