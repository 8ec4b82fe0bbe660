package report

import (
	"time"

	"github.com/rootbench/rootbench/harness"
)

// result builds a Result whose runs took walls (seconds), with the given
// statistics fields set by hand (the harness computes them in real files).
func result(label string, mean, sd, min, max float64, walls ...float64) harness.Result {
	const cells = 102_400_000
	r := harness.Result{
		Cell: label, Label: label,
		Params: map[string]string{"batch-size": "1024", "niters": "100000"},
		Mean:   mean, Stddev: sd, Median: mean, Min: min, Max: max, CV: sd / mean,
		UserMean: 2 * mean, SysMean: mean / 10,
		NsPerCell: mean * 1e9 / cells, CellsPerSec: cells / mean,
	}
	for i, wall := range walls {
		r.Runs = append(r.Runs, harness.Run{
			Index: i, WallNs: int64(wall * 1e9), Cells: cells,
			ProcessWallNs: int64(wall*1e9) + 5e6, UserNs: int64(2 * wall * 1e9), SysNs: int64(wall * 1e8),
			PeakRSSBytes: 20_000_000 + int64(i)*1_000_000,
			GC: harness.GC{
				Cycles: 10 + int64(i), CPUTotalNs: 100_000_000 + int64(i)*10_000_000, CPUPercent: 5 + float64(i),
				MaxPauseNs: 250_000 + int64(i)*10_000, StoppingNs: 1_000 + int64(i)*100,
				HeapAllocBytes: 8 * cells, HeapAllocObjs: cells, PeakHeapBytes: 4_000_000 + int64(i)*500_000,
			},
		})
	}
	return r
}

// seedFile is the seed benchmark's three fastest cells, boxroot first (not
// the fastest), ocaml the reference.
func seedFile() *harness.File {
	return &harness.File{
		Schema: harness.Schema, Workload: "msgpass", Unit: "cell",
		Tool:      harness.Tool{Name: "rootbench", Version: "v0.1.0", GoVersion: "go1.26.0"},
		Machine:   harness.Machine{OS: "linux", Arch: "amd64", CPUModel: "Test CPU", LogicalCPUs: 2, GOMAXPROCS: 2},
		Params:    map[string]string{"batch-size": "1024", "niters": "100000"},
		Reference: "ocaml",
		StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Results: []harness.Result{
			result("boxroot", 1.686, 0.013, 1.670, 1.710, 1.670, 1.680, 1.685, 1.686, 1.690, 1.700, 1.710, 1.675, 1.688, 1.676),
			result("ocaml", 0.776, 0.012, 0.760, 0.790, 0.760, 0.770, 0.776, 0.780, 0.790, 0.775, 0.778, 0.772, 0.781, 0.778),
			result("ocaml-ref", 2.681, 0.006, 2.670, 2.690, 2.670, 2.680, 2.681, 2.684, 2.690, 2.679, 2.682, 2.683, 2.680, 2.681),
		},
	}
}
