package boxroot

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/rootbench/rootbench/cell"
)

// std is the allocator behind the drop-in API.
var std = New(Options{})

// shard is one of the drop-in API's domains, behind a try-lock. lock is 0
// when free and 1 while a goroutine uses d: it is taken with a CAS and
// released with a Store, so everything a holder did to d (and to the pools
// d owns) happens before the next holder's successful CAS. That is exactly
// a domain's contract: one goroutine at a time. The shards' domains are
// never closed.
type shard struct {
	lock atomic.Uint32
	d    *Domain
	_    [64 - 4 - 4 - 8]byte // one shard per cache line
}

// shards holds a power of two of at least 4*GOMAXPROCS (at start-up)
// shards, so that a goroutine seldom finds its shard taken.
var shards, shardMask = func() ([]shard, uintptr) {
	n := 8
	for n < 4*runtime.GOMAXPROCS(0) {
		n *= 2
	}
	s := make([]shard, n)
	for i := range s {
		s[i].d = std.newDomain()
	}
	return s, uintptr(n - 1)
}()

// NewHandle roots v and returns a handle for it, like runtime/cgo.NewHandle.
// Any goroutine may call it; the handle is valid until Delete.
//
// It creates in one of a fixed set of shard domains, each behind a
// try-lock. The first shard tried is hashed from the address of a local
// variable, that is from the calling goroutine's stack: a goroutine keeps
// coming back to the same shard (its pool stays in cache) and goroutines
// mostly start at different shards. A taken shard is skipped, not waited
// for.
func NewHandle(v any) Handle {
	var probe byte
	// Fibonacci hashing of the stack address; only a hint.
	i := uintptr(uint64(uintptr(unsafe.Pointer(&probe))>>10) * 0x9E3779B97F4A7C15 >> 40)
	for tries := 0; ; tries++ {
		s := &shards[i&shardMask]
		if s.lock.Load() == 0 && s.lock.CompareAndSwap(0, 1) {
			return s.create(v)
		}
		i++
		if tries > int(shardMask) {
			// Every shard was taken (their holders were preempted):
			// let them run.
			runtime.Gosched()
			tries = 0
		}
	}
}

// create roots v in s's domain and releases s, even if Create panics.
func (s *shard) create(v any) Handle {
	defer s.lock.Store(0)
	return s.d.Create(v)
}

// Value returns the value rooted by a handle from NewHandle. It panics if
// the handle is invalid or deleted (as far as can be detected: a slot may
// have been reused by a later NewHandle).
func (h Handle) Value() any { return std.Get(h) }

// Delete releases a handle from NewHandle; any goroutine may call it. It
// panics if the handle is invalid or already deleted.
//
// It needs no domain: the slot is pushed onto its pool's delayed list with
// one CAS (the eager remote path), which is cheaper than taking a shard's
// try-lock (a CAS and a Store); the pool's owner takes the list back in
// place when it runs out of room.
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
