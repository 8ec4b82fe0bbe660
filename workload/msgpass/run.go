package msgpass

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/rootbench/rootbench/cell"
)

// staticValue is an entry of a producer's preallocated value table (payload
// static). Values are compared by address; the fields are only there so an
// error can say which value came back.
type staticValue struct {
	producer uint32
	slot     uint32
}

// freshValue is a payload-fresh value: a new heap object per cell that
// carries its own identity (producer and sequence number within that
// producer), so a value that was freed and its memory reused, or a copy, is
// caught without the workload holding any pointer to the value (holding
// one would keep alive the very value the implementation must keep alive).
type freshValue struct {
	producer uint32
	seq      int64
}

// batch is BatchSize cells travelling from one producer to one consumer.
// Buffers are recycled: a consumer that has finished a batch returns it to
// the producer's freeList.
type batch[C any] struct {
	producer int
	index    int64     // batch number within its producer: 0..NIters-1
	cells    []C       // BatchSize cells
	want     []uintptr // payload fresh: the address of each cell's value (not a GC reference)
	nextFree *batch[C] // freeList link
}

// queue is one Treiber stack with the event its consumers sleep on.
type queue[C any] struct {
	stack stack[*batch[C]]
	ev    event
}

// producer is one producer worker's state.
type producer[C any] struct {
	id    int
	d     cell.Domain[C]
	free  freeList[C] // batches given back by consumers
	local *batch[C]   // batches taken from free, owned by this producer
	rng   uint64      // per-producer xorshift state (queue per-consumer)

	created int64 // cells created; read after the workers have finished

	_ cpu.CacheLinePad
	// consumed counts this producer's batches that consumers have finished
	// (MaxDelay). waitFor is the count the producer is blocked waiting for
	// (0: not waiting); the consumer whose increment reaches it sends a
	// token on wake. See waitConsumed for why no wake-up is lost.
	consumed atomic.Int64
	waitFor  atomic.Int64
	wake     chan struct{} // capacity 1
	_        cpu.CacheLinePad
}

// consumer is one consumer worker's state.
type consumer[C any] struct {
	id      int
	d       cell.Domain[C]
	q       *queue[C]
	checked int64 // cells whose value was checked
	deleted int64 // cells deleted
	_       cpu.CacheLinePad
}

// run is the state of one Run.
type run[C any] struct {
	p      Params
	impl   cell.Impl[C]
	batch  int64 // BatchSize
	total  int64 // batches in the run: NIters × Producers
	spin   int   // empty-queue polls before a consumer sleeps
	tables [][]staticValue

	queues []queue[C]
	prods  []producer[C]
	cons   []consumer[C]

	_ cpu.CacheLinePad
	// taken counts batches popped. The consumer that pops the last one wakes
	// every sleeping consumer; a consumer that sees taken == total knows no
	// batch is left anywhere and exits.
	taken atomic.Int64
	_     cpu.CacheLinePad
	// inflight counts cells reserved by producers and not yet released by
	// consumers (MaxOutstanding); producers sleep on outEv.
	inflight atomic.Int64
	outEv    event
	// finished counts consumers that have exited; the last one stamps end.
	finished atomic.Int32
	end      time.Time

	stop    atomic.Bool   // set once, by halt
	stopCh  chan struct{} // closed by halt
	abandon chan struct{} // closed abandonGrace after ctx is cancelled
	errMu   sync.Mutex
	err     error // the first error; guarded by errMu
	started chan struct{}
	ready   sync.WaitGroup
	done    sync.WaitGroup
}

// Run runs the workload once on impl and verifies it. The implementation's
// domains (one per worker) are created before the clock starts and closed
// after it stops.
//
// Run returns an error for invalid parameters, a wrong value, cells lost,
// cells still live after every domain was closed (cell.Liver), a panic in
// the implementation (recovered on the worker that hit it), and ctx
// cancellation. On the first error every worker stops promptly: workers
// check for it between batches. After ctx is cancelled Run returns within
// about abandonGrace even if the implementation never returns to a worker;
// that worker's goroutine is then left behind.
//
// Run changes GOMAXPROCS for the parallel and concurrent schedulers and
// restores it before returning, so concurrent Runs in one process interfere:
// run them one at a time.
func Run[C any](ctx context.Context, impl cell.Impl[C], p Params) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, fmt.Errorf("invalid parameters: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("run cancelled before it started: %w", err)
	}
	r := newRun(impl, p)
	stopWatch := context.AfterFunc(ctx, func() {
		r.fail(fmt.Errorf("run cancelled: %w", context.Cause(ctx)))
		time.AfterFunc(abandonGrace, func() { close(r.abandon) })
	})
	defer stopWatch()

	var wall time.Duration
	var finished bool
	switch p.Scheduler {
	case Sequential:
		wall, finished = r.runSequential()
	default:
		wall, finished = r.runWorkers()
	}
	if !finished {
		return Result{}, fmt.Errorf("%w; workers still inside the implementation %v later were abandoned (their domains are not closed)",
			r.firstErr(), abandonGrace)
	}
	stats := r.teardown()
	if err := r.firstErr(); err != nil {
		return Result{}, err
	}
	if err := r.verifyCounts(); err != nil {
		return Result{}, err
	}
	if l, ok := impl.(cell.Liver); ok {
		var live int64
		r.guard("Live", func() { live = l.Live() })
		if err := r.firstErr(); err != nil {
			return Result{}, err
		}
		if live != 0 {
			return Result{}, fmt.Errorf("%d cells still live after the run (leak)", live)
		}
	}
	return Result{Wall: wall, Cells: p.TotalCells(), Stats: stats}, nil
}

func newRun[C any](impl cell.Impl[C], p Params) *run[C] {
	workers := p.Producers + p.Consumers
	r := &run[C]{
		p:       p,
		impl:    impl,
		batch:   int64(p.BatchSize),
		total:   int64(p.NIters) * int64(p.Producers),
		stopCh:  make(chan struct{}),
		abandon: make(chan struct{}),
		started: make(chan struct{}),
		prods:   make([]producer[C], p.Producers),
		cons:    make([]consumer[C], p.Consumers),
	}
	// Consumers poll an empty queue briefly before sleeping only when every
	// worker has a core of its own. With one P (concurrent, sequential) or
	// more workers than cores, a polling consumer would only steal the
	// processor from the producer it waits for, so it sleeps at once.
	if p.Scheduler == Parallel && workers <= runtime.NumCPU() {
		r.spin = spinPolls
	}
	if p.Queue == PerConsumer {
		r.queues = make([]queue[C], p.Consumers)
	} else {
		r.queues = make([]queue[C], 1)
	}
	for i := range r.queues {
		r.queues[i].ev.init()
	}
	r.outEv.init()
	if p.Payload == Static {
		r.tables = make([][]staticValue, p.Producers)
		n := staticTableLen(p.BatchSize, p.Producers)
		for i := range r.tables {
			t := make([]staticValue, n)
			for s := range t {
				t[s] = staticValue{producer: uint32(i), slot: uint32(s)}
			}
			r.tables[i] = t
		}
	}
	for i := range r.prods {
		pr := &r.prods[i]
		pr.id = i
		pr.wake = make(chan struct{}, 1)
		pr.rng = 0x9E3779B97F4A7C15 * uint64(i+1) // any non-zero seed
	}
	for i := range r.cons {
		c := &r.cons[i]
		c.id = i
		c.q = &r.queues[0]
		if p.Queue == PerConsumer {
			c.q = &r.queues[i]
		}
	}
	return r
}

// abandonGrace is how long Run waits, after ctx is cancelled, for workers to
// come back from the implementation before it gives up on them.
const abandonGrace = time.Second

// spinPolls is how many times a consumer with a core of its own re-reads an
// empty queue's head before it sleeps: long enough to cover a producer
// finishing a batch in the common case, short enough not to matter when the
// producer is blocked.
const spinPolls = 1 << 12

// staticTableLen sizes a producer's static value table: k×batchSize+1
// entries, so the cell (batch b, index i) gets entry (b×batchSize+i) mod len
// and two cells share a value only if they are at least k batches apart in
// the producer's sequence (len is coprime with batchSize). k is up to 16,
// lowered so the tables of all producers stay within about 4M entries, and
// at least 1 (then a table costs no more than one batch of cells).
func staticTableLen(batchSize, producers int) int {
	const budget = 1 << 22
	k := budget / (batchSize * producers)
	k = max(1, min(16, k))
	return k*batchSize + 1
}

// fail records err if it is the first error and stops every worker.
func (r *run[C]) fail(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
	r.halt()
}

func (r *run[C]) firstErr() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

// halt stops every worker: it sets stop, then wakes every sleeper. A sleeper
// checks stop under its event's mutex (or selects on stopCh), and wake takes
// that mutex after stop is set, so no sleeper misses it.
func (r *run[C]) halt() {
	if !r.stop.CompareAndSwap(false, true) {
		return
	}
	close(r.stopCh)
	for i := range r.queues {
		r.queues[i].ev.wake(true)
	}
	r.outEv.wake(true)
}

// runWorkers runs the parallel and concurrent schedulers and returns the
// wall time from releasing the workers to the last consumer finishing, and
// false if it gave up waiting for them (see abandonGrace).
func (r *run[C]) runWorkers() (time.Duration, bool) {
	prev := runtime.GOMAXPROCS(0)
	switch workers := r.p.Producers + r.p.Consumers; {
	case r.p.Scheduler == Concurrent:
		runtime.GOMAXPROCS(1)
		defer runtime.GOMAXPROCS(prev)
	case prev < workers:
		runtime.GOMAXPROCS(workers)
		defer runtime.GOMAXPROCS(prev)
	}
	for i := range r.prods {
		pr := &r.prods[i]
		r.spawn(fmt.Sprintf("producer %d", i), func() { pr.d = r.impl.NewDomain() }, func() { r.produceLoop(pr) })
	}
	for i := range r.cons {
		c := &r.cons[i]
		r.spawn(fmt.Sprintf("consumer %d", i), func() { c.d = r.impl.NewDomain() }, func() { r.consumeLoop(c) })
	}
	if !r.await(&r.ready) {
		return 0, false
	}
	start := time.Now()
	close(r.started)
	if !r.await(&r.done) {
		return 0, false
	}
	return r.end.Sub(start), true
}

// await waits for wg, or until the run is abandoned; it reports whether wg
// finished. On abandon the helper goroutine stays until wg finishes, if ever.
func (r *run[C]) await(wg *sync.WaitGroup) bool {
	ch := make(chan struct{})
	go func() {
		wg.Wait()
		close(ch)
	}()
	select {
	case <-ch:
		return true
	case <-r.abandon:
		return false
	}
}

// spawn starts one worker goroutine locked to its own OS thread: setup runs
// before the start signal (not timed), body after it. A panic in either is
// recovered here and fails the run.
func (r *run[C]) spawn(name string, setup, body func()) {
	r.ready.Add(1)
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		isReady := false
		defer func() {
			if !isReady {
				r.ready.Done()
			}
			if v := recover(); v != nil {
				r.fail(panicError(name, v))
			}
		}()
		setup()
		isReady = true
		r.ready.Done()
		select {
		case <-r.started:
		case <-r.stopCh:
			return
		}
		body()
	}()
}

// panicError turns a recovered panic into an error naming the worker.
func panicError(worker string, v any) error {
	if err, ok := v.(error); ok {
		return fmt.Errorf("%s panicked: %w", worker, err)
	}
	return fmt.Errorf("%s panicked: %v", worker, v)
}

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
		r.end = time.Now() // read by runWorkers after done.Wait()
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

// wrongValue describes a failed check of cell i of bt. want is the static
// value expected, or nil for payload fresh (then it is rebuilt from bt).
func (r *run[C]) wrongValue(bt *batch[C], i int, got any, want *staticValue) error {
	var w string
	if want != nil {
		w = describe(want)
	} else {
		w = fmt.Sprintf("fresh value (producer %d, seq %d) at %#x", bt.producer, bt.index*r.batch+int64(i), bt.want[i])
	}
	return fmt.Errorf("wrong value: producer %d, batch %d, index %d: got %s, want %s",
		bt.producer, bt.index, i, describe(got), w)
}

// describe names a value for an error message without printing arbitrary
// (possibly huge) values.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case *staticValue:
		return fmt.Sprintf("static value (producer %d, slot %d) at %p", x.producer, x.slot, x)
	case *freshValue:
		return fmt.Sprintf("fresh value (producer %d, seq %d) at %p", x.producer, x.seq, x)
	default:
		return fmt.Sprintf("a value of type %T", v)
	}
}

// runSequential runs the sequential scheduler on one goroutine locked to an
// OS thread: for each batch number, each producer in turn creates a batch
// and pushes it, then a consumer pops it and deletes it (the consumer owning
// the queue it went to, or the next consumer in turn for the shared queue).
// Producer domains only create, consumer domains only delete. At most one
// batch is in flight, so MaxDelay and MaxOutstanding never have to wait.
func (r *run[C]) runSequential() (time.Duration, bool) {
	var wall time.Duration
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		role, id := "setup", 0 // what the goroutine is doing, for a panic
		defer func() {
			if v := recover(); v != nil {
				r.fail(panicError(fmt.Sprintf("sequential worker (%s %d)", role, id), v))
			}
		}()
		for i := range r.prods {
			role, id = "producer", i
			r.prods[i].d = r.impl.NewDomain()
		}
		for i := range r.cons {
			role, id = "consumer", i
			r.cons[i].d = r.impl.NewDomain()
		}
		start := time.Now()
		next := 0 // next consumer, for the shared queue
		for b := int64(0); b < int64(r.p.NIters); b++ {
			for i := range r.prods {
				if r.stop.Load() {
					return
				}
				pr := &r.prods[i]
				role, id = "producer", i
				if r.p.MaxOutstanding > 0 {
					r.reserve() // never waits: nothing is in flight here
				}
				bt := r.produce(pr, b)
				qi := r.pick(pr)
				q := &r.queues[qi]
				q.stack.push(bt)
				c := &r.cons[qi]
				if len(r.queues) == 1 {
					c = &r.cons[next]
					if next++; next == len(r.cons) {
						next = 0
					}
				}
				role, id = "consumer", c.id
				got, _ := q.stack.pop()
				if err := r.consume(c, got); err != nil {
					r.fail(err)
					return
				}
				r.release(got)
			}
		}
		wall = time.Since(start)
	}()
	if !r.await(&wg) {
		return 0, false
	}
	return wall, true
}

// teardown closes every domain (consumers first, so their pending remote
// deletes are published before the producers' domains close) and returns the
// implementation's statistics. A panic in Close fails the run.
func (r *run[C]) teardown() map[string]int64 {
	var doms []cell.Domain[C]
	var names []string
	for i := range r.cons {
		doms = append(doms, r.cons[i].d)
		names = append(names, fmt.Sprintf("consumer %d's domain", i))
	}
	for i := range r.prods {
		doms = append(doms, r.prods[i].d)
		names = append(names, fmt.Sprintf("producer %d's domain", i))
	}
	// Domain-level statistics, summed, for implementations that keep them
	// per domain rather than on the Impl.
	var stats map[string]int64
	if _, ok := r.impl.(cell.Stater); !ok {
		for i, d := range doms {
			if s, ok := d.(cell.Stater); ok {
				r.guard("Stats of "+names[i], func() {
					if stats == nil {
						stats = map[string]int64{}
					}
					for k, v := range s.Stats() {
						stats[k] += v
					}
				})
			}
		}
	}
	for i, d := range doms {
		if d != nil { // nil: its worker failed before creating it
			r.guard("Close of "+names[i], d.Close)
		}
	}
	if s, ok := r.impl.(cell.Stater); ok {
		r.guard("Stats", func() { stats = s.Stats() })
	}
	return stats
}

// guard calls fn, turning a panic into a failure of the run.
func (r *run[C]) guard(what string, fn func()) {
	defer func() {
		if v := recover(); v != nil {
			r.fail(panicError(what, v))
		}
	}()
	fn()
}

// verifyCounts checks that every cell created was checked and deleted.
func (r *run[C]) verifyCounts() error {
	var created, checked, deleted int64
	for i := range r.prods {
		created += r.prods[i].created
	}
	for i := range r.cons {
		checked += r.cons[i].checked
		deleted += r.cons[i].deleted
	}
	want := r.p.TotalCells()
	if created != want || checked != created || deleted != created {
		return fmt.Errorf("cells lost: %d expected, %d created, %d checked, %d deleted", want, created, checked, deleted)
	}
	return nil
}
