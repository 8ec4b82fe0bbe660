//go:build !race

package boxroot

import "github.com/rootbench/rootbench/cell"

// BenchmarkHandleCrossThread's "dropin-indexed" case is the drop-in API with
// its fast paths pinned and addressing the cache by its id (pinID's: the
// M's where the real fast paths run in assembly, the P's where they pin),
// &caches[id], as they did before the tree of compares on the id
// (cache_norace.go): the same caches, depot and slow paths, with every
// load of the cache waiting for the id's chain of loads. Beside
// "boxroot-handle" it measures what the tree saves, in the same
// invocation. Not under -race, where the caches are guarded by locks
// instead of pins.
func init() {
	crossCases = append(crossCases, crossCaseOf("dropin-indexed",
		func() cell.Impl[Handle] { return &indexedImpl{} }))
}

type indexedImpl struct{ floorCounts }

func (fi *indexedImpl) NewDomain() cell.Domain[Handle] {
	return &indexedDomain{floorWorker: floorWorker{fc: &fi.floorCounts}}
}

type indexedDomain struct {
	floorWorker
	_ [64]byte // apart from the next worker's domain
}

func (d *indexedDomain) Create(v any) Handle {
	d.creates++
	if id := uint(pinID()); id < maxCaches {
		if h := caches[id].pop(); h != 0 {
			procUnpin()
			stdSlot(h).v = v
			return h
		}
	}
	procUnpin()
	return newHandleSlow(v)
}

func (d *indexedDomain) Get(h Handle) any { return h.Value() }

func (d *indexedDomain) Delete(h Handle) {
	d.deletes++
	free(stdLive(h), h)
	if id := uint(pinID()); id < maxCaches {
		if caches[id].pushFreed(h + tagOne) {
			procUnpin()
			return
		}
	}
	procUnpin()
	deleteSlow(h + tagOne)
}

func (d *indexedDomain) Close() { d.close() }
