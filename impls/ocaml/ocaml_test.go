package ocaml_test

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/ocaml"
)

func TestConformance(t *testing.T) {
	// The cell is the value itself: no invalid use is detectable.
	celltest.Run(t, "ocaml", ocaml.New)
}

func TestNoBookkeeping(t *testing.T) {
	impl := ocaml.New()
	if _, ok := impl.(cell.Liver); ok {
		t.Error("the control implements cell.Liver; it must do no bookkeeping")
	}
	if _, ok := impl.(cell.Stater); ok {
		t.Error("the control implements cell.Stater; it must do no bookkeeping")
	}
}

var sink any

// cellSink makes benchmark cells escape to the heap, as the workload's do.
var cellSink any

// BenchmarkCreateGetDelete is one cell's whole life in one domain; the
// cell escapes to the heap, as in the workload.
func BenchmarkCreateGetDelete(b *testing.B) {
	d := ocaml.New().NewDomain()
	v := new(int)
	b.ReportAllocs()
	for b.Loop() {
		c := d.Create(v)
		cellSink = c
		sink = d.Get(c)
		d.Delete(c)
	}
	d.Close()
}

// BenchmarkBatch creates a batch of 1024 cells, then gets and deletes them,
// as the message-passing workload does.
func BenchmarkBatch(b *testing.B) {
	const batch = 1024
	d := ocaml.New().NewDomain()
	v := new(int)
	cells := make([]any, batch)
	b.ReportAllocs()
	for b.Loop() {
		for i := range cells {
			cells[i] = d.Create(v)
		}
		for _, c := range cells {
			sink = d.Get(c)
			d.Delete(c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/cell")
	d.Close()
}
