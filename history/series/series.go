// Package series is the data a history store's series are read as: a
// series (Series: one metric of one benchmark with one set of parameters
// on one kind of machine, MachineKind), its points (Point, one per
// Commit) and the bisections recorded for its change points (Bisection).
//
// It holds plain values and their pure methods only, and imports nothing
// of rootbench. Package history stores and reads them (SQLite); the
// reports format them without linking the store.
package series

import (
	"slices"
	"strings"
)

// Series is one history: one metric of one benchmark with one set of
// parameters, on one kind of machine. Runs of different machines,
// workloads, parameters, benchmarks or metrics are never in one series.
type Series struct {
	// ID names the series in the store (stable; what a later record of
	// the series, such as a change point's culprit, refers to).
	ID int64
	// Machine is the machine kind's fingerprint (MachineKind.Fingerprint)
	// and MachineKind its fields.
	Machine     string
	MachineKind MachineKind
	// Workload is "msgpass" or "callback"; Benchmark the cell (or
	// callback variant); Params every parameter of the configuration.
	Workload  string
	Benchmark string
	Params    map[string]string
	// Metric names the metric (history.Metrics) and Unit is its unit
	// with the workload's unit of work ("ns/cell").
	Metric string
	Unit   string
}

// ParamsText is the parameters as one line, sorted by name:
// "batch-size=1024 niters=10000".
func (s Series) ParamsText() string { return FormatParams(s.Params) }

// FormatParams renders parameters as "name=value" pairs sorted by name,
// separated by spaces.
func FormatParams(p map[string]string) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + p[k]
	}
	return strings.Join(parts, " ")
}

// Point is one commit of a series: the values of every run of that
// commit, from every file that measured it.
type Point struct {
	Commit Commit
	// Values are the successful runs' values in the order the runs
	// started; empty when every run of the commit failed.
	Values []float64
	// Failed counts the commit's failed runs.
	Failed int
}
