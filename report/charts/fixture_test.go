package charts

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// scanFile is a results file with a batch-size scan over five cells (see
// harnesstest.Scan), ten runs each, interleaved, with a slow drift over
// the session.
func scanFile(seed uint64, hostname string, slowdown float64) *harness.File {
	f := harnesstest.Scan(harnesstest.ScanOptions{Seed: seed, Rounds: 10, Slowdown: slowdown, Drift: 0.002,
		Start: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	f.Tool.Version = "v0.1.0"
	f.Machine.Hostname, f.Machine.CPUModel = hostname, "Test CPU @ 3.0GHz"
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
