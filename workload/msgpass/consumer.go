package msgpass

import (
	"time"

	"github.com/rootbench/rootbench/cputime"
	"unsafe"
)

// The consumers' side of a parallel or concurrent run: take batches, check
// and delete their cells, and hand the buffers back.

// consumeLoop is a consumer's run: pop batches until every batch of the run
// has been taken, or the run stops.
func (r *run[C]) consumeLoop(c *consumer[C]) {
	for !r.stop.Load() {
		bt, ok := c.q.stack.pop()
		if !ok {
			if bt, ok = r.awaitBatch(c.q); !ok {
				break
			}
		}
		if r.taken.Add(1) == r.total {
			// The last batch: no consumer will find another one. Wake
			// the sleepers so they see taken == total and exit.
			for i := range r.queues {
				r.queues[i].ev.notify(true)
			}
		}
		if err := r.consume(c, bt); err != nil {
			r.fail(err)
			return
		}
		r.release(bt)
	}
	if int(r.finished.Add(1)) == len(r.cons) {
		r.end = time.Now() // read by runWorkers after done.Wait(), as endCPU
		r.endCPU = cputime.Self()
	}
}

// awaitBatch waits for a batch on an empty queue: it polls r.spin times
// (only when every worker has a core), then sleeps on the queue's event.
// It returns false when every batch of the run has been taken, or the run
// stopped. The condition it waits for (a batch in q, taken == total, or
// stop) is made true by a push (notify one), the last pop (notify all) or
// halt (wake all); see event for why the wake-up cannot be lost.
func (r *run[C]) awaitBatch(q *queue[C]) (*batch[C], bool) {
	for {
		if r.taken.Load() >= r.total || r.stop.Load() {
			return nil, false
		}
		for i := 0; i < r.spin && q.stack.empty(); i++ {
		}
		if bt, ok := q.stack.pop(); ok {
			return bt, true
		}
		key := q.ev.prepare()
		if bt, ok := q.stack.pop(); ok {
			q.ev.cancel()
			return bt, true
		}
		if r.taken.Load() >= r.total || r.stop.Load() {
			q.ev.cancel()
			return nil, false
		}
		q.ev.wait(key, &r.stop)
	}
}

// consume checks and deletes every cell of bt.
func (r *run[C]) consume(c *consumer[C], bt *batch[C]) error {
	d := c.d
	cells := bt.cells
	if r.p.Payload == Static {
		tbl := r.tables[bt.producer]
		slot := int(bt.index * r.batch % int64(len(tbl)))
		for i, x := range cells {
			got := d.Get(x)
			if v, ok := got.(*staticValue); !ok || v != &tbl[slot] {
				c.checked += int64(i)
				c.deleted += int64(i)
				return r.wrongValue(bt, i, got, &tbl[slot])
			}
			d.Delete(x)
			if slot++; slot == len(tbl) {
				slot = 0
			}
		}
	} else {
		want := bt.want[:len(cells)]
		p := uint32(bt.producer)
		seq := bt.index * r.batch
		for i, x := range cells {
			got := d.Get(x)
			if v, ok := got.(*freshValue); !ok || uintptr(unsafe.Pointer(v)) != want[i] ||
				v.producer != p || v.seq != seq+int64(i) {
				c.checked += int64(i)
				c.deleted += int64(i)
				return r.wrongValue(bt, i, got, nil)
			}
			d.Delete(x)
		}
	}
	c.checked += r.batch
	c.deleted += r.batch
	return nil
}

// release hands a consumed batch back: its buffer to the producer, and the
// MaxDelay and MaxOutstanding accounting.
func (r *run[C]) release(bt *batch[C]) {
	pr := &r.prods[bt.producer]
	// Drop the deleted cells so the buffer does not keep their memory alive
	// while it waits for reuse (a deleted ref box must be collectable).
	clear(bt.cells)
	pr.free.push(bt) // bt belongs to the producer from here on
	if r.p.MaxDelay > 0 {
		if n := pr.consumed.Add(1); n == pr.waitFor.Load() {
			select {
			case pr.wake <- struct{}{}:
			default: // a token is already there
			}
		}
	}
	if r.p.MaxOutstanding > 0 {
		r.inflight.Add(-r.batch)
		r.outEv.notify(false)
	}
}
