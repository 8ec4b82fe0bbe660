package harness

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestMachineParsers(t *testing.T) {
	t.Parallel()
	x86 := "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n"
	if got := cpuModel([]byte(x86)); got != "Intel(R) Xeon(R) CPU @ 2.20GHz" {
		t.Errorf("x86 model = %q", got)
	}
	arm := "processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n\nModel\t\t: Raspberry Pi 4 Model B\n"
	if got := cpuModel([]byte(arm)); got != "Raspberry Pi 4 Model B" {
		t.Errorf("arm model = %q", got)
	}
	if got := cpuModel([]byte("nothing useful\n")); got != "" {
		t.Errorf("no model: %q", got)
	}
	if got := loadAvg([]byte("0.52 1.25 3.00 2/345 6789\n")); !slices.Equal(got, []float64{0.52, 1.25, 3}) {
		t.Errorf("loadAvg = %v", got)
	}
	if got := loadAvg([]byte("garbage")); got != nil {
		t.Errorf("loadAvg(garbage) = %v, want nil", got)
	}
	if got := memTotal([]byte("MemFree: 1 kB\nMemTotal:       16314484 kB\n")); got != 16314484*1024 {
		t.Errorf("memTotal = %d", got)
	}
}

func TestCollectMachineFromFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string { return writeFile(t, dir, name, data, 0o644) }
	saved := []string{cpuinfoPath, governorPath, loadavgPath, meminfoPath}
	t.Cleanup(func() { cpuinfoPath, governorPath, loadavgPath, meminfoPath = saved[0], saved[1], saved[2], saved[3] })
	cpuinfoPath = write("cpuinfo", "model name : Test CPU 9000\n")
	governorPath = write("governor", "powersave\n")
	loadavgPath = write("loadavg", "0.10 0.20 0.30 1/2 3\n")
	meminfoPath = write("meminfo", "MemTotal: 1024 kB\n")
	m := CollectMachine()
	if m.CPUModel != "Test CPU 9000" || m.Governor != "powersave" || !slices.Equal(m.LoadAvg, []float64{0.1, 0.2, 0.3}) ||
		m.MemoryBytes != 1<<20 || m.OS != runtime.GOOS || m.Arch != runtime.GOARCH || m.LogicalCPUs != runtime.NumCPU() ||
		m.GOMAXPROCS != runtime.GOMAXPROCS(0) {
		t.Errorf("CollectMachine = %+v", m)
	}
	if runtime.GOOS == "linux" && !strings.HasPrefix(m.Kernel, "Linux ") {
		t.Errorf("kernel = %q, want \"Linux <release>\"", m.Kernel)
	}
	// Missing files are fine.
	cpuinfoPath, governorPath, loadavgPath, meminfoPath = "/nonexistent/a", "/nonexistent/b", "/nonexistent/c", "/nonexistent/d"
	m = CollectMachine()
	if m.CPUModel != "" || m.Governor != "" || m.LoadAvg != nil || m.MemoryBytes != 0 || m.LogicalCPUs <= 0 {
		t.Errorf("CollectMachine without files = %+v", m)
	}
}

func TestMachineWarnings(t *testing.T) {
	t.Parallel()
	quiet := Machine{LogicalCPUs: 4, Governor: "performance", LoadAvg: []float64{2, 0, 0}}
	if ws := MachineWarnings(quiet); len(ws) != 0 {
		t.Errorf("quiet machine: %q", ws)
	}
	if ws := MachineWarnings(Machine{LogicalCPUs: 4}); len(ws) != 0 {
		t.Errorf("nothing readable: %q, want no warnings", ws)
	}
	ws := MachineWarnings(Machine{LogicalCPUs: 2, Governor: "powersave", LoadAvg: []float64{1.5, 0, 0}})
	if len(ws) != 2 || !strings.Contains(ws[0], `governor is "powersave"`) || !strings.Contains(ws[1], "load average is 1.50 on 2 logical CPUs") {
		t.Errorf("busy machine warnings: %q", ws)
	}
}

func TestCollectTool(t *testing.T) {
	t.Parallel()
	tool := CollectTool([]string{"rootbench", "run", "--runs", "3"})
	if tool.Name != ToolName || tool.Version == "" || tool.GoVersion != runtime.Version() ||
		!slices.Equal(tool.CommandLine, []string{"rootbench", "run", "--runs", "3"}) {
		t.Errorf("CollectTool = %+v", tool)
	}
}
