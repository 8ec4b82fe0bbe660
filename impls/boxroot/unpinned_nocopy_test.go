package boxroot

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// BenchmarkHandleCrossThread's "nocopy-floor" case is the unpinned floor
// (unpinned_cross_test.go) without its copies either: each worker pops
// from or pushes to a magazine of its own, and hands the depot whole
// magazines by pointer. What remains is what any design that caches
// handles per worker pays besides its synchronisation: the cache's loads
// and stores, the directory lookup of each create, and a depot visit per
// cacheBatch handles. Not a usable API (a private cache per goroutine).
func init() {
	crossCases = append(crossCases, crossCaseOf("nocopy-floor",
		func() cell.Impl[Handle] { return &nocopyImpl{} }))
}

type nocopyImpl struct{ floorCounts }

func (fi *nocopyImpl) NewDomain() cell.Domain[Handle] { return &nocopyDomain{fi: fi} }

// nocopyDomain's magazine m holds n free slots' handles.
type nocopyDomain struct {
	_                [64]byte // apart from the previous worker's domain
	fi               *nocopyImpl
	creates, deletes int64
	m                *magazine
	n                int
	_                [64]byte // apart from the next worker's domain
}

func (d *nocopyDomain) Create(v any) Handle {
	d.creates++
	if d.m == nil || d.n == 0 {
		d.refill()
	}
	d.n--
	h := d.m[d.n]
	stdSlot(h).v = v
	return h
}

func (d *nocopyDomain) Get(h Handle) any { return h.Value() }

func (d *nocopyDomain) Delete(h Handle) {
	d.deletes++
	free(stdLive(h), h)
	if d.m == nil || d.n == cacheBatch {
		d.flush()
	}
	d.m[d.n] = h + tagOne
	d.n++
}

// refill gives the worker a full magazine from the depot, else one filled
// from the partial pools (a new pool if need be).
func (d *nocopyDomain) refill() {
	std.mu.Lock()
	defer std.mu.Unlock()
	d.giveBack()
	if m := popLast(&depot.mags); m != nil {
		d.m, d.n = m, cacheBatch
		return
	}
	d.m = spareMagazine()
	for d.n < cacheBatch {
		p := depot.partial.head
		if p == nil {
			if p = std.emptyPool(); p == nil {
				panic(std.full())
			}
			depot.partial.pushBack(p)
		}
		d.m[d.n] = popPool(p)
		d.n++
	}
}

// flush gives the worker's full magazine to the depot and takes an empty
// one.
func (d *nocopyDomain) flush() {
	std.mu.Lock()
	defer std.mu.Unlock()
	if d.m != nil {
		depot.mags = append(depot.mags, d.m)
	}
	d.m, d.n = spareMagazine(), 0
}

func (d *nocopyDomain) Close() {
	std.mu.Lock()
	d.giveBack()
	std.mu.Unlock()
	d.fi.closed(&d.creates, &d.deletes)
}

// giveBack returns the worker's magazine, if any, to the depot: its slots
// to their pools' lists, the magazine as a spare. Called with std.mu held.
func (d *nocopyDomain) giveBack() {
	if d.m != nil {
		giveToPools(d.m[:d.n])
		depot.spare = append(depot.spare, d.m)
		d.m, d.n = nil, 0
	}
}

// TestCrossCasesRun runs every case of BenchmarkHandleCrossThread once,
// small, with two producers and two consumers: the workload checks every
// value and that no cell stays live, so a floor that lost or mixed up a
// slot fails here rather than only skewing a benchmark.
func TestCrossCasesRun(t *testing.T) {
	for _, c := range crossCases {
		p := msgpass.DefaultParams()
		p.Producers, p.Consumers, p.NIters = 2, 2, 20
		if _, err := c.run(p); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
