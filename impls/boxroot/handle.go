package boxroot

import (
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// std is the allocator behind the drop-in API: its directory and pools,
// with no domains. Its mutex also guards depot. It is a static variable,
// so that the fast paths address its directory without loading a pointer.
var std Impl

func init() { std.init(Options{}) }

// The drop-in API keeps free slots in two tiers, as a memory allocator's
// per-CPU caches over a central free list:
//
//   - a cache per P (pcache): a stack of free slots that NewHandle pops and
//     Delete pushes while pinned to the P, with no atomic operation and no
//     lock;
//   - the depot, under std.mu: every other free slot, in a magazine (a
//     batch of cacheBatch slots as a cache gave it back, passed on whole
//     to the next cache that takes one, without touching the slots) or on
//     its pool's local free list. A cache takes
//     cacheBatch slots from it when empty and gives cacheBatch back when
//     full.
//
// Invariants, relied on below:
//   - a free slot of a drop-in pool is in exactly one place: a cache, the
//     depot (a magazine, or its pool's local list), or in flight between
//     them in a slow
//     path's buffer; its h is the handle its next create returns (see
//     slot), written by the Delete that freed it before the slot left
//     that goroutine's hands;
//   - a drop-in pool is on depot.partial exactly when 0 < local.n <
//     poolSize; at local.n == poolSize every slot is on its local list
//     (none live, cached or in a magazine), and the pool goes to std.empty
//     at once; beyond maxEmpty, empty pools unused for a while are
//     released (see depotTrim);
//   - so a pool with a live, cached or magazine slot is never released;
//   - a pool is allocated only when the depot has no free slot: then every
//     slot of every pool is live, cached or in flight, and the pools number
//     at most (live + cached + in flight) / poolSize, rounded up.
const (
	// cacheSize is the capacity of a P's cache, in slots.
	cacheSize = 256
	// cacheBatch is what a cache takes from or gives to the depot at once.
	cacheBatch = cacheSize / 2
	// maxCaches bounds the Ps that have a cache; goroutines on a P with a
	// higher id go to the depot every time.
	maxCaches = 1024
)

// pcache is one P's cache of free slots, a stack of their handles:
// sl[:n], newest last. It is used only by the goroutine pinned to its P
// (see cache_norace.go). It holds handles rather than slot pointers: a
// handle is the value NewHandle returns, so popping one yields the result
// at once, and Delete pushes the next handle of the slot it frees (h +
// tagOne) without waiting for the directory load. The loop a create/delete
// workload runs is then carried by one stored and reloaded word rather
// than a chain of dependent loads (directory, slot, tag). Handles are
// not pointers, so the cache needs no write barrier and keeps no pool
// reachable; a pool with a cached slot is in the directory (see the
// invariants above). It is a stack so that a goroutine that creates and
// deletes in turn keeps reusing the same few slots, warm in its core's
// cache, where a FIFO of the same size cycles through all its slots.
// BenchmarkHandle compares such choices; results/comment-figures.md
// records what it measured for these two.
type pcache struct {
	_  [64]byte // away from its neighbours in memory
	n  uint
	sl [cacheSize]Handle
	_  [64]byte
}

// pop takes the newest cached handle, or returns 0 (no handle) if there
// is none.
func (c *pcache) pop() Handle {
	if c.n == 0 {
		return 0
	}
	c.n--
	return c.sl[c.n%cacheSize]
}

// push caches h, or returns false if the cache is full.
func (c *pcache) push(h Handle) bool {
	if c.n == cacheSize {
		return false
	}
	c.sl[c.n%cacheSize] = h
	c.n++
	return true
}

// caches are the Ps' caches, by P id. A static array rather than
// pointers made on demand, so that the fast paths reach a P's cache by
// arithmetic, not by one more load; it holds no pointers, so the garbage
// collector does not scan it, and the operating system backs only the
// pages of the caches that Ps use.
var caches [maxCaches]pcache

// depot is the drop-in API's store of free slots outside the caches.
// Everything in it is guarded by std.mu.
var depot struct {
	// partial is the ring of drop-in pools with free slots on their local
	// lists.
	partial ring
	// mags are the full magazines, spare the emptied ones kept for
	// reuse. magTaken is the clock when a magazine was last taken (see
	// depotTrim).
	mags, spare []*[cacheBatch]Handle
	magTaken    int64
	// refills and flushes count the batches taken and given back; their
	// sum is the depot's clock, which stamps empty pools (pool.lastUsed).
	refills, flushes int64
}

// newHandleSlow takes a batch of free slots from the depot, keeps one for
// v and caches the rest.
//
//go:noinline
func newHandleSlow(v any) Handle {
	var buf [cacheBatch]Handle
	n := depotTake(buf[:])
	if n == 0 {
		panic(std.full())
	}
	h := buf[n-1]
	stash(buf[:n-1])
	stdSlot(h).v = v
	return h
}

// stdSlot returns the slot of a free drop-in handle h, one taken from a
// cache or the depot: its pool is in the directory, since a pool with a
// cached slot is never released.
func stdSlot(h Handle) *slot {
	return &std.dir[uintptr(h)>>poolLog&dirMask].Load().slots[h&slotMask]
}

// stash puts free slots' handles into the calling P's cache; what does
// not fit (or all, on a P without a cache) goes back to the depot.
func stash(free []Handle) {
	if c := pinCache(); c != nil {
		for len(free) > 0 && c.push(free[0]) {
			free = free[1:]
		}
		unpinCache(c)
	}
	if len(free) > 0 {
		depotGive(free)
	}
}

// Value returns the value rooted by a handle from NewHandle. It panics if
// the handle is invalid or deleted, even when its slot has been reused
// since (see the package documentation for the tag's width).
func (h Handle) Value() any { return std.Get(h) }

// stdLive returns the slot of a live drop-in handle h, or panics.
func stdLive(h Handle) *slot {
	p := std.dir[uintptr(h)>>poolLog&dirMask].Load()
	if p == nil {
		panic(invalidHandle{&std, h})
	}
	s := &p.slots[h&slotMask]
	if s.h != h {
		panic(invalidHandle{&std, h})
	}
	return s
}

// free frees the slot s of live handle h: it writes the free mark
// (dropping the value) and advances the tag. The slot is ours (we hold
// its live handle) until it is cached: both writes come before, and the
// cache orders them before the next NewHandle's write of the slot.
func free(s *slot, h Handle) {
	s.v = link(endOfList)
	s.h = h + tagOne
}

// deleteSlow caches h, a freed slot's next handle, when the cache is full
// (giving half of it to the depot) or missing.
//
//go:noinline
func deleteSlow(h Handle) {
	if c := pinCache(); c != nil {
		if c.n == cacheSize {
			// Give back the oldest half, keep the newest (the warmest).
			var buf [cacheBatch]Handle
			copy(buf[:], c.sl[:cacheBatch])
			copy(c.sl[:], c.sl[cacheBatch:])
			c.n -= cacheBatch
			c.push(h)
			unpinCache(c)
			depotGive(buf[:])
			return
		}
		unpinCache(c)
	}
	stash([]Handle{h})
}

// depotTake moves up to len(buf) free slots' handles from the depot into
// buf and returns how many: a magazine, else from the partial pools, oldest first,
// then from an empty pool kept by std or a fresh one. It returns 0 only at
// the capacity limit. It takes and releases std.mu.
func depotTake(buf []Handle) int {
	std.mu.Lock()
	defer std.mu.Unlock()
	depot.refills++
	depotTrim()
	if n := len(depot.mags); len(buf) == cacheBatch && n > 0 {
		m := depot.mags[n-1]
		depot.mags = depot.mags[:n-1]
		depot.magTaken = depot.refills + depot.flushes
		copy(buf, m[:])
		depot.spare = append(depot.spare, m)
		return cacheBatch
	}
	k := 0
	for k < len(buf) {
		p := depot.partial.head
		if p == nil {
			if n := len(std.empty); n > 0 {
				p = std.empty[n-1]
				std.empty[n-1] = nil
				std.empty = std.empty[:n-1]
			} else if p = std.allocPool(); p == nil {
				break // the limit: the caller panics, unlocked
			}
			depot.partial.pushBack(p)
		}
		for ; k < len(buf) && p.local.n > 0; k++ {
			s := &p.slots[linkNext(p.local.head)&slotMask]
			p.local.head = s.v.(*freeMark)
			p.local.n--
			buf[k] = s.h
		}
		if p.local.n == 0 {
			depot.partial.remove(p)
		}
	}
	return k
}

// depotGive puts free slots back in the depot: a whole batch as a
// magazine, else on their pools' local lists. It takes and releases
// std.mu.
func depotGive(free []Handle) {
	std.mu.Lock()
	defer std.mu.Unlock()
	depot.flushes++
	if len(free) == cacheBatch {
		var m *[cacheBatch]Handle
		if n := len(depot.spare); n > 0 {
			m = depot.spare[n-1]
			depot.spare[n-1] = nil
			depot.spare = depot.spare[:n-1]
		} else {
			m = new([cacheBatch]Handle)
		}
		copy(m[:], free)
		depot.mags = append(depot.mags, m)
		return
	}
	giveToPools(free)
	depotTrim()
}

// giveToPools puts free slots back on their pools' local lists; a pool
// whose every slot is back goes to std.empty. Called with std.mu held.
func giveToPools(free []Handle) {
	for _, h := range free {
		// Non-nil: the slot was cached, so its pool is not released.
		p := std.dir[uintptr(h)>>poolLog&dirMask].Load()
		i := int32(uintptr(h) & slotMask)
		s := &p.slots[i]
		s.v = p.local.head
		p.local.head = &marks[i]
		p.local.n++
		if p.local.n == 1 {
			depot.partial.pushBack(p)
		}
		if p.local.n == poolSize {
			// Every slot is on the local list: the pool is ready for
			// reuse as it is.
			depot.partial.remove(p)
			p.lastUsed = depot.refills + depot.flushes
			std.empty = append(std.empty, p)
		}
	}
}

// depotTrim releases the oldest empty drop-in pools beyond maxEmpty that
// have stayed unused for std.idleFactor times the allocator's capacity in
// handle traffic (batches of cacheBatch given back or taken): long enough
// that a workload whose live handles swing between zero and a peak (as
// message passing does) keeps its pools, rather than releasing and
// reallocating them at every swing. Magazines not taken from for as long
// go back to their pools' lists first, so that the pools they hold slots
// of can empty. Called with std.mu held.
func depotTrim() {
	now := depot.refills + depot.flushes
	horizon := int64(std.idleFactor) * std.pools * (poolSize / cacheBatch)
	if len(depot.mags) > 0 && now-depot.magTaken >= horizon {
		for _, m := range depot.mags {
			giveToPools(m[:])
		}
		depot.mags, depot.spare = nil, nil
		depot.magTaken = now
	}
	for len(std.empty) > maxEmpty && now-std.empty[0].lastUsed >= horizon {
		p := std.empty[0]
		std.empty[0] = nil
		std.empty = std.empty[1:]
		std.release(p)
	}
}

// StdStats returns the counters of the allocator behind the drop-in API:
// pools (in the directory now), peak_pools, pools_allocated,
// pools_released, pools_empty (wholly free, kept for reuse), refills and
// flushes (batches of handles the Ps' caches took from and gave back to
// the depot) and magazines (batches the depot holds whole). NewHandle and
// Delete count nothing (a shared counter would cost an atomic operation
// each); count handles yourself (as HandleImpl does) if you need them.
func StdStats() map[string]int64 {
	std.mu.Lock()
	defer std.mu.Unlock()
	return map[string]int64{
		"pools":           std.pools,
		"peak_pools":      std.peak,
		"pools_allocated": std.allocs,
		"pools_released":  std.released,
		"pools_empty":     int64(len(std.empty)),
		"refills":         depot.refills,
		"flushes":         depot.flushes,
		"magazines":       int64(len(depot.mags)),
	}
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
