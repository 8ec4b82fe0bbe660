package ref_test

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/ref"
)

func TestConformance(t *testing.T) {
	celltest.Run(t, "ref", ref.New, celltest.Detects(celltest.AllMisuse))
}

// TestLivePublishedOnClose checks the per-domain counting: a remote delete
// drives one domain's count negative, and the total is exact after Close.
func TestLivePublishedOnClose(t *testing.T) {
	impl := ref.New()
	live := impl.(cell.Liver)
	a, b := impl.NewDomain(), impl.NewDomain()
	c1, c2, c3 := a.Create(1), a.Create(2), b.Create(3)
	b.Delete(c1) // remote: b's count goes to 0, a's stays at 2
	b.Close()
	if got := live.Live(); got != 0 {
		t.Errorf("Live() = %d after closing b only, want 0 (a's creates are not yet published)", got)
	}
	a.Close()
	if got := live.Live(); got != 2 {
		t.Errorf("Live() = %d after closing both, want 2", got)
	}
	d := impl.NewDomain()
	d.Delete(c2)
	d.Delete(c3)
	d.Close()
	if got := live.Live(); got != 0 {
		t.Errorf("Live() = %d after deleting everything, want 0", got)
	}
}

// TestNilValue: nil is a legitimate value, distinct from a deleted cell.
func TestNilValue(t *testing.T) {
	d := ref.New().NewDomain()
	c := d.Create(nil)
	if got := d.Get(c); got != nil {
		t.Errorf("Get = %v, want nil", got)
	}
	d.Delete(c)
	d.Close()
}

var sink any

// cellSink makes benchmark cells escape to the heap, as the workload's do.
var cellSink any

// BenchmarkCreateGetDelete is one cell's whole life in one domain; the
// cell escapes to the heap, as in the workload.
func BenchmarkCreateGetDelete(b *testing.B) {
	d := ref.New().NewDomain()
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
	d := ref.New().NewDomain()
	v := new(int)
	cells := make([]*ref.Box, batch)
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
