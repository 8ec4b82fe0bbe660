package impls_test

import (
	"context"
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/boxroot"
	"github.com/rootbench/rootbench/impls/ocaml"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// BenchmarkSyncShare lives beside the catalog, not in workload/msgpass,
// because it needs two real cells and a workload imports no implementation.
//
// It measures the message-passing workload's own synchronisation cost per
// batch (Treiber stack push and pop, MAX_DELAY bookkeeping and waits,
// wake-ups) as the ocaml control cell sees it, and sets it against
// boxroot's time at BATCH_SIZE 1024.
//
// The control at BATCH_SIZE 1 spends one batch's synchronisation and one
// cell's work per batch, so its ns/batch is an upper bound on the
// synchronisation cost per batch (MAX_DELAY stays 128 batches, so waits are
// also 1024 times more frequent per cell than at BATCH_SIZE 1024: another
// overestimate). Spread over a batch of 1024 cells, that bound is compared
// with boxroot's ns/cell at BATCH_SIZE 1024, measured in the same benchmark:
// sync-%-of-boxroot must stay below 5.
func BenchmarkSyncShare(b *testing.B) {
	perBatch := measure(b, ocaml.New(), 1, 100_000)
	boxrootPerCell := measure(b, boxroot.New(boxroot.Options{}), 1024, 200)
	b.ReportMetric(perBatch, "sync-ns/batch")
	b.ReportMetric(boxrootPerCell, "boxroot-ns/cell")
	b.ReportMetric(100*perBatch/1024/boxrootPerCell, "sync-%-of-boxroot")
}

// measure runs the parallel workload b.N times and returns ns per cell.
func measure[C any](b *testing.B, impl cell.Impl[C], batch, niters int) float64 {
	p := msgpass.DefaultParams()
	p.BatchSize, p.NIters = batch, niters
	var wall, cells float64
	for i := 0; i < b.N; i++ {
		res, err := msgpass.Run(context.Background(), impl, p)
		if err != nil {
			b.Fatal(err)
		}
		wall += float64(res.Wall.Nanoseconds())
		cells += float64(res.Cells)
	}
	return wall / cells
}
