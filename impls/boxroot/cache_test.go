package boxroot

import (
	"slices"
	"testing"
)

// TestCachesKeepTheirRegions replays what makes two Ps false-share: a
// goroutine moves from P a to P b between a NewHandle and its Delete, and
// later another moves back between its own pair. Each P then loops as
// the parallel BenchmarkHandle does (pop, push back). Each P's top must
// stay among the slots it started with, never beside the other's top:
// neighbouring handles are neighbouring slots in memory, one cache line
// apart at most.
func TestCachesKeepTheirRegions(t *testing.T) {
	t.Parallel()
	var a, b pcache
	for i := range 8 {
		a.push(Handle(100+i) + tagOne) // region of a: slots 100-107
		b.push(Handle(200+i) + tagOne) // region of b: slots 200-207
	}
	loop := func(c *pcache) Handle { // one create and delete in turn
		h := c.pop()
		c.pushFreed(h + tagOne)
		return h & slotMask
	}
	loop(&a)
	loop(&b)
	// a's top, handed out on a, freed on b; then b's top, freed on a.
	b.pushFreed(a.pop() + tagOne)
	a.pushFreed(b.pop() + tagOne)
	for range 3 {
		if ta, tb := loop(&a), loop(&b); ta/100 != 1 || tb/100 != 2 {
			t.Fatalf("tops after two moves: a reuses slot %d, b slot %d; want each its own region (1xx, 2xx)", ta, tb)
		}
	}
}

// TestCacheKeepsItsTop checks where a cache puts a freed slot: the
// slot it handed out last goes back on top (reused next, while warm); any
// other goes to the bottom, and is reused only after every slot above it,
// even when the cache's own top has gone to another cache (see
// pcache.pushFreed).
func TestCacheKeepsItsTop(t *testing.T) {
	t.Parallel()
	h := func(i int) Handle { return Handle(i) + 5*tagOne }
	var c pcache
	for i := 1; i <= 3; i++ {
		c.push(h(i))
	}
	if got := c.pop(); got != h(3) {
		t.Fatalf("pop = %#x, want %#x", got, h(3))
	}
	c.pushFreed(h(7) + tagOne) // another cache's slot: to the bottom
	c.pushFreed(h(3) + tagOne) // its own: on top
	want := []Handle{h(7) + tagOne, h(1), h(2), h(3) + tagOne}
	if got := c.handles(); !slices.Equal(got, want) {
		t.Errorf("cache = %#x, want %#x (oldest first)", got, want)
	}
	// The top goes to another cache and is deleted there: the next top
	// is the cache's own h(2), not the foreign slot.
	c.pop()
	c.pushFreed(h(8) + tagOne)
	if got := c.pop(); got != h(2) {
		t.Errorf("after losing its top, pop = %#x, want its own %#x", got, h(2))
	}
	c.pop() // h(1)
	for _, w := range []Handle{h(7) + tagOne, h(8) + tagOne, 0} {
		if got := c.pop(); got != w {
			t.Errorf("pop = %#x, want %#x (other caches' slots, in the order they came, then none)", got, w)
		}
	}
	for c.len() < cacheSize {
		c.pushFreed(h(3))
	}
	if c.pushFreed(h(4)) || c.push(h(4)) {
		t.Error("a full cache took one more")
	}
	// The bottom half goes to a magazine, oldest first, also across the
	// wrap of the ring.
	var m magazine
	flushCache(&c, &m)
	if c.len() != cacheSize-cacheBatch || m[0] != h(3) {
		t.Errorf("after a flush: %d cached, magazine starts %#x", c.len(), m[0])
	}
}

// TestStdStatsNamesItsFastPaths checks that StdStats says which fast paths
// this build runs: asm_fast_paths is 1 exactly when they are the assembly
// ones (never under -race).
func TestStdStatsNamesItsFastPaths(t *testing.T) {
	got, ok := StdStats()["asm_fast_paths"]
	if want := map[bool]int64{false: 0, true: 1}[asmCaches]; !ok || got != want {
		t.Errorf("StdStats()[asm_fast_paths] = %d (present: %v), want %d", got, ok, want)
	}
}
