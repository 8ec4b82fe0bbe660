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
//   - a cache (pcache) per M, the OS thread, where the fast paths run in
//     assembly (linux/amd64 with Go 1.26, see cache_asm_linux_amd64.go),
//     or per P where they pin (procPin, as sync.Pool does): up to
//     cacheSize free slots that NewHandle pops and Delete pushes while no
//     other goroutine can use the cache, with no atomic operation and no
//     lock: inside one assembly call the runtime cannot preempt, or
//     pinned;
//   - the depot, under std.mu: every other free slot, in a magazine
//     (cacheBatch slots as a full cache gave them back, passed on whole to
//     the next empty cache) or on its pool's local free list.
//
// An empty cache takes cacheBatch slots from the depot (depotRefill), a
// full one gives its bottom cacheBatch back (deleteSlow). Both copy the
// handles between the cache and the depot under std.mu with the cache
// pinned, so no free slot is ever outside the two tiers. The fast paths'
// assembly call and the slow paths' pin exclude each other on an M as two
// pins do on a P: neither lets the goroutine leave, or another goroutine
// run on, the M (and the P) until it ends.
//
// Invariants, relied on below:
//
//   - a free slot of a drop-in pool is in exactly one place: a cache, a
//     magazine, or its pool's local list. It moves between them only
//     under std.mu with the cache pinned. Its h is the handle its next
//     create returns (see slot), written by the Delete that freed it
//     before it reached a cache.
//   - A drop-in pool is on depot.partial exactly when 0 < local.n <
//     poolSize. At local.n == poolSize every slot is on its local list
//     (none live, cached or in a magazine), and the pool goes to
//     std.empty at once; beyond maxEmpty, empty pools unused for a while
//     are released (see depotTrim). So a pool with a live, cached or
//     magazine slot is never released, and its directory entry stays set.
//   - A pool is allocated only when the depot has no free slot: then every
//     slot of every pool is live or cached (a slot counts as live from
//     NewHandle's pop to Delete's push), so the pools number at most
//     (live + cached) / poolSize, rounded up, cached being at most
//     cacheSize per cache in use: per M that ran drop-in code (per P where
//     the fast paths pin).
//
// Costs, and the benchmarks that measure them:
//
//   - the fast paths, one goroutine creating and deleting in turn:
//     go test -run XXX -bench 'Calibrate|Handle$' ./impls/boxroot
//     (BenchmarkHandle against the pins, BenchmarkCalibratePin, and
//     against sync.Pool, BenchmarkCalibrateSyncPool; its
//     boxroot-handle-pinned case is the pinned fast paths, where the
//     assembly ones run);
//   - handles created on one thread and deleted on another, where every
//     slot passes through the depot:
//     go test -run XXX -bench HandleCrossThread ./impls/boxroot
//     (boxroot-handle-pinned beside it too) and
//     rootbench run --cell boxroot-handle,boxroot.
const (
	// cacheSize is the capacity of a cache, in slots: at most this many
	// free slots are out of other Ms' (or Ps') reach, per cache.
	cacheSize = 1024
	// cacheBatch is what a cache takes from or gives to the depot at once
	// (one depot visit, under std.mu, per cacheBatch creates or deletes).
	cacheBatch = cacheSize / 2
	// maxCaches bounds the Ms (or Ps) that have a cache; goroutines on
	// one with a higher id go to the depot every time.
	maxCaches = 1024
)

// pcache is one M's (or P's) cache of free slots: a double-ended queue of
// their handles, sl[i%cacheSize] for bottom <= i < top, newest on top.
// Only a goroutine that has its M (or P) to itself uses it: pinned, or
// inside the assembly fast paths (see cache_norace.go).
//
// It holds handles, not slot pointers: a handle is what NewHandle returns,
// so a pop yields the result with no load of the slot, and Delete pushes
// the freed slot's next handle (h + tagOne) with no load either. Handles
// are not pointers, so the cache needs no write barrier, the garbage
// collector does not scan it, and it keeps no pool reachable: a pool with
// a cached slot stays in the directory (see the invariants above), which
// is what stdSlot relies on.
//
// NewHandle pops from the top, and a Delete of the slot the cache handed
// out last pushes it back there, so that a goroutine that creates and
// deletes in turn keeps reusing the same few slots, which stay in its
// core's cache. Every other freed slot goes to the bottom (see
// pushFreed), and a full cache gives its bottom half to the depot.
//
// top and bottom run free: bottom-- below zero wraps, and since cacheSize
// divides 2^64, top-bottom is still the count and i%cacheSize the index.
type pcache struct {
	_           [64]byte // away from its neighbours in memory
	top, bottom uint
	sl          [cacheSize]Handle
	_           [64]byte
}

// len returns the number of cached handles.
func (c *pcache) len() uint { return c.top - c.bottom }

// pop takes the newest cached handle, or returns 0 (no handle) if there
// is none.
func (c *pcache) pop() Handle {
	if c.top == c.bottom {
		return 0
	}
	c.top--
	return c.sl[c.top%cacheSize]
}

// push caches h on top, or returns false if the cache is full.
func (c *pcache) push(h Handle) bool {
	if c.top-c.bottom == cacheSize {
		return false
	}
	c.sl[c.top%cacheSize] = h
	c.top++
	return true
}

// pushFreed caches h, the next handle of a slot Delete freed, or returns
// false if the cache is full.
//
// The slot this cache handed out last goes back on top, where the next pop
// reuses it while it is warm. It is recognised without a record of its own:
// a pop leaves the handle it returns in sl, just above the top, until the
// next push there, so h is that handle's next one. (A stale entry there can
// also match a slot the cache gave to the depot, which then goes on top
// too: this decides placement only, never correctness.) Any other slot goes
// to the bottom, and is reused only after every slot above it. Such a slot
// may come from another cache, and its neighbours in memory (a cache line
// holds two or three slots) may be that cache's top: reused here while
// that cache's thread reuses its neighbour, the two cores would write one
// cache line in turn at every handle (false sharing) for as long as both
// stayed on top. A goroutine that moves to another M (or P) between a
// NewHandle and its Delete brings such a slot, and when it moves back the
// other way the cache it left loses its own top. Below the top it would
// still become the top then; at the bottom, the new top is the next of the
// cache's own slots. The parallel BenchmarkHandle
// (boxroot-handle/parallel) measures this, and TestCachesKeepTheirRegions
// replays the two moves. A consumer of message passing frees only other
// caches' slots, all to the bottom, at the same cost as on top.
func (c *pcache) pushFreed(h Handle) bool {
	if c.top-c.bottom == cacheSize {
		return false
	}
	if h == c.sl[c.top%cacheSize]+tagOne {
		c.sl[c.top%cacheSize] = h
		c.top++
		return true
	}
	c.bottom--
	c.sl[c.bottom%cacheSize] = h
	return true
}

// copyOldest copies the len(dst) oldest cached handles, the bottom ones,
// into dst, oldest first, and leaves them cached; the cache holds at least
// len(dst).
func (c *pcache) copyOldest(dst []Handle) {
	k := copy(dst, c.sl[c.bottom%cacheSize:])
	copy(dst[k:], c.sl[:])
}

// handles returns a copy of the cached handles, oldest first.
func (c *pcache) handles() []Handle {
	all := make([]Handle, c.len())
	c.copyOldest(all)
	return all
}

//go:generate go run gen_cache.go

// caches are the Ms' caches, by M id, where the fast paths run in
// assembly, and the Ps' caches, by P id, where they pin. A static array
// rather than pointers made on demand, so that the fast paths reach a
// cache at a constant address, not by one more load: cache_norace.go
// (written by gen_cache.go) finds the calling M's or P's cache through a
// tree of compares on its id, a constant address per leaf. It holds no
// pointers, so the garbage collector does not scan it, and the operating
// system backs only the pages of the caches in use (8 KiB each).
var caches [maxCaches]pcache

// magazine is a batch of cacheBatch free slots' handles, as a full cache
// gave them back; the depot passes it on whole to the next cache that is
// empty.
type magazine [cacheBatch]Handle

// depot is the drop-in API's store of free slots outside the caches.
// Everything in it is guarded by std.mu.
var depot struct {
	// partial is the ring of drop-in pools with free slots on their local
	// lists.
	partial ring
	// mags are the full magazines, spare the emptied ones kept for
	// reuse. magTaken is the clock when a magazine was last taken (see
	// depotTrim).
	mags, spare []*magazine
	magTaken    int64
	// refills and flushes count the batches taken and given back; their
	// sum is the depot's clock, which stamps empty pools (pool.lastUsed).
	refills, flushes int64
}

// newHandleSlow creates when the calling goroutine's cache is empty (or
// its M or P has none): it takes a free slot from the depot, filling the
// cache on the way (see depotRefill), and writes v into it.
//
//go:noinline
func newHandleSlow(v any) Handle {
	std.mu.Lock()
	h := depotRefill()
	std.mu.Unlock()
	if h == 0 {
		panic(std.full())
	}
	stdSlot(h).v = v
	return h
}

// stdSlot returns the slot of a free drop-in handle h, one taken from a
// cache or the depot: its pool is in the directory, since a pool with a
// cached slot is never released.
func stdSlot(h Handle) *slot {
	return &std.dir[uintptr(h)>>poolLog&dirMask].Load().slots[h&slotMask]
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

// deleteSlow caches h, a freed slot's next handle, when the calling
// goroutine's cache is full (or its M or P has none): the cache's bottom
// cacheBatch slots (see flushCache) go to the depot as a magazine, the top
// ones stay.
//
//go:noinline
func deleteSlow(h Handle) {
	std.mu.Lock()
	defer std.mu.Unlock()
	depot.flushes++
	m := spareMagazine()
	if c := pinCache(); c != nil {
		if c.len() < cacheSize {
			// A goroutine that ran on this M (or P) meanwhile made
			// room, or this goroutine moved to another one.
			c.pushFreed(h)
			unpinCache(c)
			depot.spare = append(depot.spare, m)
		} else {
			flushCache(c, m)
			c.pushFreed(h)
			unpinCache(c)
			depot.mags = append(depot.mags, m)
		}
	} else {
		depot.spare = append(depot.spare, m)
		giveToPools([]Handle{h})
	}
	depotTrim()
}

// spareMagazine returns an empty magazine: a spare one, else a new one.
// Called with std.mu held, unpinned (it may allocate).
func spareMagazine() *magazine {
	if m := popLast(&depot.spare); m != nil {
		return m
	}
	return new(magazine)
}

// flushCache moves the bottom cacheBatch slots of the full cache c (the
// oldest, and other caches' slots) into the empty magazine m; the top ones
// (the warmest) stay. Called with std.mu held and c the caller's (pinned,
// or private).
func flushCache(c *pcache, m *magazine) {
	c.copyOldest(m[:])
	c.bottom += cacheBatch
}

// fillCache fills the empty cache c from the depot: with a whole magazine,
// which it returns emptied (for emptiedMagazine, once unpinned: keeping it
// may allocate), else with up to cacheBatch slots from the partial pools,
// oldest first (c stays empty when they have none). Called with std.mu
// held and c the caller's (pinned, or private).
func fillCache(c *pcache) (emptied *magazine) {
	if m := popLast(&depot.mags); m != nil {
		c.top, c.bottom = uint(copy(c.sl[:], m[:])), 0
		return m
	}
	for p := depot.partial.head; p != nil && c.len() < cacheBatch; p = depot.partial.head {
		for p.local.n > 0 && c.len() < cacheBatch {
			c.push(popPool(p))
		}
	}
	return nil
}

// emptiedMagazine keeps m, a magazine fillCache emptied, as a spare, and
// stamps the time a magazine was last taken (see depotTrim). Called with
// std.mu held, unpinned.
func emptiedMagazine(m *magazine) {
	depot.magTaken = depot.refills + depot.flushes
	depot.spare = append(depot.spare, m)
}

// depotRefill returns a free slot's handle for a create, and fills the
// calling goroutine's cache from the depot on the way: with a whole magazine
// (copied into the cache, the magazine kept as a spare), else with up to
// cacheBatch slots from the partial pools, oldest first. When the depot
// has no free slot, it adds an empty pool kept by std or a fresh one to
// the partial pools, and tries again. It returns 0 only at the capacity
// limit. Called with std.mu held; it pins the goroutine (pinCache) only
// to move handles between the depot and the cache, never while it
// allocates.
func depotRefill() Handle {
	depot.refills++
	depotTrim()
	var added *pool // the pool this refill added to depot.partial, if any
	for {
		if c := pinCache(); c != nil {
			var m *magazine
			if c.len() == 0 { // else a goroutine on this M (or P) refilled it meanwhile
				m = fillCache(c)
			}
			h := c.pop()
			unpinCache(c)
			if m != nil {
				emptiedMagazine(m)
			}
			if h != 0 {
				if added != nil && added.local.n == poolSize {
					// A goroutine on this M (or P) refilled the cache
					// while the pool was being added: it is still
					// wholly free, and goes where such pools belong.
					depot.partial.remove(added)
					added.lastUsed = depot.refills + depot.flushes
					std.empty = append(std.empty, added)
				}
				return h
			}
		} else {
			// An M (or P) without a cache takes one slot, from a pool's list: a
			// magazine goes back to its pools' lists for it if need be.
			if depot.partial.head == nil {
				if m := popLast(&depot.mags); m != nil {
					giveToPools(m[:])
					depot.spare = append(depot.spare, m)
				}
			}
			if p := depot.partial.head; p != nil {
				return popPool(p)
			}
		}
		p := std.emptyPool()
		if p == nil {
			return 0 // the limit: the caller panics, unlocked
		}
		depot.partial.pushBack(p)
		added = p
	}
}

// popPool takes the first free slot off the local list of p, a pool on
// depot.partial, and returns its handle; a pool whose list empties leaves
// depot.partial. Called with std.mu held.
func popPool(p *pool) Handle {
	s := &p.slots[linkNext(p.local.head)&slotMask]
	p.local.head = s.v.(*freeMark)
	if p.local.n--; p.local.n == 0 {
		depot.partial.remove(p)
	}
	return s.h
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
	// Multiplied before it is divided: poolSize / cacheBatch alone is 0
	// when a batch is larger than a pool, and a horizon of 0 would send
	// every magazine back to its pools at every depot visit.
	horizon := int64(std.idleFactor) * std.pools * poolSize / cacheBatch
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
// flushes (batches of handles the caches took from and gave back to
// the depot), magazines (batches the depot holds whole) and
// asm_fast_paths (1 when NewHandle and Delete reach the caches in assembly,
// 0 when they pin: see cache_norace.go), so that a result records which
// fast paths it measured. NewHandle and Delete count nothing (a shared
// counter would cost an atomic operation each); count handles yourself (as
// HandleImpl does) if you need them.
func StdStats() map[string]int64 {
	asm := int64(0)
	if asmCaches {
		asm = 1
	}
	std.mu.Lock()
	defer std.mu.Unlock()
	return map[string]int64{
		"asm_fast_paths":  asm,
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

// HandleImpl returns the drop-in API as a cell ("boxroot-handle"): its
// domains' Create and Delete are NewHandle's and Delete's fast paths
// themselves (cache_norace.go), Get is Value; a domain holds nothing but
// its counts. Its Live counts the cells created and deleted through its
// own domains, exactly once they are closed.
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
	_                [64]byte // a producer's counts and its consumer's apart
	hi               *handleImpl
	creates, deletes int64
	_                [64]byte
}

// handleDomain's Create and Delete are the drop-in API's fast paths
// themselves (cache_norace.go; wrappers under -race, cache_race.go).

func (hd *handleDomain) Get(h Handle) any { return h.Value() }

func (hd *handleDomain) Close() {
	hd.hi.creates.Add(hd.creates)
	hd.hi.deletes.Add(hd.deletes)
	hd.creates, hd.deletes = 0, 0
}
