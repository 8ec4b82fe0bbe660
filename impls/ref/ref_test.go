package ref_test

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/ref"
)

// TestLivePublishedOnClose checks the per-domain counting: a remote delete
// drives one domain's count negative, and the total is exact after Close.
func TestLivePublishedOnClose(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	d := ref.New().NewDomain()
	c := d.Create(nil)
	if got := d.Get(c); got != nil {
		t.Errorf("Get = %v, want nil", got)
	}
	d.Delete(c)
	d.Close()
}

// BenchmarkCreateGetDelete is one cell's whole life in one domain.
func BenchmarkCreateGetDelete(b *testing.B) { celltest.BenchCreateGetDelete(b, ref.New()) }

// BenchmarkBatch creates 1024 cells, then gets and deletes them.
func BenchmarkBatch(b *testing.B) { celltest.BenchBatch(b, ref.New()) }
