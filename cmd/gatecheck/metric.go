package main

// The metrics a replay judges. The decision code compares each run's
// WallNs (per unit of work when the sides' work differs), so a metric is
// judged by the same code when each run's WallNs carries the metric's
// value (metric.runs): no statistic of its own, and the replay of wall
// time is exactly what it was.
//
// Judged together (every synthetic session judges each benchmark on every
// metric given, one row per benchmark and metric, all under one Holm
// correction and one sequential rule), the replay makes the verdict of
// `ab --metric wall,cpu`: each metric's row is a result of its own in the
// files the rule reads, labelled by rowLabel. Judging one metric alone
// makes that of `ab --metric cpu`.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

// metric is one figure a run is judged on: its name (as --metric spells
// it), its title in sentences, and its total over a run's measured passes
// (the analysis divides it by the run's units of work).
type metric struct {
	name, title string
	value       func(harness.Run) int64
}

// The metrics: the workload's wall time, and the worker's CPU time over
// the same measured passes.
var (
	wallMetric = metric{name: "wall", title: "wall time", value: func(r harness.Run) int64 { return r.WallNs }}
	cpuMetric  = metric{name: "cpu", title: "CPU time", value: harness.Run.CPUNs}
	allMetrics = []metric{wallMetric, cpuMetric}
)

// parseMetrics reads -metrics: names from allMetrics, comma-separated, each
// once.
func parseMetrics(list string) ([]metric, error) {
	var out []metric
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, m := range allMetrics {
			if m.name == name && !hasMetric(out, name) {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("-metrics %q: accepted: wall, cpu or wall,cpu, each once", list)
		}
	}
	return out, nil
}

func hasMetric(ms []metric, name string) bool {
	for _, m := range ms {
		if m.name == name {
			return true
		}
	}
	return false
}

// measured reports whether every successful run of f measured m (a run
// of an older schema has no CPU time).
func (m metric) measured(f *harness.ABFile) bool {
	for _, side := range []*harness.File{f.Base, f.Head} {
		for _, r := range side.Results {
			for _, run := range r.Runs {
				if !run.Failed && m.value(run) <= 0 {
					return false
				}
			}
		}
	}
	return true
}

// run is r as the decision code sees it when judging m: WallNs carries
// m's value; the passes' wall times go with any other metric.
func (m metric) run(r harness.Run) harness.Run {
	if m.name == wallMetric.name {
		return r
	}
	r.WallNs = m.value(r)
	r.PassNs = nil
	return r
}

// file is f with every run as m's (metric.run): f itself for wall time.
func (m metric) file(f *harness.File) *harness.File {
	if m.name == wallMetric.name {
		return f
	}
	g := *f
	g.Warnings = slices.Clone(f.Warnings)
	g.Results = make([]harness.Result, len(f.Results))
	for i, r := range f.Results {
		g.Results[i] = r
		g.Results[i].Runs = make([]harness.Run, len(r.Runs))
		for j, run := range r.Runs {
			g.Results[i].Runs[j] = m.run(run)
		}
	}
	harness.Summarize(&g)
	return &g
}

// rowLabel is the label of a benchmark's row in metric k of ms: the
// benchmark's own when one metric is judged, else followed by the metric's
// name.
func rowLabel(label string, ms []metric, k int) string {
	if len(ms) == 1 {
		return label
	}
	return label + " [" + ms[k].name + "]"
}

// metricNames lists the metrics' names, comma-separated.
func metricNames(ms []metric) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.name
	}
	return strings.Join(names, ",")
}
