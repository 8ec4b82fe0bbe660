package boxroot

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// std is the allocator behind the drop-in API.
var std = New(Options{})

// pooledDomain is a domain lent out by domainPool. sync.Pool hands each
// item to one goroutine at a time (Get to Put), which is exactly a domain's
// contract; its per-P caches make the domain a goroutine gets usually the
// one it had last, so most deletes stay local.
type pooledDomain struct{ d *domain }

var domainPool = sync.Pool{New: func() any {
	d := std.newDomain()
	w := &pooledDomain{d}
	// When the pool drops w, nobody can use d again: close it, which
	// publishes its pending frees and orphans its pools for adoption.
	runtime.AddCleanup(w, func(d *domain) { d.Close() }, d)
	return w
}}

// NewHandle roots v and returns a handle for it, like runtime/cgo.NewHandle.
// Any goroutine may call it; the handle is valid until Delete.
func NewHandle(v any) Handle {
	w := domainPool.Get().(*pooledDomain)
	h := w.d.Create(v)
	domainPool.Put(w)
	return h
}

// Value returns the value rooted by a handle from NewHandle. It panics if
// the handle is invalid or deleted (as far as can be detected: a slot may
// have been reused by a later NewHandle).
func (h Handle) Value() any { return std.get(h) }

// Delete releases a handle from NewHandle; any goroutine may call it. It
// panics if the handle is invalid or already deleted.
//
// It needs no domain: the slot is pushed onto its pool's delayed list with
// one CAS (the eager remote path), which is cheaper than borrowing a domain
// from the sync.Pool; the pool's owner takes the list back in place when it
// runs out of room.
func (h Handle) Delete() {
	p, s := std.lookup(h)
	if s == nil || isFree(*s) {
		std.invalid(h)
	}
	i := int32(uintptr(h)-1) & slotMask
	*s = link(endOfList) // the slot is ours until the CAS publishes it
	p.push(s, i, 1)
}

// StdStats returns the counters of the allocator behind the drop-in API.
// Deletes through Handle.Delete take no domain and are not counted, so its
// live count is the number of handles ever created; count deletes yourself
// (as HandleImpl does) if you need live handles.
func StdStats() map[string]int64 { return std.Stats() }

// HandleImpl returns the drop-in API as a cell ("boxroot-handle"): every
// domain is a thin wrapper around NewHandle, Value and Delete. Its Live
// counts the cells created and deleted through its own domains, exactly
// once they are closed.
func HandleImpl() cell.Impl[Handle] { return &handleImpl{} }

type handleImpl struct {
	creates, deletes atomic.Int64 // totals of closed domains
}

func (hi *handleImpl) NewDomain() cell.Domain[Handle] { return &handleDomain{hi: hi} }

// Live implements cell.Liver.
func (hi *handleImpl) Live() int64 { return hi.creates.Load() - hi.deletes.Load() }

// Stats implements cell.Stater: the drop-in allocator's counters, with live
// and remote_deletes replaced by this cell's own exact counts (the drop-in
// Delete takes no domain, so the allocator does not count it).
func (hi *handleImpl) Stats() map[string]int64 {
	s := std.Stats()
	s["live"] = hi.Live()
	s["remote_deletes"] = hi.deletes.Load()
	return s
}

type handleDomain struct {
	hi               *handleImpl
	creates, deletes int64
}

func (hd *handleDomain) Create(v any) Handle {
	hd.creates++
	return NewHandle(v)
}

func (hd *handleDomain) Get(h Handle) any { return h.Value() }

func (hd *handleDomain) Delete(h Handle) {
	h.Delete()
	hd.deletes++
}

func (hd *handleDomain) Close() {
	hd.hi.creates.Add(hd.creates)
	hd.hi.deletes.Add(hd.deletes)
	hd.creates, hd.deletes = 0, 0
}
