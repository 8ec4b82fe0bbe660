package history

import "github.com/rootbench/rootbench/harness"

// Metric is one figure of a run that forms series: each benchmark of a
// file has one series per metric its runs carry. The figures of a run are
// stored whole (every column of harness.Run); a metric is a formula over
// them, so a metric added later reads every run already stored.
type Metric struct {
	// Name names the metric in series and on the command line.
	Name string
	// Unit is the metric's unit; "/unit" stands for the workload's unit
	// of work (series.Series.Unit says "ns/cell" or "ns/call").
	Unit string
	// Doc says what it measures, for help text.
	Doc string
	// Env marks a figure of the machine's load around the run rather
	// than of the code measured: context for a series, not a verdict.
	Env bool
	// expr computes the value from a row of runs; NULL where the run
	// does not carry it. has says the same of a harness.Run, and the two
	// agree.
	expr string
	has  func(r *harness.Run) bool
}

// perUnit is the placeholder of the workload's unit in Metric.Unit.
const perUnit = "/unit"

// Metrics are the metrics of every series, in the order series of one
// benchmark are listed. Wall and CPU time are per unit of work, as every
// comparison of rootbench is; the process figures are per run (they include
// the process's start-up); the machine's load is per run.
var Metrics = []Metric{
	{Name: "wall", Unit: "ns" + perUnit, Doc: "workload wall time per unit of work (wall_ns / cells)",
		expr: "wall_ns * 1.0 / cells", has: func(*harness.Run) bool { return true }},
	{Name: "cpu", Unit: "ns" + perUnit, Doc: "CPU time of the measured passes per unit of work ((cpu_user_ns + cpu_sys_ns) / cells)",
		expr: "(cpu_user_ns + cpu_sys_ns) * 1.0 / cells", has: func(r *harness.Run) bool { return r.CPUNs() > 0 }},
	{Name: "process-user", Unit: "ns", Doc: "the worker process's user CPU time, start-up included",
		expr: "NULLIF(user_ns, 0)", has: func(r *harness.Run) bool { return r.UserNs > 0 }},
	{Name: "process-sys", Unit: "ns", Doc: "the worker process's system CPU time, start-up included",
		expr: "NULLIF(sys_ns, 0)", has: func(r *harness.Run) bool { return r.SysNs > 0 }},
	{Name: "gc-cpu", Unit: "ns" + perUnit, Doc: "the garbage collector's CPU time per unit of work",
		expr: "gc_cpu_total_ns * 1.0 / cells", has: func(*harness.Run) bool { return true }},
	{Name: "gc-max-pause", Unit: "ns", Doc: "the longest stop-the-world pause",
		expr: "gc_max_pause_ns", has: func(*harness.Run) bool { return true }},
	{Name: "alloc", Unit: "B" + perUnit, Doc: "heap bytes allocated per unit of work",
		expr: "gc_heap_alloc_bytes * 1.0 / cells", has: func(*harness.Run) bool { return true }},
	{Name: "peak-rss", Unit: "B", Doc: "the worker process's peak resident set size",
		expr: "NULLIF(peak_rss_bytes, 0)", has: func(r *harness.Run) bool { return r.PeakRSSBytes > 0 }},
	{Name: "load1", Unit: "", Doc: "the one-minute load average when the run started", Env: true,
		expr: "load1", has: func(r *harness.Run) bool { return r.Env != nil }},
	{Name: "steal", Unit: "", Doc: "the fraction of CPU time the hypervisor gave to others during the run", Env: true,
		expr: "steal", has: func(r *harness.Run) bool { return r.Env != nil }},
	{Name: "run-queue", Unit: "", Doc: "runnable threads on the machine around the run (procs_running)", Env: true,
		expr: "run_queue", has: func(r *harness.Run) bool { return r.Env != nil }},
}

// MetricNamed returns the metric called name.
func MetricNamed(name string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// MetricNames lists the metrics' names in order, for help text and
// refusals.
func MetricNames() []string {
	names := make([]string, len(Metrics))
	for i, m := range Metrics {
		names[i] = m.Name
	}
	return names
}

// metricOrder is each metric's position in Metrics.
func metricOrder(name string) int {
	for i, m := range Metrics {
		if m.Name == name {
			return i
		}
	}
	return len(Metrics)
}
