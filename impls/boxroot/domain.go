package boxroot

import "sync/atomic"

// Domain is one worker's context: a current pool that Create pops from, and
// a ring of the other pools it owns. It is used by one goroutine at a time;
// everything but mirror is private to that goroutine. It implements
// cell.Domain[Handle]; Go callers that hold the concrete *Domain (from
// Impl.NewLocalDomain) call its methods directly, without the interface's
// dynamic dispatch, and Get is inlined into them.
type Domain struct {
	im   *Impl
	opts Options
	cur  *pool // the pool Create pops from, nil before the first Create
	// last is the pool of the last handle found through the directory, a
	// cache for Get and Delete (see find).
	last *pool
	ring ring // the other pools this domain owns, oldest first
	pend pending
	// taken and returned count the creates and local deletes in cur since
	// the last settle.
	taken, returned int64
	// publishAt is the chain length at which a pending chain is published.
	publishAt int32
	c         counters
	// switches counts pool switches since the last trim, trimAt is when
	// the next one is due; sinceFlush does the same for no-reuse's sweep.
	switches, trimAt, sinceFlush int
	closed                       bool

	_ [64]byte // Stats readers touch only mirror

	// mirror is c as of the last slow path, for Stats and Live.
	mirror atomicCounters
}

// pending is a chain of slots of one pool that this domain freed remotely
// and has not yet published: head links to ... links to tail, whose link is
// rewritten when the chain is pushed. The chain is private to the domain
// until its CAS succeeds.
type pending struct {
	p          *pool
	head, tail int32
	n          int32
}

// Create roots v and returns its handle.
func (d *Domain) Create(v any) Handle {
	if p := d.cur; p != nil {
		if i := p.freeHead; i != endOfList {
			// Owner-only fields and our own free slots: no atomics needed.
			p.freeHead = linkNext(p.slots[i&slotMask].(*freeMark))
			p.slots[i&slotMask] = v
			d.taken++
			return p.base + Handle(i)
		}
	}
	return d.createSlow(v)
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

// settle folds the current pool's fast-path tallies into its free count and
// the domain's counters. The fast paths count in two separate monotone
// tallies, rather than one count up and down in the pool, so that a tight
// create/delete loop does not serialise on one memory location.
func (d *Domain) settle() {
	if p := d.cur; p != nil {
		p.nfree += int32(d.returned - d.taken)
	}
	d.c.creates += d.taken
	d.c.localDeletes += d.returned
	d.taken, d.returned = 0, 0
}

// refill makes d.cur a pool with a free slot on its local list.
func (d *Domain) refill() {
	if p := d.cur; p != nil {
		// Reuse in place (OCaml boxroot's flush_delayed_fl): the current
		// pool is full; if other domains have freed enough of it, its
		// delayed list becomes its free list.
		if !d.opts.NoReuse && p.delayedLen() >= reuseMin {
			d.take(p)
			return
		}
		d.cur = nil
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
	if p.freeHead == endOfList {
		d.take(p) // the room is on the delayed list
	}
	p.lastUsed = d.c.creates + d.taken
	d.cur = p
}

// take makes p's delayed list its local free list; p's local list is empty.
func (d *Domain) take(p *pool) {
	p.takeDelayed(d.opts.LockedRemote)
	d.c.flushes++
}

// flushAll is the no-reuse variant's periodic sweep: every full pool of the
// ring takes its delayed list back.
func (d *Domain) flushAll() {
	d.sinceFlush = 0
	q := d.ring.head
	for range d.ring.n {
		if q.freeHead == endOfList && q.delayedLen() > 0 {
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

// find is Impl.lookup through a one-pool cache: a consumer takes handles
// from one pool after another, so most of its lookups hit the pool of the
// previous one, and the cache check does not depend on loads through h.
// A cached pool that was released since (its directory index may now name
// another pool) is not trusted; while it is not released, a handle in its
// range is its handle. The cache keeps a released pool alive until the
// next miss, no longer.
func (d *Domain) find(h Handle) (*pool, *any) {
	if p := d.last; p != nil && uintptr(h-p.base) < poolSize && !p.released.Load() {
		return p, &p.slots[uintptr(h-p.base)]
	}
	p, s := d.im.lookup(h)
	if p != nil {
		d.last = p
	}
	return p, s
}

// Get returns the value rooted by h. It is Impl.Get: a directory lookup,
// the slot read and the free-mark check, small enough to inline.
func (d *Domain) Get(h Handle) any { return d.im.Get(h) }

// Delete releases h. A delete by the pool's owner pushes the slot onto the
// local free list; any other is remote.
func (d *Domain) Delete(h Handle) {
	if p := d.cur; p != nil && uintptr(h-p.base) < poolSize && !d.opts.ForceRemote {
		// Our current pool: found without the directory, owned by d.
		i := uintptr(h - p.base)
		s := &p.slots[i]
		if isFree(*s) {
			d.im.invalid(h)
		}
		*s = link(p.freeHead)
		p.freeHead = int32(i)
		d.returned++
		return
	}
	if p := d.pend.p; p != nil && uintptr(h-p.base) < poolSize {
		// The common remote case: extend the pending chain, found without
		// the directory or the lookup cache. The pool cannot have been
		// released: the chain's slots are in neither of its free counts,
		// so it is not wholly free. If d has adopted p since the chain
		// was started, the chain still goes to p's delayed list, which is
		// correct too.
		i := uintptr(h - p.base)
		s := &p.slots[i]
		if isFree(*s) {
			d.im.invalid(h)
		}
		*s = link(d.pend.head)
		d.pend.head = int32(i)
		if d.pend.n++; d.pend.n >= d.publishAt {
			d.publish()
		}
		return
	}
	p, s := d.find(h)
	if s == nil || isFree(*s) {
		d.im.invalid(h)
	}
	i := int32(uintptr(h) & slotMask)
	// owner == d can only have been stored by d's own acquire, and only d
	// can change it (at Close or trim): so if it reads d, d owns p for the
	// whole of this call and the owner-only fields are ours.
	if !d.opts.ForceRemote && p.owner.Load() == d {
		*s = link(p.freeHead)
		p.freeHead = i
		p.nfree++
		d.c.localDeletes++
		return
	}
	d.deleteRemote(p, i)
}

// deleteRemote frees slot i of p, a pool d does not own (or, with
// ForceRemote, may own), starting a new pending chain. The slot is live
// and nobody but the deleter may touch it until it is published, so
// writing its link needs no atomics.
func (d *Domain) deleteRemote(p *pool, i int32) {
	if d.opts.LockedRemote {
		d.deleteLocked(p, i)
		return
	}
	if d.pend.p != nil {
		d.publish()
	}
	if d.closed {
		panic(d.im.name + ": Delete on a closed domain")
	}
	d.pend = pending{p: p, head: i, tail: i, n: 1}
	p.slots[i] = link(endOfList)
	if d.pend.n >= d.publishAt {
		d.publish()
	}
}

// publish pushes the pending chain onto its pool's delayed list with one
// CAS.
func (d *Domain) publish() {
	d.pend.p.push(&d.pend.p.slots[d.pend.tail], d.pend.head, d.pend.n)
	// Remote deletes are counted here, a chain at a time; the counters are
	// published every 4096 of them (a consumer that never creates has no
	// other occasion to).
	before := d.c.remoteDeletes
	d.c.remoteDeletes += int64(d.pend.n)
	d.pend = pending{}
	d.c.publishes++
	if before>>12 != d.c.remoteDeletes>>12 {
		d.settle()
		d.mirror.store(d.c)
	}
}

// deleteLocked is the locked-remote variant's remote delete: one slot,
// pushed under the pool's mutex. The word stays atomic so that the owner
// can still peek at its length without the lock; the owner's Swap takes
// the mutex too, so the Load-Store pair here cannot lose a concurrent take.
func (d *Domain) deleteLocked(p *pool, i int32) {
	if d.closed {
		panic(d.im.name + ": Delete on a closed domain")
	}
	p.mu.Lock()
	w := p.delayed.Load()
	p.slots[i] = link(int32(w & headMask))
	p.delayed.Store((w&^headMask + 1<<32) | uint64(i))
	p.mu.Unlock()
	d.c.remoteDeletes++
	if d.c.remoteDeletes&4095 == 0 {
		d.settle()
		d.mirror.store(d.c)
	}
}

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
	if d.cur != nil {
		owned = append(owned, d.cur)
	}
	q := d.ring.head
	for range d.ring.n {
		owned = append(owned, q)
		q = q.next
	}
	d.cur, d.ring, d.last = nil, ring{}, nil
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

// ring is a circular doubly linked list of pools through their next/prev
// fields; head is the oldest.
type ring struct {
	head *pool
	n    int
}

func (r *ring) pushBack(p *pool) {
	if r.head == nil {
		p.next, p.prev = p, p
		r.head = p
	} else {
		tail := r.head.prev
		p.prev, p.next = tail, r.head
		tail.next = p
		r.head.prev = p
	}
	r.n++
}

func (r *ring) remove(p *pool) {
	if r.n == 1 {
		r.head = nil
	} else {
		p.prev.next = p.next
		p.next.prev = p.prev
		if r.head == p {
			r.head = p.next
		}
	}
	p.next, p.prev = nil, nil
	r.n--
}

// atomicCounters mirrors counters for readers on other goroutines.
type atomicCounters struct {
	creates, localDeletes, remoteDeletes atomic.Int64
	slowCreates, flushes, publishes      atomic.Int64
}

func (m *atomicCounters) store(c counters) {
	m.creates.Store(c.creates)
	m.localDeletes.Store(c.localDeletes)
	m.remoteDeletes.Store(c.remoteDeletes)
	m.slowCreates.Store(c.slowCreates)
	m.flushes.Store(c.flushes)
	m.publishes.Store(c.publishes)
}

func (m *atomicCounters) load() counters {
	return counters{
		creates:       m.creates.Load(),
		localDeletes:  m.localDeletes.Load(),
		remoteDeletes: m.remoteDeletes.Load(),
		slowCreates:   m.slowCreates.Load(),
		flushes:       m.flushes.Load(),
		publishes:     m.publishes.Load(),
	}
}
