//go:build !race

package boxroot

import (
	"sync"

	"github.com/rootbench/rootbench/cell"
)

// BenchmarkHandleCrossThread's "pdomain-floor" case prices another design
// for the drop-in API: a domain of the domain API per P instead of a cache
// of handles per P. Create and Delete pin, take their P's domain and run
// its fast path pinned (Delete's slow path too: it never blocks). Create's
// slow path unpins, takes pdomainMu, so that no two slow paths wait for
// Impl.mu while pinned, pins again and runs on whichever P's domain it is
// then on. It is not a usable API (one implementation at a time, domains
// never closed, no capacity check pinned): only what such a design costs
// in message passing. Not under -race, which does not see the pins'
// exclusion.
func init() {
	crossCases = append(crossCases, crossCaseOf("pdomain-floor",
		func() cell.Impl[Handle] { return newPdomainImpl() }))
}

var (
	pdomainMu sync.Mutex
	pdomains  [maxCaches]*Domain
)

type pdomainImpl struct {
	floorCounts
	im *Impl
}

func newPdomainImpl() *pdomainImpl {
	fi := &pdomainImpl{im: New(Options{})}
	for i := range pdomains {
		pdomains[i] = fi.im.NewLocalDomain()
	}
	return fi
}

func (fi *pdomainImpl) NewDomain() cell.Domain[Handle] { return &pdomainDomain{fi: fi} }

type pdomainDomain struct {
	_                [64]byte // apart from the previous worker's domain
	fi               *pdomainImpl
	creates, deletes int64
	_                [64]byte // apart from the next worker's domain
}

// pdomainOf returns P id's domain, at a constant address for Ps 0 and 1
// (a short form of the drop-in API's tree).
func pdomainOf(id int) *Domain {
	switch id {
	case 0:
		return pdomains[0]
	case 1:
		return pdomains[1]
	}
	return pdomains[id]
}

func (d *pdomainDomain) Create(v any) Handle {
	d.creates++
	h := pdomainOf(procPin()).create(v, noSlowCreate)
	procUnpin()
	if h == 0 {
		pdomainMu.Lock()
		h = pdomainOf(procPin()).createSlow(v)
		procUnpin()
		pdomainMu.Unlock()
	}
	return h
}

func (d *pdomainDomain) Get(h Handle) any { return d.fi.im.Get(h) }

func (d *pdomainDomain) Delete(h Handle) {
	d.deletes++
	pdomainOf(procPin()).Delete(h)
	procUnpin()
}

func (d *pdomainDomain) Close() { d.fi.closed(&d.creates, &d.deletes) }
