//go:build !race

package boxroot

import "github.com/rootbench/rootbench/cell"

// BenchmarkHandleCrossThread's "dropin-private" case is the drop-in API's
// fast paths, code for code (pin, pop or push, unpin), with each worker's
// cache its own instead of its P's: "pinned-floor" in the shape of
// NewHandle and Delete. Beside "boxroot-handle" it tells what the cache
// being the P's costs from what the code around it costs. Not under
// -race, like the fast paths it copies.
func init() {
	crossCases = append(crossCases, crossCaseOf("dropin-private",
		func() cell.Impl[Handle] { return &privImpl{} }))
}

type privImpl struct{ floorCounts }

func (fi *privImpl) NewDomain() cell.Domain[Handle] { return &privDomain{fi: fi} }

type privDomain struct {
	_                [64]byte
	fi               *privImpl
	creates, deletes int64
	c                pcache
}

// privNew is NewHandle's fast path on cache c; 0 when c is empty.
//
//go:noinline
func privNew(c *pcache, v any) Handle {
	var h Handle
	procPin()
	if c != nil {
		h = c.pop()
	}
	if h != 0 {
		procUnpin()
		stdSlot(h).v = v
		return h
	}
	procUnpin()
	return 0
}

// privDelete is Delete's fast path on cache c; false, with h's slot
// freed, when c is full.
//
//go:noinline
func privDelete(c *pcache, h Handle) bool {
	free(stdLive(h), h)
	procPin()
	if c != nil && c.pushFreed(h+tagOne) {
		procUnpin()
		return true
	}
	procUnpin()
	return false
}

func (d *privDomain) Create(v any) Handle {
	d.creates++
	if h := privNew(&d.c, v); h != 0 {
		return h
	}
	unpinnedRefill(&d.c)
	return privNew(&d.c, v)
}

func (d *privDomain) Get(h Handle) any { return h.Value() }

func (d *privDomain) Delete(h Handle) {
	d.deletes++
	if !privDelete(&d.c, h) {
		// h's slot is freed: cache its next handle after a flush.
		unpinnedFlush(&d.c)
		d.c.pushFreed(h + tagOne)
	}
}

func (d *privDomain) Close() {
	std.mu.Lock()
	giveToPools(d.c.handles())
	std.mu.Unlock()
	d.c.top, d.c.bottom = 0, 0
	d.fi.closed(&d.creates, &d.deletes)
}
