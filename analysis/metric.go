package analysis

// This file names what a comparison row measures: its metric. A row is
// one benchmark on one metric. A results file's rows are judged on wall
// time and on CPU time; Go benchmark text's on every unit it carries
// (sec/op, B/op, allocs/op, B/s, custom units such as ns/cell), as
// benchstat judges them. It computes no statistic: each metric only says
// which figure of a run is its sample, whether higher or lower values are
// better, and whether its values are exact.
//
// What each metric of a results file can and cannot see:
//
//   - wall time is the workload's wall time over the measured passes: it
//     sees everything, the time spent blocked and the time other
//     processes took from the benchmark (the machine's load) included;
//   - CPU time is the worker's CPU time (user and system, every thread)
//     over the same passes: it misses the time spent blocked (sleeping,
//     waiting for a lock, a channel or the other threads) and counts
//     spinning, and it is far less moved by the load, which takes time
//     between a thread's slices of CPU rather than within them;
//   - process CPU time, the fallback for workers that predate the passes'
//     CPU time, is the whole worker process's (wait4): start-up and
//     warm-up included.

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/parse"
)

// Metric is what a comparison row measures: a per-run quantity with its
// unit, its direction and the assumption its summaries make.
type Metric struct {
	// Name is how --metric names it ("wall", "cpu"), or, for Go benchmark
	// text, its unit as benchfmt tidies it ("sec/op" for ns/op, "B/s" for
	// MB/s, "B/op", "allocs/op", custom units as written).
	Name string
	// Label is how a row names it to people: "wall time", "CPU time",
	// "process CPU time", or the unit.
	Label string
	// HigherIsBetter is true for throughputs (B/s): a change for the
	// worse, which the gate judges, is then a fall.
	HigherIsBetter bool
	// Exact is true for a unit declared `Unit NAME assume=exact`: a run
	// measures its value without error (benchmath.AssumeExact), so one run
	// per side decides.
	Exact bool
	kind  metricKind
}

type metricKind int

const (
	kindWall metricKind = iota
	kindCPU
	kindProcessCPU
	kindUnit
)

// The metrics of a results file.
var (
	// Wall is the workload's wall time over the measured passes (per unit
	// of work when the sides do different work).
	Wall = Metric{Name: "wall", Label: "wall time", kind: kindWall}
	// CPU is the worker's CPU time, user and system, over the measured
	// passes (harness.Run.CPUNs).
	CPU = Metric{Name: "cpu", Label: "CPU time", kind: kindCPU}
	// ProcessCPU is what a CPU row compares when a side's runs lack the
	// measured passes' CPU time: the whole worker process's user and
	// system time, start-up and warm-up included.
	ProcessCPU = Metric{Name: "cpu", Label: "process CPU time", kind: kindProcessCPU}
)

// goBenchTime is the unit of Go benchmark text's time per op, as benchfmt
// tidies ns/op.
const goBenchTime = "sec/op"

// DefaultMetrics is the --metric of every command that judges results
// files (compare, ab, bisect): wall time and CPU time.
const DefaultMetrics = "wall,cpu"

// metricsAccepted says what ParseMetrics accepts.
const metricsAccepted = "accepted: wall (workload wall time), cpu (CPU time of the measured passes), or both, comma-separated"

// ParseMetrics parses a --metric value: a comma-separated list of wall and
// cpu, case-insensitively, each at most once, in the order given. It is
// the one parser of --metric.
func ParseMetrics(s string) ([]Metric, error) {
	names, err := parse.List(s)
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("metric %q: name at least one; %s", s, metricsAccepted)
	}
	var out []Metric
	for _, n := range names {
		var m Metric
		switch strings.ToLower(n) {
		case Wall.Name:
			m = Wall
		case CPU.Name:
			m = CPU
		default:
			return nil, fmt.Errorf("metric %q: %s", n, metricsAccepted)
		}
		if slices.ContainsFunc(out, func(x Metric) bool { return x.Name == m.Name }) {
			return nil, fmt.Errorf("metric %q given twice: %s", n, metricsAccepted)
		}
		out = append(out, m)
	}
	return out, nil
}

// ParseUnits parses a --unit value: a comma-separated list of units of Go
// benchmark text, each tidied as benchfmt tidies the text's (ns/op is
// sec/op, MB/s is B/s). Whether the text carries them is CompareFiles's to
// check.
func ParseUnits(s string) ([]string, error) {
	names, err := parse.List(s)
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("unit %q: name at least one unit the text carries, such as sec/op, B/op or allocs/op (comma-separated)", s)
	}
	out := make([]string, len(names))
	for i, n := range names {
		_, out[i] = benchunit.Tidy(1, n)
	}
	return out, nil
}

// IsTime reports whether the metric's samples are times in seconds (per
// unit of work, or per op), whose change is a slowdown or a speed-up.
func (m Metric) IsTime() bool {
	if m.kind != kindUnit {
		return true
	}
	num, _, _ := strings.Cut(m.Name, "/")
	return slices.Contains(strings.Split(num, "-"), "sec")
}

// assumption is what the metric's summaries assume, as benchmath names it.
func (m Metric) assumption() benchmath.Assumption {
	if m.Exact {
		return benchmath.AssumeExact
	}
	return benchmath.AssumeNothing
}

// unitMetric is the metric of a unit of Go benchmark text. A unit whose
// direction the text does not declare is taken as lower is better.
func unitMetric(u harness.GoBenchUnit) Metric {
	return Metric{Name: u.Name, Label: u.Name, HigherIsBetter: u.Better > 0, Exact: u.Exact, kind: kindUnit}
}

// quantity is a successful run's figure of the metric: nanoseconds for
// the times of a results file, the value for a unit of Go benchmark text;
// ok is false for a failed run, and for a run that lacks it.
func (m Metric) quantity(run harness.Run) (float64, bool) {
	if run.Failed {
		return 0, false
	}
	switch m.kind {
	case kindWall:
		return float64(run.WallNs), true
	case kindCPU:
		return float64(run.CPUNs()), run.CPUNs() > 0
	case kindProcessCPU:
		ns := run.UserNs + run.SysNs
		return float64(ns), ns > 0
	}
	v, ok := run.Values[m.Name]
	return v, ok
}

// samples are r's successful runs' figures of the metric in run order:
// seconds, or seconds per unit of work when perUnit (runs that did no
// work left out), for a time of a results file; the values of a unit of
// Go benchmark text.
func (m Metric) samples(r *harness.Result, perUnit bool) []float64 {
	out := make([]float64, 0, len(r.Runs))
	for _, run := range r.Runs {
		q, ok := m.quantity(run)
		switch {
		case !ok:
		case m.kind == kindUnit:
			out = append(out, q)
		case perUnit && run.Cells > 0:
			out = append(out, q/float64(run.Cells)*1e-9) // as benchfmt converts ns/op
		case !perUnit:
			out = append(out, q/1e9)
		}
	}
	return out
}

// pairValue is a run's figure of the metric as a paired row compares it:
// seconds, or seconds per unit of work when perUnit; ok is false for a
// run that failed, lacks it or (perUnit) did no work.
func (m Metric) pairValue(run harness.Run, perUnit bool) (float64, bool) {
	q, ok := m.quantity(run)
	switch {
	case !ok:
		return 0, false
	case m.kind == kindUnit:
		return q, true
	case perUnit:
		if run.Cells <= 0 {
			return 0, false
		}
		return q / float64(run.Cells) / 1e9, true
	}
	return q / 1e9, true
}

// cpuMetric chooses the CPU time the rows of rs compare, the same for
// every side: the measured passes' (CPU) when every successful run has
// it, else the whole process's (ProcessCPU) when every successful run has
// that; ok is false when neither.
func cpuMetric(rs ...*harness.Result) (m Metric, ok bool) {
	passes, process := true, true
	for _, r := range rs {
		for _, run := range r.Runs {
			if run.Failed {
				continue
			}
			_, p := CPU.quantity(run)
			_, w := ProcessCPU.quantity(run)
			passes, process = passes && p, process && w
		}
	}
	switch {
	case passes:
		return CPU, true
	case process:
		return ProcessCPU, true
	}
	return Metric{}, false
}

// sameMetric reports whether a and b are one metric (CPU and ProcessCPU
// are: the CPU row of a benchmark).
func sameMetric(a, b Metric) bool { return a.Name == b.Name }
