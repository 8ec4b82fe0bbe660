package document

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// smallFile is scanFile cut to three cells at one batch size: no scan,
// fewer charts (PNG rendering is slow under -race).
func smallFile(seed uint64, hostname string, slowdown float64) *harness.File {
	f := scanFile(seed, hostname, slowdown, 0)
	f.Results = slices.DeleteFunc(f.Results, func(r harness.Result) bool {
		return r.Params["batch-size"] != "4096" || r.Cell == "generational" || r.Cell == "bxboxed"
	})
	f.Reference = "ocaml batch-size=4096"
	summarize(f)
	return f
}

// scanFile is a results file with a batch-size scan over five cells (see
// harnesstest.Scan), eight runs each, interleaved, GC figures filled,
// statistics computed by the harness, and failedRuns failed runs in its
// first configuration.
func scanFile(seed uint64, hostname string, slowdown float64, failedRuns int) *harness.File {
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	f := harnesstest.Scan(harnesstest.ScanOptions{Seed: seed, Rounds: 8, Slowdown: slowdown, Start: start, GC: true})
	f.Tool = harness.Tool{Name: "rootbench", Version: "v0.1.0", Revision: "abc1234", GoVersion: "go1.26.0",
		CommandLine: []string{"rootbench", "run", "--parameter-list", "batch-size=16,256,4096"}}
	f.Machine = harness.Machine{Hostname: hostname, CPUModel: "Test CPU @ 3.0GHz", LogicalCPUs: 2, GOMAXPROCS: 2,
		OS: "linux", Arch: "amd64", Kernel: "6.1.0", Governor: "performance", LoadAvg: []float64{0.1, 0.2, 0.3}, MemoryBytes: 8 << 30}
	f.Reference = "ocaml batch-size=16"
	f.StartedAt, f.FinishedAt = start, start.Add(90*time.Second)
	first := f.Results[0].Runs
	for k := range min(failedRuns, len(first)) {
		first[k] = harness.Run{Index: first[k].Index, Failed: true, Error: "worker exited with status 2",
			StderrTail: "panic: ocaml: value mismatch\n```\ngoroutine 1 [running]:"}
	}
	summarize(f)
	return f
}

// summarize fills the statistics as the harness computes them, and the
// relatives as analysis decides them.
func summarize(f *harness.File) {
	harness.Summarize(f)
	analysis.Annotate(f)
}

// shapedFile is a results file shaped like one of the committed ones: the
// cells crossed with every value of the scanned parameters, five runs
// each, boxroot's fifteen counters on the boxroot cells, GC figures, a
// load warning, and a modified working tree when asked.
func shapedFile(seed uint64, workload, unit string, cells []string, scan map[string][]string, modified bool) *harness.File {
	rng := rand.New(rand.NewPCG(seed, 7))
	f := &harness.File{
		Schema: harness.Schema,
		Tool: harness.Tool{Name: "rootbench", Version: "v0.0.0-20261202165221-d71b328bad32", Revision: "d71b328bad323244081afb2526506aa6a8bdf63e",
			Modified: modified, GoVersion: "go1.26.8", CommandLine: []string{"./bin/rootbench", "run", "--cell", strings.Join(cells, ","), "--runs", "5"}},
		Machine:  harness.Machine{Hostname: "vm", CPUModel: "AMD EPYC", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64", MemoryBytes: 24 << 30},
		Workload: workload, Unit: unit,
		Params:   map[string]string{"batch-size": "1024", "max-delay": "128", "niters": "2000", "payload": "static", "scheduler": "parallel"},
		Warnings: []string{"The load average is 2.31 on 2 logical CPUs: other programs are running and may disturb the measurements."},
	}
	combos := []map[string]string{{}}
	for _, k := range slices.Sorted(maps.Keys(scan)) {
		var next []map[string]string
		for _, c := range combos {
			for _, v := range scan[k] {
				m := maps.Clone(c)
				m[k] = v
				next = append(next, m)
			}
		}
		combos = next
	}
	idx := 0
	for _, combo := range combos {
		for ci, cell := range cells {
			label := cell
			for _, k := range slices.Sorted(maps.Keys(combo)) {
				label += " " + k + "=" + combo[k]
			}
			r := harness.Result{Cell: cell, Label: label, Params: combo}
			for range 5 {
				n := int64(2_048_000)
				wall := int64(float64(n) * 10 * float64(ci+1) * (1 + 0.03*rng.NormFloat64()))
				run := harness.Run{Index: idx, WallNs: wall, Cells: n,
					GC:           harness.GC{Cycles: int64(ci), CPUTotalNs: wall / 50, CPUPercent: float64(ci), MaxPauseNs: 100_000, TotalPauseNs: 300_000, StoppingNs: 20_000, PeakHeapBytes: 8 << 20},
					PeakRSSBytes: 20 << 20}
				if strings.HasPrefix(cell, "boxroot") {
					run.Stats = map[string]int64{}
					for k, name := range []string{"creates", "delayed_flushes", "domains_open", "live", "local_deletes", "orphans_adopted", "peak_pools",
						"pools", "pools_allocated", "pools_empty", "pools_orphaned", "pools_released", "remote_deletes", "remote_publishes", "slow_creates"} {
						run.Stats[name] = int64(k%3) * n
					}
				}
				r.Runs = append(r.Runs, run)
				idx++
			}
			f.Results = append(f.Results, r)
		}
	}
	f.Reference = f.Results[0].Label
	summarize(f)
	return f
}

// committedShape is seven files shaped like the committed results/*.json:
// 12, 2, 9, 5, 11, 11 and 36 configurations, six of them measured from a
// modified tree.
func committedShape() ([]*harness.File, []string) {
	all := []string{"ocaml", "boxroot", "ref", "generational", "bxboxed", "cgo-handle", "boxroot-handle",
		"boxroot:force-remote", "boxroot:no-reuse", "boxroot:eager-remote", "boxroot:locked-remote"}
	four := []string{"ocaml", "boxroot", "ref", "cgo-handle"}
	files := []*harness.File{
		shapedFile(1, "msgpass", "cell", four, map[string][]string{"batch-size": {"16", "256", "4096"}}, true),
		shapedFile(2, "msgpass", "cell", []string{"boxroot", "boxroot:no-reuse"}, nil, true),
		shapedFile(3, "callback", "call", []string{"plain", "cthread", "pipe"}, map[string][]string{"handle": {"none", "cgo-handle", "boxroot-handle"}}, true),
		shapedFile(4, "callback", "call", []string{"plain", "cthread", "pipe", "spin", "channel"}, nil, true),
		shapedFile(5, "msgpass", "cell", all, nil, false),
		shapedFile(6, "msgpass", "cell", all, nil, true),
		shapedFile(7, "msgpass", "cell", four, map[string][]string{"producers": {"1", "2", "4"}, "consumers": {"1", "2", "4"}}, true),
	}
	names := []string{"batch-scan.json", "boxroot-10M.json", "callback-handles.json", "callback.json", "msgpass-full.json", "msgpass.json", "scaling.json"}
	return files, names
}
