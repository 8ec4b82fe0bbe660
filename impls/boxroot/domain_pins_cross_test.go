package boxroot

import "github.com/rootbench/rootbench/cell"

// BenchmarkHandleCrossThread's "domain-pins-floor" case is the domain API
// (one domain per worker, as the "boxroot" case) with the drop-in API's two
// pins put around each Create and Delete: procPin before, procUnpin after,
// as NewHandle and Delete do around their caches. Create's slow path runs
// unpinned, since it may wait for Impl.mu; Delete's never blocks (a remote
// free publishes with a CAS) and stays pinned.
//
// Any drop-in design keeps per-P state, since its callers hold no context,
// and the cheapest safe way Go offers to it is a pin (procPin, as sync.Pool
// does; BenchmarkCalibratePin prices a pin pair beside
// BenchmarkCalibrateCAS's two atomic operations): one pin pair per create
// and per delete.
// The domain API is the cheapest allocator here, and the reference the
// drop-in API's targets are set against. So this case is the least a
// drop-in design that pins per operation can cost in this stream, whatever
// it keeps per P: its ratio to "boxroot" is what the pins alone add to the
// reference.
func init() {
	crossCases = append(crossCases, crossCaseOf("domain-pins-floor",
		func() cell.Impl[Handle] { return &domainPinsImpl{im: New(Options{})} }))
}

type domainPinsImpl struct {
	floorCounts
	im *Impl
}

func (fi *domainPinsImpl) NewDomain() cell.Domain[Handle] {
	return &domainPinsDomain{fi: fi, d: fi.im.NewLocalDomain()}
}

type domainPinsDomain struct {
	_                [64]byte // apart from the previous worker's domain
	fi               *domainPinsImpl
	d                *Domain
	creates, deletes int64
	_                [64]byte // apart from the next worker's domain
}

// noSlowCreate is the slow path the pinned fast path is given: it returns
// 0, so that the real slow path runs after the unpin.
func noSlowCreate(*Domain, any) Handle { return 0 }

func (d *domainPinsDomain) Create(v any) Handle {
	d.creates++
	procPin()
	h := d.d.create(v, noSlowCreate)
	procUnpin()
	if h == 0 {
		h = d.d.createSlow(v)
	}
	return h
}

func (d *domainPinsDomain) Get(h Handle) any { return d.d.Get(h) }

func (d *domainPinsDomain) Delete(h Handle) {
	d.deletes++
	procPin()
	d.d.Delete(h)
	procUnpin()
}

func (d *domainPinsDomain) Close() {
	d.d.Close()
	d.fi.closed(&d.creates, &d.deletes)
}
