package celltest

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
)

// benchSink and cellSink keep benchmark results alive; cellSink makes every
// cell escape to the heap, as the workload's cells do (otherwise the
// compiler may keep a box on the stack and measure nothing). They are only
// written: that is their job.
//
//lint:ignore U1000 written, never read, to defeat dead-code elimination
var benchSink, cellSink any

// BenchCreateGetDelete measures one cell's whole life in one domain:
// Create, Get, Delete. Every implementation's package calls it from its own
// BenchmarkCreateGetDelete, so their figures are comparable.
func BenchCreateGetDelete[C any](b *testing.B, impl cell.Impl[C]) {
	d := impl.NewDomain()
	v := new(int)
	b.ReportAllocs()
	for b.Loop() {
		c := d.Create(v)
		cellSink = c
		benchSink = d.Get(c)
		d.Delete(c)
	}
	d.Close()
}

// BenchBatch creates a batch of 1024 cells, then gets and deletes them, as
// the message-passing workload does (here in one domain), and reports
// ns/cell.
func BenchBatch[C any](b *testing.B, impl cell.Impl[C]) {
	const batch = 1024
	d := impl.NewDomain()
	v := new(int)
	cells := make([]C, batch)
	b.ReportAllocs()
	for b.Loop() {
		for i := range cells {
			cells[i] = d.Create(v)
		}
		for _, c := range cells {
			benchSink = d.Get(c)
			d.Delete(c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/cell")
	d.Close()
}
