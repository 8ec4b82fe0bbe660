package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// ToolName is the name recorded in results files.
const ToolName = "rootbench"

// Files CollectMachine reads; variables so that tests can point them at
// fixtures.
var (
	cpuinfoPath  = "/proc/cpuinfo"
	governorPath = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
	loadavgPath  = "/proc/loadavg"
	meminfoPath  = "/proc/meminfo"
)

// CollectMachine describes the machine this process runs on. Whatever cannot
// be read (a missing file, another OS) is left empty.
func CollectMachine() Machine {
	m := Machine{
		LogicalCPUs: runtime.NumCPU(),
		GOMAXPROCS:  runtime.GOMAXPROCS(0),
		OS:          runtime.GOOS,
		Arch:        runtime.GOARCH,
		Kernel:      kernel(),
	}
	m.Hostname, _ = os.Hostname()
	if data, err := os.ReadFile(cpuinfoPath); err == nil {
		m.CPUModel = cpuModel(data)
	}
	if data, err := os.ReadFile(governorPath); err == nil {
		m.Governor = strings.TrimSpace(string(data))
	}
	if data, err := os.ReadFile(loadavgPath); err == nil {
		m.LoadAvg = loadAvg(data)
	}
	if data, err := os.ReadFile(meminfoPath); err == nil {
		m.MemoryBytes = memTotal(data)
	}
	return m
}

// cpuModel finds the CPU model in /proc/cpuinfo: "model name" on x86,
// "Model" or "Hardware" or "cpu" elsewhere (the first one present).
func cpuModel(cpuinfo []byte) string {
	fields := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if _, seen := fields[k]; !seen && v != "" {
			fields[k] = v
		}
	}
	for _, k := range []string{"model name", "Model", "Hardware", "cpu"} {
		if v := fields[k]; v != "" {
			return v
		}
	}
	return ""
}

// loadAvg parses the three load averages of /proc/loadavg.
func loadAvg(data []byte) []float64 {
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return nil
	}
	out := make([]float64, 3)
	for i := range out {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil
		}
		out[i] = v
	}
	return out
}

// memTotal parses MemTotal (in kB) from /proc/meminfo, in bytes.
func memTotal(data []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// MachineWarnings returns what about m may disturb measurements: a CPU
// frequency governor other than "performance" (when readable), and a load
// average above half the logical CPUs.
func MachineWarnings(m Machine) []string {
	var ws []string
	if m.Governor != "" && m.Governor != "performance" {
		ws = append(ws, fmt.Sprintf(
			"The CPU frequency governor is %q, not \"performance\": the clock speed may change during the benchmark. "+
				"Consider 'sudo cpupower frequency-set --governor performance'.", m.Governor))
	}
	if len(m.LoadAvg) > 0 && m.LogicalCPUs > 0 && m.LoadAvg[0] > 0.5*float64(m.LogicalCPUs) {
		ws = append(ws, fmt.Sprintf(
			"The load average is %.2f on %d logical CPUs: other programs are running and may disturb the measurements.",
			m.LoadAvg[0], m.LogicalCPUs))
	}
	return ws
}

// CollectTool describes this binary from its build information: module
// version, VCS revision and whether the tree was modified, Go version; and
// the command line it was run with.
func CollectTool(commandLine []string) Tool {
	t := Tool{Name: ToolName, Version: "(unknown)", GoVersion: runtime.Version(), CommandLine: commandLine}
	if bi, ok := debug.ReadBuildInfo(); ok {
		fillTool(&t, bi)
	}
	return t
}
