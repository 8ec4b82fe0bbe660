// Package harnesstest builds results files (harness.File) for tests: a
// file with test tool and machine fields, results from given sample times,
// results shaped like the seed benchmark's with their statistics set by
// hand, a seeded batch-size scan over five cells, and seeded noise. It
// measures nothing; every figure is the caller's or the seed's.
package harnesstest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/rootbench/rootbench/harness"
)

// File returns a results file of the message-passing workload (unit
// "cell") with no results: the schema, a test tool (rootbench "test",
// go1.26.0), a test machine (Test CPU, 2 logical CPUs, GOMAXPROCS 2,
// linux/amd64) and the parameters scheduler=parallel, niters=1000.
func File() *harness.File {
	return &harness.File{
		Schema:   harness.Schema,
		Tool:     harness.Tool{Name: "rootbench", Version: "test", GoVersion: "go1.26.0"},
		Machine:  harness.Machine{CPUModel: "Test CPU", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64"},
		Workload: "msgpass",
		Unit:     "cell",
		Params:   map[string]string{"scheduler": "parallel", "niters": "1000"},
	}
}

// Spec is one result for Add: its label, its cell (the label when empty),
// its own parameters, the wall time of each successful run in seconds,
// and the number of failed runs that follow them.
type Spec struct {
	Label, Cell string
	Params      map[string]string
	Samples     []float64
	Failed      int
}

// SpecCells is the number of cells every run Add makes processes.
const SpecCells = 1_000_000

// Add appends one result per spec to f and returns f. Runs are numbered
// on from the runs f holds, each starting one second after the one before
// from 2025-01-01 00:00 UTC; failed runs carry the error "boom". Add
// computes no statistic (harness.Summarize does).
func Add(f *harness.File, specs ...Spec) *harness.File {
	idx := 0
	for _, r := range f.Results {
		idx += len(r.Runs)
	}
	for _, s := range specs {
		cell := s.Cell
		if cell == "" {
			cell = s.Label
		}
		r := harness.Result{Cell: cell, Label: s.Label, Params: s.Params}
		for _, v := range s.Samples {
			r.Runs = append(r.Runs, harness.Run{Index: idx, WallNs: int64(v * 1e9), Cells: SpecCells,
				StartedAt: time.Date(2025, 1, 1, 0, 0, idx, 0, time.UTC)})
			idx++
		}
		for range s.Failed {
			r.Runs = append(r.Runs, harness.Run{Index: idx, Failed: true, Error: "boom"})
			idx++
		}
		f.Results = append(f.Results, r)
	}
	return f
}

// Noisy returns n samples spread uniformly within ±spread (a fraction)
// around center, drawn from seed.
func Noisy(seed uint64, n int, center, spread float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([]float64, n)
	for i := range out {
		out[i] = center * (1 + spread*(2*rng.Float64()-1))
	}
	return out
}

// Scaled returns xs, each multiplied by k.
func Scaled(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}

// SeedCells is the cells a run of the seed benchmark processes
// (NITERS=100_000 batches of BATCH_SIZE=1024).
const SeedCells = 102_400_000

// Stats are a result's statistics as a results file holds them: the mean
// (also the median), the standard deviation, the minimum and the maximum
// of the wall times, in seconds.
type Stats struct {
	Mean, Stddev, Min, Max float64
}

// SeedResult returns a result named label (its cell too) with params,
// whose i-th run took walls[i] seconds over SeedCells cells, started at
// 2026-01-02 03:04:05 UTC + i seconds, with GC, process and RSS figures
// that grow with i (every GC column has a spread) and the counter
// pools=3. Its statistics are s, set by hand as the harness would have
// written them (user time twice the mean, system time a tenth), whatever
// walls holds.
func SeedResult(label string, params map[string]string, s Stats, walls ...float64) harness.Result {
	r := harness.Result{
		Cell: label, Label: label, Params: params,
		Mean: s.Mean, Stddev: s.Stddev, Median: s.Mean, Min: s.Min, Max: s.Max, CV: s.Stddev / s.Mean,
		UserMean: 2 * s.Mean, SysMean: s.Mean / 10,
		NsPerCell: s.Mean * 1e9 / SeedCells, CellsPerSec: SeedCells / s.Mean,
	}
	for i, wall := range walls {
		r.Runs = append(r.Runs, harness.Run{
			Index: i, WallNs: int64(wall * 1e9), Cells: SeedCells,
			StartedAt:     time.Date(2026, 1, 2, 3, 4, 5+i, 0, time.UTC),
			ProcessWallNs: int64(wall*1e9) + 5e6, UserNs: int64(2 * wall * 1e9), SysNs: int64(wall * 1e8),
			PeakRSSBytes: 20_000_000 + int64(i)*1_000_000,
			GC: harness.GC{
				Cycles: 10 + int64(i), CPUTotalNs: 100_000_000 + int64(i)*10_000_000, CPUPercent: 5 + float64(i),
				MaxPauseNs: 250_000 + int64(i)*10_000, StoppingNs: 1_000 + int64(i)*100,
				HeapAllocBytes: 8 * SeedCells, HeapAllocObjs: SeedCells, PeakHeapBytes: 4_000_000 + int64(i)*500_000,
			},
			Stats: map[string]int64{"pools": 3},
		})
	}
	return r
}

// ScanCells are Scan's cells with their ns per cell at large batches,
// shaped like the boxroot benchmark's (ocaml fastest, bxboxed about 14×
// slower).
var ScanCells = []struct {
	Name string
	Ns   float64
}{{"ocaml", 7.76}, {"boxroot", 16.86}, {"ref", 26.81}, {"generational", 92.59}, {"bxboxed", 107.31}}

// ScanSizes are Scan's batch sizes.
var ScanSizes = []int{16, 256, 4096}

// ScanOptions shape the file Scan builds.
type ScanOptions struct {
	// Seed draws the noise: a seed gives one file.
	Seed uint64
	// Rounds is the number of runs of each configuration; each round runs
	// every configuration once, in file order (interleaved).
	Rounds int
	// Slowdown multiplies every time (1 for none; 0 means 1).
	Slowdown float64
	// Drift multiplies round k's times by 1 + Drift·k: a slow drift over
	// the rounds.
	Drift float64
	// Start is when the first run starts; the runs follow one second apart.
	Start time.Time
	// GC fills every run's GC figures (some drawn from the seed), process
	// wall time and peak RSS.
	GC bool
}

// Scan returns File() holding a batch-size scan: every cell of ScanCells
// at every size of ScanSizes (labels "ocaml batch-size=16", ...), each
// configuration's runs processing 1000·size cells at a time per cell of
// ns·(1 + 8/size), with 2% normal noise. It computes no statistic.
func Scan(o ScanOptions) *harness.File {
	rng := rand.New(rand.NewPCG(o.Seed, 1))
	slowdown := o.Slowdown
	if slowdown == 0 {
		slowdown = 1
	}
	f := File()
	f.Params = map[string]string{"scheduler": "parallel", "niters": "1000", "max-delay": "128"}
	for _, c := range ScanCells {
		for _, b := range ScanSizes {
			f.Results = append(f.Results, harness.Result{
				Cell: c.Name, Label: fmt.Sprintf("%s batch-size=%d", c.Name, b),
				Params: map[string]string{"batch-size": strconv.Itoa(b)},
			})
		}
	}
	idx := 0
	for k := range o.Rounds {
		for i := range f.Results {
			r := &f.Results[i]
			c := ScanCells[i/len(ScanSizes)]
			b := ScanSizes[i%len(ScanSizes)]
			n := int64(1000 * b)
			ns := c.Ns * (1 + 8/float64(b)) * slowdown * (1 + 0.02*rng.NormFloat64()) * (1 + o.Drift*float64(k))
			wall := int64(ns * float64(n))
			run := harness.Run{Index: idx, StartedAt: o.Start.Add(time.Duration(idx) * time.Second), WallNs: wall, Cells: n}
			if o.GC {
				run.GC = harness.GC{Cycles: int64(1 + k%3), CPUTotalNs: wall / 20, CPUPercent: 2.5 + rng.Float64(),
					MaxPauseNs: 40_000 + rng.Int64N(10_000), TotalPauseNs: 90_000, StoppingNs: 5_000 + rng.Int64N(1000),
					PeakHeapBytes: 4<<20 + n*8}
				run.ProcessWallNs, run.PeakRSSBytes = wall+2_000_000, 12<<20+n*16
			}
			r.Runs = append(r.Runs, run)
			idx++
		}
	}
	return f
}
