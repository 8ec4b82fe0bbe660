package boxroot

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
