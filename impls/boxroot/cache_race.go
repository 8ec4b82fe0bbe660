//go:build race

package boxroot

import (
	"sync"
	"unsafe"
)

// Under the race detector the P's cache is guarded by a mutex (one per P
// id, cacheLocks) instead of by pinning: the detector does not know that a
// pinned goroutine has its P to itself, and would report the cache's
// accesses, and the slot writes they order, as races. The mutex orders
// them for the detector. As in the real build (cache_norace.go, whose
// comments say more), a cache is used by one goroutine at a time, and
// NewHandle and Delete do the same work in the same order.

// asmCaches is false: under -race the fast paths take cacheLocks (the
// assembly ones exist only without it, see cache_asm_linux_amd64.go).
const asmCaches = false

// cacheLocks guard the Ps' caches under -race, by P id.
var cacheLocks [maxCaches]sync.Mutex

// NewHandle roots v and returns a handle for it, like runtime/cgo.NewHandle
// (see cache_norace.go).
func NewHandle(v any) Handle {
	if c := pinCache(); c != nil {
		if h := c.pop(); h != 0 {
			unpinCache(c)
			stdSlot(h).v = v
			return h
		}
		unpinCache(c)
	}
	return newHandleSlow(v)
}

// Delete releases a handle from NewHandle (see cache_norace.go).
func (h Handle) Delete() {
	free(stdLive(h), h)
	if c := pinCache(); c != nil {
		if c.pushFreed(h + tagOne) {
			unpinCache(c)
			return
		}
		unpinCache(c)
	}
	deleteSlow(h + tagOne)
}

// Create is NewHandle for HandleImpl's cells (see cache_norace.go).
func (hd *handleDomain) Create(v any) Handle {
	hd.creates++
	return NewHandle(v)
}

// Delete is Handle.Delete for HandleImpl's cells (see cache_norace.go).
func (hd *handleDomain) Delete(h Handle) {
	hd.deletes++
	h.Delete()
}

// pinCache returns the slot cache of the P the caller runs on, locked, or
// nil when the P has none (its id is maxCaches or more).
func pinCache() *pcache {
	id := uint(procPin())
	procUnpin()
	if id < maxCaches {
		cacheLocks[id].Lock()
		return &caches[id]
	}
	return nil
}

// unpinCache ends pinCache; c's index in caches is its P's id.
func unpinCache(c *pcache) {
	id := (uintptr(unsafe.Pointer(c)) - uintptr(unsafe.Pointer(&caches))) / unsafe.Sizeof(*c)
	cacheLocks[id].Unlock()
}
