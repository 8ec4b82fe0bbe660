package analysis

import (
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// The CPU time per unit of work sums the runs that measured it, as the
// wall time's per unit does; failed runs and runs without it stay out.
func TestCPUPerUnit(t *testing.T) {
	t.Parallel()
	r := &harness.Result{Label: "a", Runs: []harness.Run{
		{WallNs: 100, Cells: 10, CPUUserNs: 150, CPUSysNs: 50},
		{WallNs: 100, Cells: 30, CPUUserNs: 300, CPUSysNs: 100},
		{WallNs: 100, Cells: 10},                                               // a worker that did not measure it
		{WallNs: 100, Cells: 10, CPUUserNs: 9000, Failed: true, Error: "boom"}, // failed
	}}
	if ns, ok := CPUPerUnit(r); !ok || ns != 600.0/40 {
		t.Errorf("CPUPerUnit = %v, %t; want %v", ns, ok, 600.0/40)
	}
	v1 := &harness.Result{Label: "b", Runs: []harness.Run{{WallNs: 100, Cells: 10}}}
	if ns, ok := CPUPerUnit(v1); ok || ns != 0 {
		t.Errorf("CPUPerUnit of runs without CPU time = %v, %t; want none", ns, ok)
	}
	f := &harness.File{Results: []harness.Result{*v1}}
	if HasCPU(f) || HasCPU(nil) {
		t.Error("HasCPU of a file without CPU time")
	}
	f.Results = append(f.Results, *r)
	if !HasCPU(f) {
		t.Error("HasCPU misses a result with CPU time")
	}
	Annotate(f)
	if f.Results[0].CPUNsPerCell != 0 || f.Results[1].CPUNsPerCell != 15 {
		t.Errorf("Annotate: cpu_ns_per_cell %v and %v, want 0 and 15", f.Results[0].CPUNsPerCell, f.Results[1].CPUNsPerCell)
	}
	s := Summarize(f)
	if s.Rows[0].HasCPUPerUnit || !s.Rows[1].HasCPUPerUnit || s.Rows[1].CPUPerUnit != 15 {
		t.Errorf("summary rows %+v, %+v: want no CPU figure, then 15", s.Rows[0], s.Rows[1])
	}
	harness.Summarize(f)
	if f.Results[1].CPUNsPerCell != 0 {
		t.Error("harness.Summarize keeps a stale cpu_ns_per_cell")
	}
}
