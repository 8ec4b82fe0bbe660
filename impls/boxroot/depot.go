package boxroot

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
