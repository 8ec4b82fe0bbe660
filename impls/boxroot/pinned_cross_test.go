package boxroot

import "github.com/rootbench/rootbench/cell"

// BenchmarkHandleCrossThread's "pinned-floor" case is the unpinned floor
// (unpinned_cross_test.go) with the drop-in API's pins put back: each
// worker's cache is still its own, found without the P id, but its fast
// paths pin and unpin around the cache as NewHandle and Delete do. So it
// is what the drop-in API would cost if finding the P's cache were free:
// against "unpinned-floor" it prices the pins in the stream, against
// "boxroot-handle" the finding of the cache.
func init() {
	crossCases = append(crossCases, crossCaseOf("pinned-floor",
		func() cell.Impl[Handle] { return &pinnedImpl{} }))
}

type pinnedImpl struct{ unpinnedImpl }

func (fi *pinnedImpl) NewDomain() cell.Domain[Handle] {
	return &pinnedDomain{unpinnedDomain{floorWorker: floorWorker{fc: &fi.floorCounts}}}
}

type pinnedDomain struct{ unpinnedDomain }

func (d *pinnedDomain) Create(v any) Handle {
	d.creates++
	if d.c.len() == 0 {
		unpinnedRefill(&d.c)
	}
	return pinnedNew(&d.c, v)
}

func (d *pinnedDomain) Delete(h Handle) {
	d.deletes++
	if d.c.len() == cacheSize {
		unpinnedFlush(&d.c)
	}
	pinnedDelete(&d.c, h)
}

// pinnedNew is unpinnedNew with NewHandle's pin around the pop.
//
//go:noinline
func pinnedNew(c *pcache, v any) Handle {
	procPin()
	h := c.pop()
	procUnpin()
	stdSlot(h).v = v
	return h
}

// pinnedDelete is unpinnedDelete with Delete's pin around the push.
//
//go:noinline
func pinnedDelete(c *pcache, h Handle) {
	free(stdLive(h), h)
	procPin()
	c.pushFreed(h + tagOne)
	procUnpin()
}
