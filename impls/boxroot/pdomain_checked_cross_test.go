//go:build !race

package boxroot

import (
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// BenchmarkHandleCrossThread's "pdomain-checked" case is pdomain-floor
// with the two checks a usable API on that design would need in its fast
// paths, to price them:
//
//   - Delete's slow path validates the handle (directory, slot, tag) and
//     unpins before it panics on a stale or foreign one (the fast path
//     checks the slot's tag anyway);
//   - both fast paths load the P's busy flag, set while a slow path uses
//     the P's domain unpinned (it may wait for Impl.mu or allocate), so
//     that no other goroutine on the P uses the domain meanwhile: it takes
//     the slow path too and waits for pdomainMu.
//
// The slow path pins to find its P's domain, marks it busy, unpins, runs
// the domain's slow path, and clears the mark. Still not a usable API (one
// implementation at a time, domains never closed); not under -race, which
// does not see the pins' exclusion.
func init() {
	crossCases = append(crossCases, crossCaseOf("pdomain-checked",
		func() cell.Impl[Handle] { return newPcheckedImpl() }))
}

// pbusy[id] is 1 while a slow path uses P id's domain unpinned. Each flag
// has a cache line of its own. Written by the slow path (atomically, from
// whichever P it is on by then), read by the fast paths pinned to the P.
var pbusy [maxCaches]struct {
	atomic.Int32
	_ [60]byte
}

type pcheckedImpl struct{ *pdomainImpl }

func newPcheckedImpl() *pcheckedImpl { return &pcheckedImpl{newPdomainImpl()} }

func (fi *pcheckedImpl) NewDomain() cell.Domain[Handle] {
	return &pcheckedDomain{pdomainDomain{fi: fi.pdomainImpl}}
}

// pcheckedDomain is pdomain-floor's worker domain (its counts, Get and
// Close) with the checked Create and Delete.
type pcheckedDomain struct{ pdomainDomain }

func (d *pcheckedDomain) Create(v any) Handle {
	d.creates++
	var h Handle
	id := procPin()
	if pbusy[id].Load() == 0 {
		h = pdomainOf(id).create(v, noSlowCreate)
	}
	procUnpin()
	if h == 0 {
		h = pcheckedSlow(func(dom *Domain) Handle { return dom.createSlow(v) })
	}
	return h
}

// pcheckedSlow runs f on the calling P's domain, marked busy, unpinned.
func pcheckedSlow(f func(*Domain) Handle) Handle {
	pdomainMu.Lock()
	defer pdomainMu.Unlock()
	id := procPin()
	pbusy[id].Store(1)
	defer pbusy[id].Store(0) // also if f panics (a full allocator)
	dom := pdomainOf(id)
	procUnpin()
	return f(dom)
}

func (d *pcheckedDomain) Delete(h Handle) {
	d.deletes++
	id := procPin()
	if pbusy[id].Load() == 0 {
		pdomainOf(id).delete(h, pcheckedDeleteSlow)
		procUnpin()
		return
	}
	procUnpin()
	pcheckedSlow(func(dom *Domain) Handle { dom.Delete(h); return 0 })
}

// pcheckedDeleteSlow is the domain's delete slow path, run pinned: it
// validates the handle first, and unpins before it panics on a bad one.
// The fast path validates its own (the slot's tag).
func pcheckedDeleteSlow(d *Domain, h Handle) {
	if _, s := d.im.lookup(h); s == nil {
		procUnpin()
		d.im.invalid(h)
	}
	d.deleteSlow(h)
}
