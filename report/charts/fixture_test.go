package charts

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/rootbench/rootbench/harness"
)

// scanFile is a results file with a batch-size scan over five cells, runs
// interleaved across configurations, ns per cell shaped like the boxroot
// benchmark's (ocaml fastest, bxboxed about 14× slower).
func scanFile(seed uint64, hostname string, slowdown float64) *harness.File {
	rng := rand.New(rand.NewPCG(seed, 1))
	f := &harness.File{
		Schema:   harness.Schema,
		Tool:     harness.Tool{Name: "rootbench", Version: "v0.1.0", GoVersion: "go1.26.0"},
		Machine:  harness.Machine{Hostname: hostname, CPUModel: "Test CPU @ 3.0GHz", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64"},
		Workload: "msgpass",
		Unit:     "cell",
		Params:   map[string]string{"scheduler": "parallel", "niters": "1000", "max-delay": "128"},
	}
	cells := []struct {
		name string
		ns   float64
	}{{"ocaml", 7.76}, {"boxroot", 16.86}, {"ref", 26.81}, {"generational", 92.59}, {"bxboxed", 107.31}}
	sizes := []int{16, 256, 4096}
	const runs = 10
	for _, c := range cells {
		for _, b := range sizes {
			f.Results = append(f.Results, harness.Result{
				Cell: c.name, Label: fmt.Sprintf("%s batch-size=%d", c.name, b),
				Params: map[string]string{"batch-size": strconv.Itoa(b)},
			})
		}
	}
	idx := 0
	for k := range runs {
		for i := range f.Results {
			r := &f.Results[i]
			c := cells[i/len(sizes)]
			b := sizes[i%len(sizes)]
			n := int64(1000 * b)
			// Small batches cost more per cell; a slow drift over the session.
			ns := c.ns * (1 + 8/float64(b)) * slowdown * (1 + 0.02*rng.NormFloat64()) * (1 + 0.002*float64(k))
			r.Runs = append(r.Runs, harness.Run{
				Index: idx, StartedAt: time.Date(2025, 1, 1, 0, 0, idx, 0, time.UTC),
				WallNs: int64(ns * float64(n)), Cells: n,
			})
			idx++
		}
	}
	return f
}

// gridFile is a scan over producers and consumers (1, 2, 4 each) of four
// cells: 36 configurations, more than one line chart can show.
func gridFile(seed uint64) *harness.File {
	rng := rand.New(rand.NewPCG(seed, 2))
	f := &harness.File{Schema: harness.Schema, Workload: "msgpass", Unit: "cell",
		Params: map[string]string{"batch-size": "1024", "niters": "500"}}
	cells := []struct {
		name string
		ns   float64
	}{{"ocaml", 7}, {"boxroot", 15}, {"ref", 45}, {"cgo-handle", 200}}
	idx := 0
	for _, p := range []int{1, 2, 4} {
		for _, c := range []int{1, 2, 4} {
			for _, cell := range cells {
				r := harness.Result{Cell: cell.name, Label: fmt.Sprintf("%s producers=%d consumers=%d", cell.name, p, c),
					Params: map[string]string{"producers": strconv.Itoa(p), "consumers": strconv.Itoa(c)}}
				for range 5 {
					n := int64(512_000 * p)
					ns := cell.ns * (1 + 0.1*float64(p)) * (1 + 0.03*rng.NormFloat64())
					r.Runs = append(r.Runs, harness.Run{Index: idx, WallNs: int64(ns * float64(n)), Cells: n})
					idx++
				}
				f.Results = append(f.Results, r)
			}
		}
	}
	return f
}

// callbackFile is a callback-workload file whose variants cost about 60
// to 270 ns per call, and 11 to 16 µs for the two that cross threads.
func callbackFile(seed uint64) *harness.File {
	rng := rand.New(rand.NewPCG(seed, 3))
	f := &harness.File{Schema: harness.Schema, Workload: "callback", Unit: "call",
		Params: map[string]string{"calls": "1000000", "handle": "none"}}
	for _, v := range []struct {
		name string
		ns   float64
	}{{"plain", 62.7}, {"cthread", 78.9}, {"pipe", 11568}, {"spin", 273}, {"channel", 15595}} {
		r := harness.Result{Cell: v.name, Label: v.name, Params: map[string]string{"variant": v.name}}
		for k := range 5 {
			const n = 1_000_000
			ns := v.ns * (1 + 0.02*rng.NormFloat64())
			r.Runs = append(r.Runs, harness.Run{Index: k, WallNs: int64(ns * n), Cells: n})
		}
		f.Results = append(f.Results, r)
	}
	return f
}
