package boxroot

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
// Invariants, relied on here and in cache.go and depot.go:
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
