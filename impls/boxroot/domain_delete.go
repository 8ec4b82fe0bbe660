package boxroot

// find is Impl.lookup through a one-pool cache: a consumer takes handles
// from one pool after another, so most of its lookups hit the pool of the
// previous one, and the cache check does not depend on loads through h.
// A cached pool that was released since (its directory index may now name
// another pool) is not trusted; while it is not released, a handle in its
// range is its handle. The cache keeps a released pool alive until the
// next miss, no longer.
func (d *Domain) find(h Handle) (*pool, *slot) {
	if p := d.last; p != nil {
		if i := uintptr(h)&indexMask - uintptr(p.base); i < poolSize && !p.released.Load() {
			if s := &p.slots[i]; s.h == h {
				return p, s
			}
			return nil, nil
		}
	}
	p, s := d.im.lookup(h)
	if p != nil {
		d.last = p
	}
	return p, s
}

// Delete releases h. A delete by the pool's owner pushes the slot onto the
// local free list; any other is remote.
func (d *Domain) Delete(h Handle) { d.delete(h, (*Domain).deleteSlow) }

// delete is Delete with its slow path passed in, for the reason given at
// create.
func (d *Domain) delete(h Handle, slow func(*Domain, Handle)) {
	if i, p := uintptr(h)&slotMask, d.delPool; uint16(h>>poolLog) == d.delIdx && p.slots[i].h == h {
		// A live slot of delPool, found without the directory: in local
		// mode, a push onto our current pool's list; in remote mode, onto
		// our pending chain for p. Both lists are ours alone, and so is
		// the live slot, until its tag moves on. Only a handle of delPool
		// reads one of its slots: a slot of another's live handle may be
		// written meanwhile. (No slot of noPool matches a handle: see
		// noPool.)
		p.slots[i] = slot{d.delList.head, h + tagOne}
		d.delList.head = &marks[i]
		d.delList.n++
	} else {
		slow(d, h)
	}
}

// deleteSlow is Delete for any handle but a live one of delPool.
//
//go:noinline
func (d *Domain) deleteSlow(h Handle) {
	if d.closed {
		panic(d.im.name + ": Delete on a closed domain")
	}
	p, s := d.find(h)
	if s == nil {
		d.im.invalid(h)
	}
	// The tag moves on first: from here h is stale, whichever list the
	// slot goes to.
	s.h = h + tagOne
	i := int32(uintptr(h) & slotMask)
	// owner == d can only have been stored by d's own acquire, and only d
	// can change it (at Close or trim): so if it reads d, d owns p for the
	// whole of this call and the owner-only fields are ours.
	if !d.opts.ForceRemote && p.owner.Load() == d {
		s.v = p.local.head
		p.local.head = &marks[i]
		p.local.n++
		if p != d.cur { // cur's are counted by settle
			d.c.localDeletes++
		}
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
	d.pend = pending{p: p, list: freeList{&marks[i], 1}, tail: i}
	p.slots[i].v = link(endOfList)
	if d.opts.EagerRemote {
		d.publish()
		return
	}
	d.remoteMode()
}

// publish pushes the pending chain onto its pool's delayed list with one
// CAS.
func (d *Domain) publish() {
	// Leave remote mode first: after the push the pool is not ours to
	// touch.
	d.localMode()
	d.pend.p.push(&d.pend.p.slots[d.pend.tail].v, linkNext(d.pend.list.head), d.pend.list.n)
	// Remote deletes are counted here, a chain at a time; the counters are
	// published every 4096 of them (a consumer that never creates has no
	// other occasion to).
	before := d.c.remoteDeletes
	d.c.remoteDeletes += int64(d.pend.list.n)
	d.pend = pending{}
	d.c.publishes++
	if before>>12 != d.c.remoteDeletes>>12 {
		d.mirror.store(d.c)
	}
}

// deleteLocked is the locked-remote variant's remote delete: one slot,
// pushed under the pool's mutex. The word stays atomic so that the owner
// can still peek at its length without the lock; the owner's Swap takes
// the mutex too, so the Load-Store pair here cannot lose a concurrent take.
func (d *Domain) deleteLocked(p *pool, i int32) {
	p.mu.Lock()
	w := p.delayed.Load()
	p.slots[i].v = link(int32(w & headMask))
	p.delayed.Store((w&^headMask + 1<<32) | uint64(i))
	p.mu.Unlock()
	d.c.remoteDeletes++
	if d.c.remoteDeletes&4095 == 0 {
		d.mirror.store(d.c)
	}
}
