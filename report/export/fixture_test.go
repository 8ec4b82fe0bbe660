package export

import (
	"time"

	"github.com/rootbench/rootbench/harness"
)

const fixtureCells = 102_400_000

// result builds a Result whose runs took walls (seconds), with the
// statistics fields set by hand (the harness computes them in real files).
func result(label, batch string, mean, sd, min, max float64, walls ...float64) harness.Result {
	r := harness.Result{
		Cell: label, Label: label + " batch-size=" + batch,
		Params: map[string]string{"batch-size": batch, "niters": "100000", "max-delay": "-1"},
		Mean:   mean, Stddev: sd, Median: mean, Min: min, Max: max, CV: sd / mean,
		UserMean: 2 * mean, SysMean: mean / 10,
		NsPerCell: mean * 1e9 / fixtureCells, CellsPerSec: fixtureCells / mean,
	}
	for i, wall := range walls {
		r.Runs = append(r.Runs, harness.Run{
			Index: i, WallNs: int64(wall * 1e9), Cells: fixtureCells,
			StartedAt:     time.Date(2026, 1, 2, 3, 4, 5+i, 0, time.UTC),
			ProcessWallNs: int64(wall*1e9) + 5e6, UserNs: int64(2 * wall * 1e9), SysNs: int64(wall * 1e8),
			PeakRSSBytes: 20_000_000 + int64(i)*1_000_000,
			GC: harness.GC{
				Cycles: 10, CPUTotalNs: 100_000_000, CPUPercent: 5 + float64(i),
				MaxPauseNs: 250_000, StoppingNs: 1_000,
				HeapAllocBytes: 16 * fixtureCells, HeapAllocObjs: fixtureCells, PeakHeapBytes: 4_000_000,
			},
			Stats: map[string]int64{"pools": 3},
		})
	}
	return r
}

// fixture is a small scan: two cells at batch size 1024 and one at 16, the
// last with a failed run; ocaml is the reference.
func fixture() *harness.File {
	f := &harness.File{
		Schema: harness.Schema, Workload: "msgpass", Unit: "cell",
		Tool: harness.Tool{Name: "rootbench", Version: "v0.1.0", Revision: "abc123", GoVersion: "go1.26.0",
			CommandLine: []string{"rootbench", "run", "--cell", "boxroot,ocaml"}},
		Machine: harness.Machine{Hostname: "bench-host", OS: "linux", Arch: "amd64", CPUModel: "Test CPU @ 2.0GHz",
			LogicalCPUs: 2, GOMAXPROCS: 2, LoadAvg: []float64{0.1, 0.2, 0.3}},
		Params:    map[string]string{"niters": "100000", "max-delay": "-1"},
		Reference: "ocaml batch-size=1024",
		StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Warnings:  []string{"CPU frequency scaling is on (governor powersave)"},
		Results: []harness.Result{
			result("boxroot", "1024", 1.686, 0.013, 1.670, 1.710, 1.670, 1.686, 1.710),
			result("ocaml", "1024", 0.776, 0.012, 0.760, 0.790, 0.760, 0.776, 0.790),
			result("boxroot", "16", 2.5, 0.1, 2.4, 2.6, 2.4, 2.6, 2.5),
		},
	}
	last := &f.Results[2]
	last.Runs[2].Failed = true
	last.Runs[2].Error = "exit status 2"
	last.Runs[2].StderrTail = "panic: <boxroot> & co\n"
	last.Failed = 1
	return f
}
