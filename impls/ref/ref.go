// Package ref implements the `ref` cell: a fresh heap box holding the value.
//
// It is the counterpart of the `ocaml-ref` cell of OCaml's boxroot
// benchmark. Create allocates a Box holding the value; whoever holds the
// *Box keeps the value reachable, so the garbage collector does all the
// rooting work. Delete clears the box (it holds a tombstone afterwards, which
// drops the reference to the value) and the GC frees the box once nobody
// holds it.
//
// Invalid use is cheap to detect and panics with a message starting with
// "ref: ": a nil cell, a second Delete, and Get after Delete (the tombstone
// check is one type-word comparison).
//
// Live cells are counted by plain per-domain counters (a domain is used by
// one goroutine at a time); a remote Delete decrements the deleting domain's
// counter, so one domain's count may go negative. Close adds the domain's
// count to the implementation's atomic total, so Live is exact, and
// race-free, once every domain that did work has been closed.
package ref

import (
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// Box is a ref cell: a heap box holding one rooted value.
type Box struct {
	v any
}

// tombstone is what a deleted Box holds. It is a type of its own, so no
// rooted value can be mistaken for it.
type tombstone struct{}

// New returns a ref implementation. Its cells are *Box.
func New() cell.Impl[*Box] { return &impl{} }

type impl struct {
	live atomic.Int64 // sum of the counts published by closed domains
}

func (m *impl) NewDomain() cell.Domain[*Box] { return &domain{m: m} }

// Live implements cell.Liver: cells created and not deleted, counting the
// work of closed domains only.
func (m *impl) Live() int64 { return m.live.Load() }

type domain struct {
	m *impl
	// n is this domain's creates minus its deletes. Only the domain's own
	// goroutine touches it; Close publishes it into m.live.
	n int64
}

func (d *domain) Create(v any) *Box {
	d.n++
	return &Box{v: v}
}

func (d *domain) Get(c *Box) any {
	if c == nil {
		panic("ref: Get of a nil cell")
	}
	v := c.v
	if _, dead := v.(tombstone); dead {
		panic("ref: Get of a deleted cell")
	}
	return v
}

func (d *domain) Delete(c *Box) {
	if c == nil {
		panic("ref: Delete of a nil cell")
	}
	if _, dead := c.v.(tombstone); dead {
		panic("ref: Delete of a deleted cell (double delete)")
	}
	c.v = tombstone{}
	d.n--
}

func (d *domain) Close() {
	d.m.live.Add(d.n)
	d.n = 0
}
