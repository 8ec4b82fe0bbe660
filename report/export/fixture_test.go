package export

import (
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// result builds a Result "cell batch-size=batch" whose runs took walls
// (seconds), with the statistics fields set by hand (the harness computes
// them in real files).
func result(cell, batch string, mean, sd, min, max float64, walls ...float64) harness.Result {
	r := harnesstest.SeedResult(cell, map[string]string{"batch-size": batch, "niters": "100000", "max-delay": "-1"},
		harnesstest.Stats{Mean: mean, Stddev: sd, Min: min, Max: max}, walls...)
	r.Label = cell + " batch-size=" + batch
	return r
}

// fixture is a small scan: two cells at batch size 1024 and one at 16, the
// last with a failed run; ocaml is the reference.
func fixture() *harness.File {
	f := harnesstest.File()
	f.Tool = harness.Tool{Name: "rootbench", Version: "v0.1.0", Revision: "abc123", GoVersion: "go1.26.0",
		CommandLine: []string{"rootbench", "run", "--cell", "boxroot,ocaml"}}
	f.Machine.Hostname, f.Machine.CPUModel, f.Machine.LoadAvg = "bench-host", "Test CPU @ 2.0GHz", []float64{0.1, 0.2, 0.3}
	f.Params = map[string]string{"niters": "100000", "max-delay": "-1"}
	f.Reference = "ocaml batch-size=1024"
	f.StartedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Warnings = []string{"CPU frequency scaling is on (governor powersave)"}
	f.Results = []harness.Result{
		result("boxroot", "1024", 1.686, 0.013, 1.670, 1.710, 1.670, 1.686, 1.710),
		result("ocaml", "1024", 0.776, 0.012, 0.760, 0.790, 0.760, 0.776, 0.790),
		result("boxroot", "16", 2.5, 0.1, 2.4, 2.6, 2.4, 2.6, 2.5),
	}
	last := &f.Results[2]
	last.Runs[2].Failed = true
	last.Runs[2].Error = "exit status 2"
	last.Runs[2].StderrTail = "panic: <boxroot> & co\n"
	last.Failed = 1
	return f
}
