package report

import (
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// result builds a Result whose runs took walls (seconds), with the given
// statistics fields set by hand (the harness computes them in real files).
func result(label string, mean, sd, min, max float64, walls ...float64) harness.Result {
	return harnesstest.SeedResult(label, map[string]string{"batch-size": "1024", "niters": "100000"},
		harnesstest.Stats{Mean: mean, Stddev: sd, Min: min, Max: max}, walls...)
}

// seedFile is the seed benchmark's three fastest cells, boxroot first (not
// the fastest), ocaml the reference.
func seedFile() *harness.File {
	f := harnesstest.File()
	f.Tool.Version = "v0.1.0"
	f.Params = map[string]string{"batch-size": "1024", "niters": "100000"}
	f.Reference = "ocaml"
	f.StartedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Results = []harness.Result{
		result("boxroot", 1.686, 0.013, 1.670, 1.710, 1.670, 1.680, 1.685, 1.686, 1.690, 1.700, 1.710, 1.675, 1.688, 1.676),
		result("ocaml", 0.776, 0.012, 0.760, 0.790, 0.760, 0.770, 0.776, 0.780, 0.790, 0.775, 0.778, 0.772, 0.781, 0.778),
		result("ocaml-ref", 2.681, 0.006, 2.670, 2.690, 2.670, 2.680, 2.681, 2.684, 2.690, 2.679, 2.682, 2.683, 2.680, 2.681),
	}
	return f
}
