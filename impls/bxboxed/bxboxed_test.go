package bxboxed

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/boxroot"
)

// TestBoxed checks that a cell roots a box, not the value itself: the value
// read back is the one stored, and the boxroot slot holds something else.
func TestBoxed(t *testing.T) {
	t.Parallel()
	m := New()
	d := m.NewDomain()
	v := new(int)
	h := d.Create(v)
	if got := d.Get(h); got != any(v) {
		t.Fatalf("Get = %v, want %v", got, v)
	}
	inner := m.(*impl).inner.Get(h)
	b, ok := inner.(*box)
	if !ok || b.v != any(v) {
		t.Fatalf("boxroot slot holds %T %v, want a *box holding %v", inner, inner, v)
	}
	d.Delete(h)
	d.Close()
	if l := m.(cell.Liver).Live(); l != 0 {
		t.Fatalf("Live() = %d after deleting everything, want 0", l)
	}
	if _, ok := m.(cell.Stater); !ok {
		t.Fatal("bxboxed does not implement cell.Stater")
	}
}

func BenchmarkCreateGetDelete(b *testing.B) {
	for _, c := range []struct {
		name string
		impl cell.Impl[boxroot.Handle]
	}{{"boxroot", boxroot.New(boxroot.Options{})}, {"bxboxed", New()}} {
		b.Run(c.name, func(b *testing.B) {
			d := c.impl.NewDomain()
			v := any(new(int))
			b.ReportAllocs()
			for b.Loop() {
				h := d.Create(v)
				if d.Get(h) != v {
					b.Fatal("wrong value")
				}
				d.Delete(h)
			}
			d.Close()
		})
	}
}
