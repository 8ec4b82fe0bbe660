//go:build !race

package boxroot

// The drop-in API's fast paths, pinned to the P: while pinned, no other
// goroutine runs on the P and the goroutine is not preempted, so the P's
// cache is the caller's alone, without an atomic operation or a lock (as
// sync.Pool's per-P private slot). The pin is written out in NewHandle and
// Delete, not in a helper: procPin and procUnpin are calls, which keep a
// helper from being inlined, so a helper would add a call of its own to
// each fast path. cache_race.go has the same fast paths for the race
// detector.

// NewHandle roots v and returns a handle for it, like runtime/cgo.NewHandle.
// Any goroutine may call it; the handle is valid until Delete. It pops a
// free slot's handle from the calling P's cache (no atomic operation, no
// lock) and writes v into the slot; an empty cache takes a batch from the
// depot. When every one of MaxHandles slots is live or cached, it panics
// with an error wrapping ErrFull, no lock held.
func NewHandle(v any) Handle {
	if id := uint(procPin()); id < maxCaches {
		if h := caches[id].pop(); h != 0 {
			procUnpin()
			// The slot is ours: it left the cache. The Delete that
			// freed it wrote it before caching it, ordered by the P.
			stdSlot(h).v = v
			return h
		}
	}
	procUnpin()
	return newHandleSlow(v)
}

// Delete releases a handle from NewHandle; any goroutine may call it. It
// panics if the handle is invalid or already deleted. It checks the
// handle's tag, writes the slot's free mark (dropping the value) and
// advances the tag, then pushes the slot's next handle onto the calling
// P's cache; a full cache gives its oldest half back to the depot.
func (h Handle) Delete() {
	free(stdLive(h), h)
	if id := uint(procPin()); id < maxCaches {
		if caches[id].pushFreed(h + tagOne) {
			procUnpin()
			return
		}
	}
	procUnpin()
	deleteSlow(h + tagOne)
}

// pinCache pins the calling goroutine to its P and returns the P's slot
// cache; the caller has it to itself until unpinCache. It returns nil
// (unpinned) when the P has no cache (its id is maxCaches or more).
// Between the two calls the caller must not block, allocate or take a
// lock. (The slow paths' form of the pin above.)
func pinCache() *pcache {
	if id := uint(procPin()); id < maxCaches {
		return &caches[id]
	}
	procUnpin()
	return nil
}

// unpinCache ends pinCache.
func unpinCache(*pcache) { procUnpin() }
