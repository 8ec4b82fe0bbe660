package harness

import (
	"fmt"
	"math"
)

// Validate checks that f's samples are data the statistics can use: every
// successful run has a positive workload wall time (wall_ns) and a positive
// amount of work (cells), and no figure a run records is negative; the
// GC's CPU share is a finite percentage, and the load around the run (env)
// finite, its steal a fraction. Failed runs are not samples and
// are not checked. The error names the result (its label and position),
// the run and the field, and says what is accepted.
func (f *File) Validate() error {
	for i := range f.Results {
		r := &f.Results[i]
		for j := range r.Runs {
			run := &r.Runs[j]
			if run.Failed {
				continue
			}
			if err := validateRun(run); err != nil {
				return fmt.Errorf("result %q (#%d) run %d of %d: %w", r.Label, i+1, j+1, len(r.Runs), err)
			}
		}
	}
	return nil
}

// validateRun checks one successful run.
func validateRun(run *Run) error {
	positive := []struct {
		name string
		v    int64
		unit string
	}{
		{"wall_ns", run.WallNs, "a positive number of nanoseconds"},
		{"cells", run.Cells, "a positive count of units of work"},
	}
	for _, p := range positive {
		if p.v <= 0 {
			return fmt.Errorf("%s is %d: must be %s", p.name, p.v, p.unit)
		}
	}
	nonNegative := []struct {
		name string
		v    int64
	}{
		{"process_wall_ns", run.ProcessWallNs}, {"user_ns", run.UserNs}, {"sys_ns", run.SysNs},
		{"cpu_user_ns", run.CPUUserNs}, {"cpu_sys_ns", run.CPUSysNs},
		{"peak_rss_bytes", run.PeakRSSBytes},
		{"gc.cycles", run.GC.Cycles}, {"gc.cpu_total_ns", run.GC.CPUTotalNs}, {"gc.cpu_assist_ns", run.GC.CPUAssistNs},
		{"gc.cpu_dedicated_ns", run.GC.CPUDedicatedNs}, {"gc.cpu_idle_ns", run.GC.CPUIdleNs}, {"gc.cpu_pause_ns", run.GC.CPUPauseNs},
		{"gc.max_pause_ns", run.GC.MaxPauseNs}, {"gc.total_pause_ns", run.GC.TotalPauseNs}, {"gc.stopping_ns", run.GC.StoppingNs},
		{"gc.max_stopping_ns", run.GC.MaxStoppingNs}, {"gc.heap_alloc_bytes", run.GC.HeapAllocBytes},
		{"gc.heap_alloc_objects", run.GC.HeapAllocObjs}, {"gc.peak_heap_bytes", run.GC.PeakHeapBytes},
	}
	for _, p := range nonNegative {
		if p.v < 0 {
			return fmt.Errorf("%s is %d: must be zero or more", p.name, p.v)
		}
	}
	if c := run.GC.CPUPercent; math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
		return fmt.Errorf("gc.cpu_percent is %v: must be a finite percentage, zero or more", c)
	}
	return validateEnv(run.Env)
}

// validateEnv checks a run's env, when it has one: finite figures, none
// negative, steal a fraction.
func validateEnv(env *RunEnv) error {
	if env == nil {
		return nil
	}
	for _, x := range []struct {
		name string
		v    float64
	}{{"env.load1", env.Load1}, {"env.steal", env.Steal}, {"env.run_queue", env.RunQueue}} {
		if math.IsNaN(x.v) || math.IsInf(x.v, 0) || x.v < 0 {
			return fmt.Errorf("%s is %v: must be a finite number, zero or more", x.name, x.v)
		}
	}
	if env.Steal > 1 {
		return fmt.Errorf("env.steal is %v: must be a fraction of the CPU time, from 0 to 1", env.Steal)
	}
	return nil
}
