package msgpass

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// Test-only cell implementations. They import nothing of the project but
// cell, so these tests do not depend on other packages' state.

// direct is the control cell: the value itself, no rooting work (the OCaml
// benchmark's "ocaml" cell).
type direct struct{}

func (direct) NewDomain() cell.Domain[any] { return directDomain{} }

type directDomain struct{}

func (directDomain) Create(v any) any { return v }
func (directDomain) Get(c any) any    { return c }
func (directDomain) Delete(any)       {}
func (directDomain) Close()           {}

// tbox is a tracked heap box.
type tbox struct {
	v       any
	creator int32
	deleted atomic.Bool
}

// tracked is a correct implementation (a heap box per cell) that records
// what happened: live cells and their peak, per-domain creates, local and
// remote deletes. Misuse (Get or Delete of a deleted cell) panics.
type tracked struct {
	live, peak atomic.Int64
	mu         sync.Mutex
	doms       []*trackedDomain
	closed     atomic.Int32
}

func (t *tracked) NewDomain() cell.Domain[*tbox] {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := &trackedDomain{t: t, id: int32(len(t.doms))}
	t.doms = append(t.doms, d)
	return d
}

func (t *tracked) Live() int64 { return t.live.Load() }

// Stats implements cell.Stater with the sums over domains.
func (t *tracked) Stats() map[string]int64 {
	s := map[string]int64{"peak-live": t.peak.Load(), "closed": int64(t.closed.Load())}
	for _, d := range t.domains() {
		s["created"] += d.created
		s["local-deletes"] += d.local
		s["remote-deletes"] += d.remote
	}
	return s
}

func (t *tracked) domains() []*trackedDomain {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*trackedDomain(nil), t.doms...)
}

type trackedDomain struct {
	t                      *tracked
	id                     int32
	created, local, remote int64
}

func (d *trackedDomain) Create(v any) *tbox {
	n := d.t.live.Add(1)
	for {
		p := d.t.peak.Load()
		if n <= p || d.t.peak.CompareAndSwap(p, n) {
			break
		}
	}
	d.created++
	return &tbox{v: v, creator: d.id}
}

func (d *trackedDomain) Get(c *tbox) any {
	if c.deleted.Load() {
		panic("tracked: Get of a deleted cell")
	}
	return c.v
}

func (d *trackedDomain) Delete(c *tbox) {
	if c.deleted.Swap(true) {
		panic("tracked: double delete")
	}
	c.v = nil
	if c.creator == d.id {
		d.local++
	} else {
		d.remote++
	}
	d.t.live.Add(-1)
}

func (d *trackedDomain) Close() { d.t.closed.Add(1) }

// sharded is a second correct implementation with integer handles: a
// handle table sharded by handle, each shard under its own mutex (a cheap
// runtime/cgo.Handle). Handle 0 is never issued.
type sharded struct {
	next   atomic.Uint64
	live   atomic.Int64
	shards [16]struct {
		mu sync.Mutex
		m  map[uint64]any
	}
}

func newSharded() *sharded {
	s := &sharded{}
	for i := range s.shards {
		s.shards[i].m = map[uint64]any{}
	}
	return s
}

func (s *sharded) NewDomain() cell.Domain[uint64] { return shardedDomain{s} }
func (s *sharded) Live() int64                    { return s.live.Load() }

type shardedDomain struct{ s *sharded }

func (d shardedDomain) Create(v any) uint64 {
	h := d.s.next.Add(1)
	sh := &d.s.shards[h%16]
	sh.mu.Lock()
	sh.m[h] = v
	sh.mu.Unlock()
	d.s.live.Add(1)
	return h
}

func (d shardedDomain) Get(h uint64) any {
	sh := &d.s.shards[h%16]
	sh.mu.Lock()
	v, ok := sh.m[h]
	sh.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("sharded: Get of invalid handle %d", h))
	}
	return v
}

func (d shardedDomain) Delete(h uint64) {
	sh := &d.s.shards[h%16]
	sh.mu.Lock()
	_, ok := sh.m[h]
	delete(sh.m, h)
	sh.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("sharded: Delete of invalid handle %d", h))
	}
	d.s.live.Add(-1)
}

func (shardedDomain) Close() {}

// fault is what a broken implementation gets wrong.
type fault int

const (
	faultNone        fault = iota
	faultPrevious          // one Get returns the value of the previous Get
	faultCopy              // one Get of a fresh value returns a copy of it
	faultForeign           // one Get returns a value of another type
	faultNil               // one Get returns nil
	faultLeak              // one Delete forgets the cell
	faultPanicGet          // one Get panics (consumer side)
	faultPanicNew          // one Create panics (producer side)
	faultPanicClose        // Close panics
	faultPanicDomain       // NewDomain panics for the second domain
	faultHang              // one Create blocks until hold is closed
)

// broken is a heap-box implementation that gets exactly one thing wrong,
// once, at operation number at (counted across all domains).
type broken struct {
	fault fault
	at    int64
	hold  chan struct{} // faultHang
	n     atomic.Int64
	doms  atomic.Int64
	live  atomic.Int64
}

type bbox struct{ v any }

func (b *broken) NewDomain() cell.Domain[*bbox] {
	if b.doms.Add(1) == 2 && b.fault == faultPanicDomain {
		panic("broken: NewDomain failed on purpose")
	}
	return &brokenDomain{b: b}
}

func (b *broken) Live() int64 { return b.live.Load() }

type brokenDomain struct {
	b    *broken
	last any
}

func (d *brokenDomain) now() bool { return d.b.n.Add(1) == d.b.at }

func (d *brokenDomain) Create(v any) *bbox {
	if d.b.fault == faultPanicNew && d.now() {
		panic("broken: Create failed on purpose")
	}
	if d.b.fault == faultHang && d.now() {
		<-d.b.hold
	}
	d.b.live.Add(1)
	return &bbox{v}
}

func (d *brokenDomain) Get(c *bbox) any {
	v := c.v
	switch d.b.fault {
	case faultPrevious, faultCopy, faultForeign, faultNil, faultPanicGet:
		if d.now() {
			switch d.b.fault {
			case faultPrevious:
				v = d.last
			case faultCopy:
				if f, ok := v.(*freshValue); ok {
					cp := *f
					v = &cp
				}
			case faultForeign:
				v = "not the value"
			case faultNil:
				v = nil
			case faultPanicGet:
				panic("broken: Get failed on purpose")
			}
		}
	}
	d.last = c.v
	return v
}

func (d *brokenDomain) Delete(c *bbox) {
	if d.b.fault == faultLeak && d.now() {
		return
	}
	c.v = nil
	d.b.live.Add(-1)
}

func (d *brokenDomain) Close() {
	if d.b.fault == faultPanicClose {
		panic("broken: Close failed on purpose")
	}
}
