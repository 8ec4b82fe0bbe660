package analysis

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
)

// spec is one result of a fixture: a label and its samples in seconds.
type spec struct {
	label   string
	cell    string
	params  map[string]string
	samples []float64
	failed  int
}

// fixture builds a results file holding the given samples as runs, with
// the harness's statistics.
func fixture(specs ...spec) *harness.File {
	f := &harness.File{
		Schema:   harness.Schema,
		Tool:     harness.Tool{Name: "rootbench", Version: "test", GoVersion: "go1.26.0"},
		Machine:  harness.Machine{CPUModel: "Test CPU", LogicalCPUs: 2, GOMAXPROCS: 2, OS: "linux", Arch: "amd64"},
		Workload: "msgpass",
		Unit:     "cell",
		Params:   map[string]string{"scheduler": "parallel", "niters": "1000"},
	}
	idx := 0
	for _, s := range specs {
		cell := s.cell
		if cell == "" {
			cell = s.label
		}
		r := harness.Result{Cell: cell, Label: s.label, Params: s.params}
		for _, v := range s.samples {
			r.Runs = append(r.Runs, harness.Run{Index: idx, WallNs: int64(v * 1e9), Cells: 1_000_000,
				StartedAt: time.Date(2025, 1, 1, 0, 0, idx, 0, time.UTC)})
			idx++
		}
		for range s.failed {
			r.Runs = append(r.Runs, harness.Run{Index: idx, Failed: true, Error: "boom"})
			idx++
		}
		f.Results = append(f.Results, r)
	}
	harness.Summarize(f)
	return f
}

// noisy returns n samples around center with a relative spread (uniform in
// ±spread), from a fixed seed.
func noisy(seed uint64, n int, center, spread float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([]float64, n)
	for i := range out {
		out[i] = center * (1 + spread*(2*rng.Float64()-1))
	}
	return out
}

func scaled(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}

func writeJSON(t testing.TB, path string, f *harness.File) {
	t.Helper()
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
