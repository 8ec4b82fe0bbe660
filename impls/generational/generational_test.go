package generational_test

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/generational"
)

func TestStats(t *testing.T) {
	t.Parallel()
	impl := generational.New()
	st := impl.(cell.Stater)
	a, b := impl.NewDomain(), impl.NewDomain()
	var cells []*generational.Box
	for i := range 5 {
		cells = append(cells, a.Create(i))
	}
	cells = append(cells, b.Create(5))
	for _, c := range cells[:4] {
		b.Delete(c)
	}
	if got := st.Stats(); got["registered"] != 2 || got["peak_registered"] != 6 {
		t.Errorf("Stats() = %v, want registered 2, peak_registered 6", got)
	}
	if got := impl.(cell.Liver).Live(); got != 2 {
		t.Errorf("Live() = %d, want 2 (the registry size, exact before Close)", got)
	}
	// The survivors were moved inside the registry; they must still delete.
	a.Delete(cells[4])
	a.Delete(cells[5])
	if got := st.Stats(); got["registered"] != 0 || got["peak_registered"] != 6 {
		t.Errorf("Stats() = %v, want registered 0, peak_registered 6", got)
	}
	a.Close()
	b.Close()
}

// TestForeignCell: a box of another Impl is not in this registry.
func TestForeignCell(t *testing.T) {
	t.Parallel()
	c := generational.New().NewDomain().Create(1)
	d := generational.New().NewDomain()
	defer func() {
		if r := recover(); r == nil {
			t.Error("deleting another implementation's cell did not panic")
		}
	}()
	d.Delete(c)
}

// BenchmarkCreateGetDelete is one cell's whole life in one domain.
func BenchmarkCreateGetDelete(b *testing.B) { celltest.BenchCreateGetDelete(b, generational.New()) }

// BenchmarkBatch creates 1024 cells, then gets and deletes them.
func BenchmarkBatch(b *testing.B) { celltest.BenchBatch(b, generational.New()) }

// BenchmarkParallel has every benchmark goroutine create, get and delete
// through its own domain, all contending for the one registry lock.
func BenchmarkParallel(b *testing.B) {
	impl := generational.New()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		d := impl.NewDomain()
		v := new(int)
		var s any
		for pb.Next() {
			c := d.Create(v)
			s = d.Get(c)
			d.Delete(c)
		}
		_ = s
		d.Close()
	})
}
