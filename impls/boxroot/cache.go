package boxroot

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
// a cached slot stays in the directory (see the invariants in handle.go),
// which is what stdSlot relies on.
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
