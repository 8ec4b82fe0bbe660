// Package generational implements the `generational` cell: a heap box
// registered in one registry under one mutex.
//
// It is the counterpart of the `generational` cell of OCaml's boxroot
// benchmark, which roots each value with caml_register_generational_global_root:
// every root goes into one global table guarded by one lock. Here Create
// allocates a Box, locks the implementation's registry, appends the box and
// unlocks; Delete locks, removes the box (swap with the last entry, O(1)),
// clears it and unlocks. The registry is shared by all domains of an Impl,
// so every Create and Delete of every domain contends for the same mutex:
// that contention, not the data structure, is what this cell measures.
// Get reads the box without locking: the workload's hand-off of a cell
// already orders its Create before any Get.
//
// Invalid use panics with a message starting with "generational: ": a nil
// cell, a second Delete, and Get after Delete. Live is the registry size,
// exact at any time; Stats reports it with its peak.
package generational

import (
	"sync"

	"github.com/rootbench/rootbench/cell"
)

// Box is a generational cell: a heap box holding one rooted value, listed in
// its implementation's registry while live.
type Box struct {
	v any
	// idx is the box's position in the registry, or -1 once deleted. It is
	// read and written only under the registry's mutex: deleting another box
	// may move this one.
	idx int
}

// tombstone is what a deleted Box holds, so that Get can detect use after
// delete without taking the lock. No rooted value can have this type.
type tombstone struct{}

// New returns a generational implementation with an empty registry. Its
// cells are *Box.
func New() cell.Impl[*Box] { return &impl{} }

type impl struct {
	mu   sync.Mutex
	reg  []*Box // every live box; reg[b.idx] == b. Guarded by mu.
	peak int    // largest len(reg) so far. Guarded by mu.
}

func (m *impl) NewDomain() cell.Domain[*Box] { return domain{m} }

// Live implements cell.Liver: the number of registered boxes.
func (m *impl) Live() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return int64(len(m.reg))
}

// Stats implements cell.Stater: the registry's current and peak sizes.
func (m *impl) Stats() map[string]int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return map[string]int64{"registered": int64(len(m.reg)), "peak_registered": int64(m.peak)}
}

// domain holds no state of its own: the registry is global to the Impl.
type domain struct{ m *impl }

func (d domain) Create(v any) *Box {
	b := &Box{v: v}
	m := d.m
	m.mu.Lock()
	b.idx = len(m.reg)
	m.reg = append(m.reg, b)
	if len(m.reg) > m.peak {
		m.peak = len(m.reg)
	}
	m.mu.Unlock()
	return b
}

func (d domain) Get(c *Box) any {
	if c == nil {
		panic("generational: Get of a nil cell")
	}
	v := c.v
	if _, dead := v.(tombstone); dead {
		panic("generational: Get of a deleted cell")
	}
	return v
}

func (d domain) Delete(c *Box) {
	if c == nil {
		panic("generational: Delete of a nil cell")
	}
	m := d.m
	m.mu.Lock()
	i := c.idx
	if i < 0 || i >= len(m.reg) || m.reg[i] != c {
		m.mu.Unlock()
		panic("generational: Delete of a cell that is not registered (double delete, or a cell of another implementation)")
	}
	last := len(m.reg) - 1
	moved := m.reg[last]
	m.reg[i] = moved
	moved.idx = i
	m.reg[last] = nil // drop the registry's reference
	m.reg = m.reg[:last]
	c.idx = -1
	c.v = tombstone{}
	m.mu.Unlock()
}

func (d domain) Close() {}
