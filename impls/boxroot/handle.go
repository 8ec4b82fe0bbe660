package boxroot

import (
	mathbits "math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rootbench/rootbench/cell"
)

// std is the allocator behind the drop-in API: its directory and pools,
// but no domains (see stripe).
var std = New(Options{})

// stripe is one of the drop-in API's allocation stripes: a set of pools
// and, among them, the current pool that NewHandle claims slots from. A
// drop-in pool keeps its free slots in a bitmap (pool.free, a set bit is
// a free slot) rather than on a free list: NewHandle claims a slot by
// clearing its bit with one CAS and Delete frees it by setting the bit
// with one atomic OR. So a handle's whole life costs two atomic
// operations, no lock and no link to write, and a bitmap word, unlike a
// list head, has no ABA problem: a CAS that succeeds clears a bit that was
// set, whatever happened in between.
type stripe struct {
	// cur is the pool NewHandle claims from; nil before the first.
	cur atomic.Pointer[pool]
	// mu serialises refill: choosing or allocating the next pool.
	mu sync.Mutex
	_  [64 - 8 - 8]byte // cur and mu on a cache line of their own

	// Under mu: the stripe's pools, and where refill's scan resumes.
	pools []*pool
	scan  int
	_     [64 - 24 - 8]byte
}

// refillScan bounds the pools one refill inspects.
const refillScan = 8

// maxStripes bounds the number of stripes.
const maxStripes = 1024

// stripes holds the stripes; stripeMask+1 of them are used, a power of two of
// at least 64 and 32*GOMAXPROCS (at start-up, at most maxStripes). Two
// goroutines running at once that hash to the same stripe contend on its
// bitmap (measured: 115 ns per handle instead of 9 with two goroutines),
// so there are many more stripes than processors: a given pair collides
// with probability 1/(stripeMask+1). A stripe costs 128 bytes until a
// goroutine uses it, and a pool from then on.
var (
	stripes    [maxStripes]stripe
	stripeMask = func() uintptr {
		n := 64
		for n < 32*runtime.GOMAXPROCS(0) && n < maxStripes {
			n *= 2
		}
		return uintptr(n - 1)
	}()
)

// NewHandle roots v and returns a handle for it, like runtime/cgo.NewHandle.
// Any goroutine may call it; the handle is valid until Delete.
//
// It claims a free slot of the current pool of one of the stripes with one
// CAS. The stripe is hashed from the address of a local variable, that is
// from the calling goroutine's stack: a goroutine keeps coming back to the
// same pool, and goroutines mostly use different ones.
func NewHandle(v any) Handle {
	var probe byte
	// Fibonacci hashing of the stack address in 2 KiB units: goroutine
	// stacks are powers of two of at least 2 KiB, aligned to their size,
	// so goroutines running at once never share a unit (in 4 KiB units,
	// two fresh goroutines often did, and collided on one stripe). Only a
	// hint: a deep call may hash elsewhere.
	st := &stripes[uintptr(uint64(uintptr(unsafe.Pointer(&probe))>>11)*0x9E3779B97F4A7C15>>40)&stripeMask%maxStripes]
	for {
		p := st.cur.Load()
		if p != nil {
			for w := range p.free {
				word := &p.free[w]
				for bits := word.Load(); bits != 0; bits = word.Load() {
					b := bits & -bits // the lowest free slot of the word
					if word.CompareAndSwap(bits, bits&^b) {
						// The CAS made the slot ours. The Delete
						// that freed it wrote its free mark before
						// its OR, which this CAS observed: so this
						// write is ordered after that one.
						i := w<<6 | mathbits.TrailingZeros64(b)
						p.slots[i] = v
						return p.base + Handle(i)
					}
				}
			}
		}
		st.refill(p)
	}
}

// refill makes st's current pool one with room, unless another goroutine
// replaced full (the pool found without room) meanwhile. It looks at a few
// of st's pools, resuming where the last refill stopped, for one with at
// least reuseMin free slots, and allocates a pool if none has. So when a
// pool is allocated, the pools looked at are all at least 15/16 full, and
// over successive refills every pool of the stripe is looked at.
//
//go:noinline
func (st *stripe) refill(full *pool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cur.Load() != full {
		return
	}
	refills.Add(1)
	for k := 0; k < refillScan && k < len(st.pools); k++ {
		st.scan = (st.scan + 1) % len(st.pools)
		if p := st.pools[st.scan]; p != full && p.freeSlots() >= reuseMin {
			st.cur.Store(p)
			return
		}
	}
	std.mu.Lock()
	p := std.allocPool()
	std.mu.Unlock()
	// p is on no stripe yet: its bitmap is ours until the Store below
	// publishes it to NewHandle (which then reads it after its Load).
	for w := range p.free {
		p.free[w].Store(^uint64(0))
	}
	st.pools = append(st.pools, p)
	st.cur.Store(p)
}

// freeSlots counts p's free slots in its bitmap, as of now.
func (p *pool) freeSlots() (n int) {
	for w := range p.free {
		n += mathbits.OnesCount64(p.free[w].Load())
	}
	return n
}

// Value returns the value rooted by a handle from NewHandle. It panics if
// the handle is invalid or deleted (as far as can be detected: a slot may
// have been reused by a later NewHandle).
func (h Handle) Value() any { return std.Get(h) }

// Delete releases a handle from NewHandle; any goroutine may call it. It
// panics if the handle is invalid or already deleted. It writes the slot's
// free mark and sets the slot's bit in its pool's bitmap with one atomic
// OR.
func (h Handle) Delete() {
	p, s := std.lookup(h)
	if s == nil || markedFree(s) {
		std.invalid(h)
	}
	// The slot is ours until its bit is set: the free mark (which drops
	// the value) is written before, and the OR orders it before the write
	// of the NewHandle whose CAS claims the slot next.
	*s = link(endOfList)
	i := uintptr(h) & slotMask
	p.free[i>>6].Or(1 << (i & 63))
}

// refills counts the drop-in stripes' refills (pool switches), under
// their mutexes: rare, so an atomic counter costs nothing that matters.
var refills atomic.Int64

// StdStats returns the counters of the allocator behind the drop-in API:
// pools (allocated; drop-in pools are never released, so this is also the
// peak) and refills (a stripe's switches to another pool, allocated or
// reused). NewHandle and Delete count nothing (a shared counter would cost
// an atomic operation each); count handles yourself (as HandleImpl does)
// if you need them. A stripe allocates a pool only when the pools its
// refill looked at are all at least 15/16 full, so pools follows the peak
// of drop-in handles live at once.
func StdStats() map[string]int64 {
	std.mu.Lock()
	pools := std.pools
	std.mu.Unlock()
	return map[string]int64{"pools": pools, "refills": refills.Load()}
}

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

// Stats implements cell.Stater: StdStats, with this cell's own exact
// counts of creates, deletes and live handles (the drop-in API counts
// nothing itself).
func (hi *handleImpl) Stats() map[string]int64 {
	s := StdStats()
	s["creates"] = hi.creates.Load()
	s["deletes"] = hi.deletes.Load()
	s["live"] = hi.Live()
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
