package boxroot

import "testing"

// trimStd releases the drop-in allocator's empty pools beyond maxEmpty as
// if they had idled long enough (the depot releases them only after a
// while of disuse).
func trimStd() {
	std.mu.Lock()
	saved := std.idleFactor
	std.idleFactor = 0
	depotTrim()
	std.idleFactor = saved
	std.mu.Unlock()
}

// resetStdPeak releases the empty pools other tests left beyond maxEmpty
// and makes the drop-in allocator's peak_pools its current pools, so that
// a test measures its own peak.
func resetStdPeak() {
	trimStd()
	std.mu.Lock()
	std.peak = std.pools
	std.mu.Unlock()
}

// forEachCache calls f with every cache and its id, each locked under the
// race detector (pinCacheID). Call it only while no goroutine uses the
// drop-in API.
func forEachCache(f func(id int, c *pcache)) {
	for id := range caches {
		f(id, pinCacheID(id))
		unpinCacheID(id)
	}
}

// cachedPools returns the directory indexes of the pools of the slots in
// the caches and the depot's magazines. Call it only while no
// goroutine uses the drop-in API.
func cachedPools() map[int32]bool {
	seen := map[int32]bool{}
	forEachCache(func(_ int, c *pcache) {
		for _, h := range c.handles() {
			seen[int32(h&indexMask>>poolLog)] = true
		}
	})
	std.mu.Lock()
	defer std.mu.Unlock()
	for _, m := range depot.mags {
		for _, h := range m {
			seen[int32(h&indexMask>>poolLog)] = true
		}
	}
	return seen
}

// cacheCounters returns every cache's top and bottom. Call it only while
// no goroutine uses the drop-in API.
func cacheCounters() [maxCaches][2]uint {
	var tb [maxCaches][2]uint
	forEachCache(func(id int, c *pcache) { tb[id] = [2]uint{c.top, c.bottom} })
	return tb
}

// cachesUsedSince counts the caches that hold a slot now or whose top or
// bottom moved since before (from cacheCounters): those that the drop-in
// code run in between used, one per M (or P, where the fast paths pin).
// A cache whose top and bottom came back to where they were, empty, is
// missed, which tightens a bound that adds one pool per cache. Call it
// only while no goroutine uses the drop-in API.
func cachesUsedSince(before [maxCaches][2]uint) int {
	n := 0
	for id, tb := range cacheCounters() {
		if tb != before[id] || tb[0] != tb[1] {
			n++
		}
	}
	return n
}

// cachedSlots counts the free slots in the caches. Call it only while no
// goroutine uses the drop-in API.
func cachedSlots() int {
	n := 0
	forEachCache(func(_ int, c *pcache) { n += int(c.len()) })
	return n
}

// stdLiveSlots counts the drop-in allocator's live slots (those that hold
// no free mark), pool by directory index. Other tests may leave some. Call
// it only while no goroutine uses the drop-in API.
func stdLiveSlots() (total int64, byPool map[int32]int) {
	byPool = map[int32]int{}
	std.mu.Lock()
	defer std.mu.Unlock()
	for idx := range std.dir {
		p := std.dir[idx].Load()
		if p == nil {
			continue
		}
		for i := range p.slots {
			if _, free := p.slots[i].v.(*freeMark); !free {
				byPool[int32(idx)]++
				total++
			}
		}
	}
	return total, byPool
}

// checkReleased checks the drop-in allocator's pool accounting while no
// goroutine uses it: every pool in the directory is kept empty (at most
// maxEmpty), holds a live slot, or holds a slot some cache or the
// depot's magazines keep.
// It first releases the empty pools beyond maxEmpty (trimStd).
func checkReleased(t testing.TB) {
	t.Helper()
	trimStd()
	s := StdStats()
	if s["pools_allocated"]-s["pools_released"] != s["pools"] {
		t.Errorf("pools: %d allocated - %d released != %d", s["pools_allocated"], s["pools_released"], s["pools"])
	}
	if s["pools_empty"] > maxEmpty {
		t.Errorf("%d empty pools kept, more than %d", s["pools_empty"], maxEmpty)
	}
	_, live := stdLiveSlots()
	cached := cachedPools()
	held := 0
	for idx := range maxPools {
		if live[int32(idx)] > 0 || cached[int32(idx)] {
			held++
		}
	}
	if kept := s["pools"] - s["pools_empty"]; kept > int64(held) {
		t.Errorf("%d pools are neither empty nor hold a live or cached slot (%d hold one): %v", kept-int64(held), held, s)
	}
}
