package msgpass

import (
	"unsafe"
)

// The producers' side of a parallel or concurrent run: make batches of new
// cells, pick a queue, and wait for MaxDelay and MaxOutstanding.

// produceLoop is a producer's run: NIters batches, each pushed to a queue.
func (r *run[C]) produceLoop(pr *producer[C]) {
	maxDelay := int64(r.p.MaxDelay)
	for b := int64(0); b < int64(r.p.NIters); b++ {
		if r.stop.Load() {
			return
		}
		if r.p.MaxOutstanding > 0 && !r.reserve() {
			return
		}
		bt := r.produce(pr, b)
		q := &r.queues[r.pick(pr)]
		q.stack.push(bt)
		q.ev.notify(false)
		if maxDelay > 0 && (b+1)%maxDelay == 0 && !r.waitConsumed(pr, b+1) {
			return
		}
	}
}

// pick returns the index of the queue for the producer's next batch: the
// shared one, or a consumer's chosen at random with the producer's own
// xorshift generator.
func (r *run[C]) pick(pr *producer[C]) int {
	if len(r.queues) == 1 {
		return 0
	}
	x := pr.rng
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	pr.rng = x
	hi := (x * 0x2545F4914F6CDD1D) >> 32
	return int((hi * uint64(len(r.queues))) >> 32)
}

// waitConsumed blocks the producer until target of its batches have been
// consumed (MaxDelay). It returns false if the run stopped.
//
// No wake-up is lost: the producer stores waitFor then loads consumed; a
// consumer adds to consumed then loads waitFor (sequentially consistent
// atomics). Either the producer's load sees the final increment and it does
// not sleep, or the consumer whose increment reached target sees waitFor ==
// target and sends a token. A stale token (left over from an earlier wait)
// only causes one extra check of consumed.
func (r *run[C]) waitConsumed(pr *producer[C], target int64) bool {
	if pr.consumed.Load() >= target {
		return true
	}
	pr.waitFor.Store(target)
	for pr.consumed.Load() < target {
		select {
		case <-pr.wake:
		case <-r.stopCh:
			return false
		}
	}
	return true
}

// reserve takes room for one batch in the MaxOutstanding budget, sleeping
// until there is some. It returns false if the run stopped.
func (r *run[C]) reserve() bool {
	limit := int64(r.p.MaxOutstanding)
	for {
		cur := r.inflight.Load()
		if cur+r.batch <= limit {
			if r.inflight.CompareAndSwap(cur, cur+r.batch) {
				return true
			}
			continue
		}
		if r.stop.Load() {
			return false
		}
		key := r.outEv.prepare()
		if r.inflight.Load()+r.batch <= limit || r.stop.Load() {
			r.outEv.cancel()
			continue
		}
		// Each release frees exactly one batch's room and Signals one
		// sleeper, which re-checks before sleeping again.
		r.outEv.wait(key, &r.stop)
	}
}

// getBatch returns a buffer for a new batch: a recycled one if a consumer
// has given one back, else a new one.
func (r *run[C]) getBatch(pr *producer[C]) *batch[C] {
	if pr.local == nil {
		pr.local = pr.free.takeAll()
	}
	if bt := pr.local; bt != nil {
		pr.local = bt.nextFree
		bt.nextFree = nil
		return bt
	}
	bt := &batch[C]{producer: pr.id, cells: make([]C, r.p.BatchSize)}
	if r.p.Payload == Fresh {
		bt.want = make([]uintptr, r.p.BatchSize)
	}
	return bt
}

// produce fills batch number b of producer pr with new cells.
func (r *run[C]) produce(pr *producer[C], b int64) *batch[C] {
	bt := r.getBatch(pr)
	bt.index = b
	d := pr.d
	cells := bt.cells
	if r.p.Payload == Static {
		tbl := r.tables[pr.id]
		slot := int(b * r.batch % int64(len(tbl)))
		for i := range cells {
			cells[i] = d.Create(&tbl[slot])
			if slot++; slot == len(tbl) {
				slot = 0
			}
		}
	} else {
		want := bt.want[:len(cells)]
		seq := b * r.batch
		id := uint32(pr.id)
		for i := range cells {
			v := &freshValue{producer: id, seq: seq + int64(i)}
			want[i] = uintptr(unsafe.Pointer(v))
			cells[i] = d.Create(v)
		}
	}
	pr.created += r.batch
	return bt
}
