package boxroot

import (
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// The cross-thread floor of the drop-in design: BenchmarkHandleCrossThread's
// "unpinned-floor" case is the drop-in API's caches and depot with the pin
// taken out. Each domain (one per worker goroutine) has a private cache,
// used by its fast paths without procPin (safe: only its goroutine uses
// it), and exchanges batches with the real depot under std.mu as the
// drop-in API does. It is not a usable API: it is what message passing
// would cost through per-P caches of handles if their synchronisation were
// free, the bound on any such design (as BenchmarkCalibrateUnpinned is on
// one goroutine).
func init() {
	crossCases = append(crossCases, crossCaseOf("unpinned-floor",
		func() cell.Impl[Handle] { return &unpinnedImpl{} }))
}

// floorCounts counts the cells of a floor case (this one, dropin-indexed,
// domain-pins-floor), for cell.Liver: its domains add their counts when
// they close.
type floorCounts struct{ creates, deletes atomic.Int64 }

// Live implements cell.Liver.
func (fc *floorCounts) Live() int64 { return fc.creates.Load() - fc.deletes.Load() }

// closed adds a closing domain's counts and zeroes them.
func (fc *floorCounts) closed(creates, deletes *int64) {
	fc.creates.Add(*creates)
	fc.deletes.Add(*deletes)
	*creates, *deletes = 0, 0
}

// floorWorker begins a floor case's worker domain (this one's,
// dropin-indexed's): padding apart from the previous worker's domain, and
// the counts it adds to its implementation's floorCounts when it closes.
type floorWorker struct {
	_                [64]byte // apart from the previous worker's domain
	fc               *floorCounts
	creates, deletes int64
}

// close adds the worker's counts to its implementation's.
func (w *floorWorker) close() { w.fc.closed(&w.creates, &w.deletes) }

type unpinnedImpl struct{ floorCounts }

func (fi *unpinnedImpl) NewDomain() cell.Domain[Handle] {
	return &unpinnedDomain{floorWorker: floorWorker{fc: &fi.floorCounts}}
}

type unpinnedDomain struct {
	floorWorker
	c pcache
}

func (d *unpinnedDomain) Create(v any) Handle {
	d.creates++
	if d.c.len() == 0 {
		unpinnedRefill(&d.c)
	}
	return unpinnedNew(&d.c, v)
}

func (d *unpinnedDomain) Get(h Handle) any { return h.Value() }

func (d *unpinnedDomain) Delete(h Handle) {
	d.deletes++
	if d.c.len() == cacheSize {
		unpinnedFlush(&d.c)
	}
	unpinnedDelete(&d.c, h)
}

// Close gives the private cache back to the pools.
func (d *unpinnedDomain) Close() {
	std.mu.Lock()
	giveToPools(d.c.handles())
	std.mu.Unlock()
	d.c.top, d.c.bottom = 0, 0
	d.close()
}

// unpinnedRefill is depotRefill for a private, empty cache: the same
// fillCache, a new pool when the depot has no free slot.
func unpinnedRefill(c *pcache) {
	std.mu.Lock()
	defer std.mu.Unlock()
	depot.refills++
	for c.len() == 0 {
		if m := fillCache(c); m != nil {
			emptiedMagazine(m)
		} else if c.len() == 0 {
			p := std.emptyPool()
			if p == nil {
				panic(std.full())
			}
			depot.partial.pushBack(p)
		}
	}
}

// unpinnedFlush is deleteSlow's flush (flushCache) for a private, full
// cache.
func unpinnedFlush(c *pcache) {
	std.mu.Lock()
	defer std.mu.Unlock()
	depot.flushes++
	m := spareMagazine()
	flushCache(c, m)
	depot.mags = append(depot.mags, m)
}
