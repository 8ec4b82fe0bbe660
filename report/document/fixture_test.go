package document

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/rootbench/rootbench/harness"
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

// scanFile is a results file with a batch-size scan over five cells, runs
// interleaved, GC figures filled, statistics computed as the harness does,
// and failedRuns failed runs in its first configuration.
func scanFile(seed uint64, hostname string, slowdown float64, failedRuns int) *harness.File {
	rng := rand.New(rand.NewPCG(seed, 1))
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	f := &harness.File{
		Schema: harness.Schema,
		Tool: harness.Tool{Name: "rootbench", Version: "v0.1.0", Revision: "abc1234", GoVersion: "go1.26.0",
			CommandLine: []string{"rootbench", "run", "--parameter-list", "batch-size=16,256,4096"}},
		Machine: harness.Machine{Hostname: hostname, CPUModel: "Test CPU @ 3.0GHz", LogicalCPUs: 2, GOMAXPROCS: 2,
			OS: "linux", Arch: "amd64", Kernel: "6.1.0", Governor: "performance", LoadAvg: []float64{0.1, 0.2, 0.3}, MemoryBytes: 8 << 30},
		Workload:  "msgpass",
		Unit:      "cell",
		Params:    map[string]string{"scheduler": "parallel", "niters": "1000", "max-delay": "128"},
		Reference: "ocaml batch-size=16",
		StartedAt: start, FinishedAt: start.Add(90 * time.Second),
	}
	cells := []struct {
		name string
		ns   float64
	}{{"ocaml", 7.76}, {"boxroot", 16.86}, {"ref", 26.81}, {"generational", 92.59}, {"bxboxed", 107.31}}
	sizes := []int{16, 256, 4096}
	for _, c := range cells {
		for _, b := range sizes {
			f.Results = append(f.Results, harness.Result{
				Cell: c.name, Label: fmt.Sprintf("%s batch-size=%d", c.name, b),
				Params: map[string]string{"batch-size": strconv.Itoa(b)},
			})
		}
	}
	idx := 0
	for k := range 8 {
		for i := range f.Results {
			r := &f.Results[i]
			c := cells[i/len(sizes)]
			b := sizes[i%len(sizes)]
			n := int64(1000 * b)
			ns := c.ns * (1 + 8/float64(b)) * slowdown * (1 + 0.02*rng.NormFloat64())
			wall := int64(ns * float64(n))
			run := harness.Run{
				Index: idx, StartedAt: start.Add(time.Duration(idx) * time.Second),
				WallNs: wall, Cells: n,
				GC: harness.GC{Cycles: int64(1 + k%3), CPUTotalNs: wall / 20, CPUPercent: 2.5 + rng.Float64(),
					MaxPauseNs: 40_000 + rng.Int64N(10_000), TotalPauseNs: 90_000, StoppingNs: 5_000 + rng.Int64N(1000),
					PeakHeapBytes: 4<<20 + n*8},
				ProcessWallNs: wall + 2_000_000, PeakRSSBytes: 12<<20 + n*16,
			}
			if i == 0 && k < failedRuns {
				run = harness.Run{Index: idx, Failed: true, Error: "worker exited with status 2",
					StderrTail: "panic: ocaml: value mismatch\n```\ngoroutine 1 [running]:"}
			}
			r.Runs = append(r.Runs, run)
			idx++
		}
	}
	summarize(f)
	return f
}

// summarize fills the statistics as the harness defines them.
func summarize(f *harness.File) {
	var refMean, refStd float64
	for i := range f.Results {
		r := &f.Results[i]
		var xs, per []float64
		r.Failed = 0
		for _, run := range r.Runs {
			if run.Failed {
				r.Failed++
				continue
			}
			xs = append(xs, float64(run.WallNs)/1e9)
			per = append(per, float64(run.WallNs)/float64(run.Cells))
		}
		if len(xs) == 0 {
			continue
		}
		slices.Sort(xs)
		r.Mean, r.Stddev = stat.MeanStdDev(xs, nil)
		r.Median = stat.Quantile(0.5, stat.LinInterp, xs, nil)
		r.Min, r.Max = xs[0], xs[len(xs)-1]
		r.NsPerCell = stat.Mean(per, nil)
		if r.Label == f.Reference {
			refMean, refStd = r.Mean, r.Stddev
		}
	}
	for i := range f.Results {
		r := &f.Results[i]
		if refMean > 0 && r.Mean > 0 {
			r.Relative = r.Mean / refMean
			r.RelativeStddev = r.Relative * math.Sqrt(math.Pow(r.Stddev/r.Mean, 2)+math.Pow(refStd/refMean, 2))
		}
	}
}
