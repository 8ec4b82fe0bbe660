// Package mytable is a handle table written the obvious way: one mutex, a
// slice of slots and a free list of the slots Delete emptied. A handle is a
// slot's index plus one, so the zero handle is never valid.
//
// It is the cell of examples/owncell: what a program brings to rootbench to
// measure its own handles beside cgo.Handle and boxroot.
package mytable

import (
	"fmt"
	"sync"

	"github.com/rootbench/rootbench/cell"
)

// Handle is a slot's index plus one.
type Handle uintptr

// Table is the handle table. Every domain shares it: its mutex guards all
// its fields. Safe for concurrent use.
type Table struct {
	mu    sync.Mutex
	slots []slot
	free  []int // indexes of unused slots, reused last-in first-out
	live  int64 // slots in use
}

type slot struct {
	v    any
	used bool
}

// New returns an empty table, as rootbench and cell/celltest call it: a
// fresh one for every measured pass and every check.
func New() cell.Impl[Handle] { return &Table{} }

// NewDomain implements cell.Impl. The table has no per-domain state: every
// domain is the table itself.
func (t *Table) NewDomain() cell.Domain[Handle] { return domain{t} }

// Live implements cell.Liver: the slots in use, which rootbench and
// celltest check to catch leaks.
func (t *Table) Live() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.live
}

type domain struct{ t *Table }

// Create roots v in a free slot, or in a new one.
func (d domain) Create(v any) Handle {
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live++
	if n := len(t.free); n > 0 {
		i := t.free[n-1]
		t.free = t.free[:n-1]
		t.slots[i] = slot{v: v, used: true}
		return Handle(i + 1)
	}
	t.slots = append(t.slots, slot{v: v, used: true})
	return Handle(len(t.slots))
}

// Get returns the value h roots; it panics on a handle not in use.
func (d domain) Get(h Handle) any {
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.slot(h, "Get").v
}

// Delete empties h's slot, so the value can be collected, and frees it for
// reuse; it panics on a handle not in use.
func (d domain) Delete(h Handle) {
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	*t.slot(h, "Delete") = slot{}
	t.free = append(t.free, int(h)-1)
	t.live--
}

// Close implements cell.Domain: nothing is pending.
func (domain) Close() {}

// slot returns h's slot, or panics naming the table when h is not in use
// (zero, never made, or deleted). t.mu is held.
func (t *Table) slot(h Handle, op string) *slot {
	i := int(h) - 1
	if i < 0 || i >= len(t.slots) || !t.slots[i].used {
		panic(fmt.Sprintf("mytable: %s of invalid handle %d (zero, unknown or deleted)", op, h))
	}
	return &t.slots[i]
}
