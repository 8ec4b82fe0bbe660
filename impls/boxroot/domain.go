package boxroot

// Domain is one worker's context: a current pool that Create pops from, and
// a ring of the other pools it owns. It is used by one goroutine at a time;
// everything but mirror is private to that goroutine. It implements
// cell.Domain[Handle]; Go callers that hold the concrete *Domain (from
// Impl.NewLocalDomain) call its methods directly, without the interface's
// dynamic dispatch, and Get is inlined into them.
type Domain struct {
	im   *Impl
	opts Options
	// cur is the pool Create pops from: noPool before the first Create and
	// after Close, never nil, so that the fast paths need no nil check.
	cur *pool
	// delPool and delList are what Delete's fast path frees into: a live
	// slot of delPool is pushed onto delList. In local mode they are cur
	// and its local list; in remote mode, the pending chain's pool and the
	// chain, from the chain's start to its publication (see remoteMode);
	// noPool (on which the fast path always fails) while there is neither,
	// and in local mode with ForceRemote.
	delPool *pool
	delList *freeList
	// delIdx is delPool's directory index (as the 16 bits of a handle
	// above its slot index carry it), so that Delete's fast path tells
	// delPool's handles without reading the pool.
	delIdx uint16
	// last is the pool of the last handle found through the directory, a
	// cache for Get and Delete (see find).
	last *pool
	ring ring // the other pools this domain owns, oldest first
	pend pending
	// taken counts the creates since the last settle; curN is cur's
	// local list length as of then (see settle).
	taken int64
	curN  int32
	c     counters
	// switches counts pool switches since the last trim, trimAt is when
	// the next one is due; sinceFlush does the same for no-reuse's sweep.
	switches, trimAt, sinceFlush int
	closed                       bool

	_ [64]byte // Stats readers touch only mirror

	// mirror is c as of the last slow path, for Stats and Live.
	mirror atomicCounters
}

// pending is a chain of slots of one pool that this domain freed remotely
// and has not yet published: list.head links to ... links to tail, the
// first slot freed, whose link is rewritten when the chain is pushed. The
// chain is private to the domain until its CAS succeeds.
type pending struct {
	p    *pool
	list freeList
	tail int32
}

// Create roots v and returns its handle.
func (d *Domain) Create(v any) Handle { return d.create(v, (*Domain).createSlow) }

// create is Create with its slow path passed in. The inliner charges a call
// through a parameter 17 and a direct call 57, out of a budget of 80: so
// create inlines into Create, and Create into its callers. The slow path
// is then called through a func value (an indirect call, which the
// compiler does not turn back into a direct one), only when the fast path
// fails.
func (d *Domain) create(v any, slow func(*Domain, any) Handle) Handle {
	p := d.cur
	if i := linkNext(p.local.head); i != endOfList {
		// Owner-only fields and our own free slots: no atomics needed.
		// The slot's h is already the handle to return (see slot).
		s := &p.slots[i&slotMask]
		p.local.head = s.v.(*freeMark)
		s.v = v
		d.taken++
		return s.h
	}
	return slow(d, v)
}

// createSlow finds the domain a pool with room and creates there.
//
//go:noinline
func (d *Domain) createSlow(v any) Handle {
	if d.closed {
		panic(d.im.name + ": Create on a closed domain")
	}
	d.settle()
	d.c.slowCreates++
	d.refill()
	d.mirror.store(d.c)
	return d.Create(v)
}

// settle brings the current pool's list length and the domain's counters
// up to date. Create has no room in the inliner's budget to decrement the
// length: it counts in taken, and settle subtracts. Deletes into cur, by
// the fast path or not, add to the length: the local deletes since the
// last settle are what it gained since, curN.
func (d *Domain) settle() {
	if p := d.cur; p != noPool {
		d.c.localDeletes += int64(p.local.n - d.curN)
		p.local.n -= int32(d.taken)
		d.curN = p.local.n
	}
	d.c.creates += d.taken
	d.taken = 0
}

// refill makes d.cur a pool with a free slot on its local list.
func (d *Domain) refill() {
	if p := d.cur; p != noPool {
		// Reuse in place (OCaml boxroot's flush_delayed_fl): the current
		// pool is full; if other domains have freed enough of it, its
		// delayed list becomes its free list.
		if !d.opts.NoReuse && p.delayedLen() >= reuseMin {
			d.take(p)
			return
		}
		d.setCur(noPool)
		d.ring.pushBack(p)
	}
	d.switches++
	if d.opts.NoReuse {
		if d.sinceFlush++; d.sinceFlush >= d.im.flushEvery {
			d.flushAll()
		}
	}
	if d.switches >= d.trimAt {
		d.trim()
	}
	// First the pools retired most recently before this one (walking back
	// from the tail): where a domain frees its own handles, reusing the
	// same few pools keeps them warm and lets the others go idle, to be
	// trimmed. Then the oldest (from the head): where other domains free
	// them, as in message passing, the oldest are the likeliest to have
	// been freed. If none of these has room, rotate the ring by one so
	// that, over repeated misses, every pool comes up for inspection (a
	// pool pinned by a long-lived handle does not block the others), while
	// the FIFO order a steady producer relies on is kept.
	if d.ring.n > 1 {
		q := d.ring.head.prev.prev
		for k := 0; k < scanLimit && k < d.ring.n-1; k++ {
			if q.room(d.opts.NoReuse) >= reuseMin {
				d.ring.remove(q)
				d.use(q)
				return
			}
			q = q.prev
		}
	}
	q := d.ring.head
	for k := 0; k < scanLimit && k < d.ring.n; k++ {
		if q.room(d.opts.NoReuse) >= reuseMin {
			d.ring.remove(q)
			d.use(q)
			return
		}
		q = q.next
	}
	if d.ring.n > 0 {
		d.ring.head = d.ring.head.next
	}
	d.use(d.im.acquire(d))
}

// use makes p, which d owns and which has room, the current pool.
func (d *Domain) use(p *pool) {
	if p.local.empty() {
		d.take(p) // the room is on the delayed list
	}
	p.lastUsed = d.c.creates + d.taken
	d.setCur(p)
}

// setCur makes p the current pool. Delete's fast path follows it unless
// it is in remote mode.
func (d *Domain) setCur(p *pool) {
	d.cur, d.curN = p, p.local.n
	if d.delList != &d.pend.list {
		d.localMode()
	}
}

// localMode points Delete's fast path at cur (see Domain.delPool).
func (d *Domain) localMode() {
	d.delPool, d.delList = d.cur, &d.cur.local
	if d.opts.ForceRemote {
		d.delPool = noPool
	}
	d.delIdx = uint16(d.delPool.idx)
}

// remoteMode points Delete's fast path at the pending chain, so that the
// chain grows without a call until the deleter moves to another pool: a
// chain holds slots of one pool, so its pool's size bounds it. From the
// chain's start to its publication, remote mode is on: so every delete of
// a live slot of the chain's pool takes the fast path, and the slow path
// never extends a chain. (Eager-remote publishes every chain at once,
// locked-remote keeps none: neither uses remote mode.) The chain's pool
// cannot be released meanwhile (its slots are in neither of its free
// counts), and publish leaves remote mode before the chain, and so the
// pool, is handed over.
func (d *Domain) remoteMode() {
	d.delPool, d.delList, d.delIdx = d.pend.p, &d.pend.list, uint16(d.pend.p.idx)
}

// take makes p's delayed list its local free list; p's local list is empty.
func (d *Domain) take(p *pool) {
	p.takeDelayed(d.opts.LockedRemote)
	if p == d.cur {
		d.curN = p.local.n
	}
	d.c.flushes++
}

// flushAll is the no-reuse variant's periodic sweep: every full pool of the
// ring takes its delayed list back.
func (d *Domain) flushAll() {
	d.sinceFlush = 0
	q := d.ring.head
	for range d.ring.n {
		if q.local.empty() && q.delayedLen() > 0 {
			d.take(q)
		}
		q = q.next
	}
}

// trim hands the pools that stayed wholly free and unused for a long while
// (idleFactor times the domain's capacity, counted in creates) back to the
// Impl, which keeps a few and releases the rest. It runs every few dozen
// pool switches (at least twice the pools owned).
func (d *Domain) trim() {
	d.switches = 0
	now := d.c.creates + d.taken
	horizon := int64(d.im.idleFactor) * int64(d.ring.n+1) * poolSize
	var idle []*pool
	q := d.ring.head
	for range d.ring.n {
		if now-q.lastUsed > horizon && q.whollyFree() {
			idle = append(idle, q)
		}
		q = q.next
	}
	for _, q := range idle {
		d.ring.remove(q)
	}
	d.trimAt = max(d.im.trimMin, 2*(d.ring.n+1))
	if len(idle) == 0 {
		return
	}
	d.im.mu.Lock()
	for _, q := range idle {
		q.owner.Store(nil)
		d.im.recycle(q)
	}
	d.im.mu.Unlock()
}

// Get returns the value rooted by h. It is Impl.Get: a directory lookup,
// the slot read and the tag check, small enough to inline.
func (d *Domain) Get(h Handle) any { return d.im.Get(h) }

// Close publishes the pending chain and hands every pool the domain owns
// back to the Impl: wholly free pools are recycled, the others orphaned,
// to be adopted by a domain that needs room. It also recycles orphans that
// have become wholly free. A second Close does nothing.
func (d *Domain) Close() {
	if d.closed {
		return
	}
	if d.pend.p != nil {
		d.publish()
	}
	d.settle()
	d.closed = true
	owned := make([]*pool, 0, d.ring.n+1)
	if d.cur != noPool {
		owned = append(owned, d.cur)
	}
	q := d.ring.head
	for range d.ring.n {
		owned = append(owned, q)
		q = q.next
	}
	d.setCur(noPool)
	d.ring, d.last = ring{}, nil
	im := d.im
	im.mu.Lock()
	defer im.mu.Unlock()
	for _, p := range owned {
		p.next, p.prev = nil, nil
		// From here remote deleters see an orphan; the owner-only fields
		// pass to mu's holders.
		p.owner.Store(nil)
		if p.whollyFree() {
			im.recycle(p)
		} else {
			im.orphans = append(im.orphans, p)
		}
	}
	im.sweepOrphans(len(im.domains) == 1)
	im.closed.add(d.c)
	delete(im.domains, d)
}

// sweepOrphans recycles the orphans that have become wholly free (mu held).
// It looks at orphanScan of them, oldest first, or at all of them when the
// caller is the last open domain: then no domain remains to do it later.
func (im *Impl) sweepOrphans(all bool) {
	n := len(im.orphans)
	if !all {
		n = min(n, orphanScan)
	}
	for range n {
		p := im.orphans[0]
		im.orphans[0] = nil
		im.orphans = im.orphans[1:]
		if p.whollyFree() {
			im.recycle(p)
		} else {
			im.orphans = append(im.orphans, p)
		}
	}
}
