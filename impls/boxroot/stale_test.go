package boxroot

import (
	"fmt"
	"testing"
)

// reuseSlot creates handles with create, keeping them live, until one
// names the same slot as h (the same index, another tag); it deletes the
// others with del and returns that one.
func reuseSlot(t *testing.T, h Handle, create func() Handle, del func(Handle)) Handle {
	t.Helper()
	var kept []Handle
	defer func() {
		for _, g := range kept {
			del(g)
		}
	}()
	for range 8 * poolSize {
		g := create()
		if g&indexMask == h&indexMask {
			if g == h {
				t.Fatalf("handle %#x was issued again after its Delete", h)
			}
			return g
		}
		kept = append(kept, g)
	}
	t.Fatalf("the slot of %#x was not reused in %d creates", h, 8*poolSize)
	return 0
}

// TestStaleAfterReuse checks, in both APIs, that a deleted handle panics
// on Get/Value and Delete even once its slot holds a new live value, and
// that the new handle is unharmed.
func TestStaleAfterReuse(t *testing.T) {
	t.Run("domain", func(t *testing.T) {
		im := New(Options{})
		d, other := im.NewLocalDomain(), im.NewLocalDomain()
		defer d.Close()
		defer func() { other.Close() }()
		for _, remote := range []bool{false, true} {
			var h Handle
			if remote {
				// A pool's worth deleted by another domain: its owner
				// takes them back (reuse in place) when it needs room.
				hs := fill(d, poolSize)
				for _, g := range hs {
					other.Delete(g)
				}
				other.Close() // publishes the remote deletes
				other = im.NewLocalDomain()
				h = hs[0]
			} else {
				h = d.Create("old")
				d.Delete(h)
			}
			g := reuseSlot(t, h, func() Handle { return d.Create("new") }, d.Delete)
			for _, misuse := range []struct {
				what string
				f    func()
			}{
				{"Get", func() { d.Get(h) }},
				{"Impl.Get", func() { im.Get(h) }},
				{"Delete", func() { d.Delete(h) }},
				{"remote Delete", func() { other.Delete(h) }},
			} {
				if err := expectPanic(fmt.Sprintf("%s of a stale handle (remote delete %v)", misuse.what, remote), misuse.f); err != nil {
					t.Error(err)
				}
			}
			if got := d.Get(g); got != "new" {
				t.Errorf("the slot's new handle holds %v, want %q", got, "new")
			}
			d.Delete(g)
		}
	})
	t.Run("drop-in", func(t *testing.T) {
		h := NewHandle("old")
		h.Delete()
		g := reuseSlot(t, h, func() Handle { return NewHandle("new") }, Handle.Delete)
		for _, misuse := range []struct {
			what string
			f    func()
		}{{"Value", func() { h.Value() }}, {"Delete", func() { h.Delete() }}} {
			if err := expectPanic(misuse.what+" of a stale handle", misuse.f); err != nil {
				t.Error(err)
			}
		}
		if got := g.Value(); got != "new" {
			t.Errorf("the slot's new handle holds %v, want %q", got, "new")
		}
		g.Delete()
	})
}

// TestCrossAllocator checks that a handle of one allocator given to
// another panics, even where the other has a live slot at the same index.
func TestCrossAllocator(t *testing.T) {
	a, b := New(Options{}), New(Options{})
	da, db := a.NewLocalDomain(), b.NewLocalDomain()
	defer da.Close()
	defer db.Close()
	ha, hb := da.Create("a"), db.Create("b")
	if ha&indexMask != hb&indexMask {
		t.Fatalf("two fresh allocators' first handles %#x and %#x name different slots", ha, hb)
	}
	hd := NewHandle("drop-in")
	defer hd.Delete()
	for _, c := range []struct {
		what string
		f    func()
	}{
		{"Get of a's handle by b", func() { b.Get(ha) }},
		{"Delete of a's handle by b's domain", func() { db.Delete(ha) }},
		{"Value of a domain handle", func() { ha.Value() }},
		{"Get of a drop-in handle by a", func() { a.Get(hd) }},
	} {
		if err := expectPanic(c.what, c.f); err != nil {
			t.Error(err)
		}
	}
	if da.Get(ha) != "a" || db.Get(hb) != "b" || hd.Value() != "drop-in" {
		t.Error("a misuse disturbed a live handle")
	}
}
