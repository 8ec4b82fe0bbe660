package celltest

import (
	"fmt"
	"runtime"
	"strconv"
	"weak"
)

// marker is the pointer value the checks root. It holds no finalizer; its
// second field lets a check tell a live marker from memory that was freed
// and reused for another marker.
type marker struct {
	id    int64
	check int64 // always ^id
}

func newMarker(id int64) *marker { return &marker{id: id, check: ^id} }

// makeValue returns the id-th test value: mostly *marker pointers (checked
// by identity), some ints and strings (checked by equality).
func makeValue(id int64) any {
	switch id % 8 {
	case 6:
		return int(id)*3 + 1
	case 7:
		return "v" + strconv.FormatInt(id, 10)
	default:
		return newMarker(id)
	}
}

// expect describes the value a cell must hold without keeping it alive, so
// that a garbage collection can only keep the value if the cell roots it.
type expect struct {
	id  int64
	wp  weak.Pointer[marker] // pointer values: the rooted marker, held weakly
	val any                  // other values, compared with ==
}

func expectOf(id int64, v any) expect {
	if m, ok := v.(*marker); ok {
		return expect{id: id, wp: weak.Make(m)}
	}
	return expect{id: id, val: v}
}

// check reports whether got is the value e describes: the very same pointer
// for markers, an equal value otherwise.
func (e expect) check(got any) error {
	if e.val != nil {
		if got != e.val {
			return fmt.Errorf("value %d: Get returned %#v (%T), want %#v (%T)", e.id, got, got, e.val, e.val)
		}
		return nil
	}
	m, ok := got.(*marker)
	if !ok || m == nil {
		return fmt.Errorf("value %d: Get returned %#v (%T), want the rooted *marker", e.id, got, got)
	}
	reused := "the cell did not keep its value alive: it was collected and its memory reused"
	switch {
	case m.check != ^m.id || m.id == churnID:
		// Overwritten, or one of churn's markers: memory the collector
		// took back and gave out again.
		return fmt.Errorf("value %d: Get returned a marker that is not it (id %d, check %#x): %s", e.id, m.id, m.check, reused)
	case m.id < 0:
		return fmt.Errorf("value %d: Get returned a marker no test gave a cell (id %d): the cell returns a value it was not given", e.id, m.id)
	case m.id < e.id:
		// Made before this value, so not in its memory: another cell's.
		return fmt.Errorf("value %d: Get returned value %d, which an earlier cell holds: the cell resolves to the wrong slot (a handle mix-up, or a slot reused while its cell was live)", e.id, m.id)
	case m.id != e.id:
		return fmt.Errorf("value %d: Get returned value %d, made after it: either the cell resolves to the wrong slot, or %s", e.id, m.id, reused)
	}
	if weak.Make(m) != e.wp {
		return fmt.Errorf("value %d: Get returned a copy of the marker, not the rooted pointer", e.id)
	}
	return nil
}

// checkSame reports whether got is exactly want (pointer identity for
// pointers, equality otherwise).
func checkSame(got, want any) error {
	if got != want {
		return fmt.Errorf("value mismatch: Get returned %#v (%T), want %#v (%T)", got, got, want, want)
	}
	return nil
}

// collect runs two full garbage collections with fresh markers allocated in
// between, so that memory of any value that was not rooted is reclaimed and
// likely reused by a marker holding a different id.
func collect(n int) {
	runtime.GC()
	churn(n)
	runtime.GC()
}

// churnID is the id of churn's markers, which no test value has.
const churnID = -1

// churn allocates n markers that die when it returns.
//
//go:noinline
func churn(n int) {
	g := make([]*marker, n)
	for i := range g {
		g[i] = newMarker(churnID)
	}
	runtime.KeepAlive(g)
}
