package msgpass

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/cpu"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cputime"
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
	endCPU   cputime.Times // the process's CPU time at end

	stop    atomic.Bool   // set once, by halt
	stopCh  chan struct{} // closed by halt
	abandon chan struct{} // closed the grace (abandonGrace) after ctx is cancelled
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
	return runAbandoning(ctx, impl, p, abandonGrace)
}

// runAbandoning is Run, giving up on workers still inside the
// implementation grace after ctx is cancelled (Run: abandonGrace).
func runAbandoning[C any](ctx context.Context, impl cell.Impl[C], p Params, grace time.Duration) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, fmt.Errorf("invalid parameters: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("run cancelled before it started: %w", err)
	}
	r := newRun(impl, p)
	stopWatch := context.AfterFunc(ctx, func() {
		r.fail(fmt.Errorf("run cancelled: %w", context.Cause(ctx)))
		time.AfterFunc(grace, func() { close(r.abandon) })
	})
	defer stopWatch()

	var wall time.Duration
	var cpu cputime.Times
	var finished bool
	switch p.Scheduler {
	case Sequential:
		wall, cpu, finished = r.runSequential()
	default:
		wall, cpu, finished = r.runWorkers()
	}
	if !finished {
		return Result{}, fmt.Errorf("%w; workers still inside the implementation %v later were abandoned (their domains are not closed)",
			r.firstErr(), grace)
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
	return Result{Wall: wall, CPU: cpu, Cells: p.TotalCells(), Stats: stats}, nil
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
// wall time from releasing the workers to the last consumer finishing, the
// process's CPU time over the same interval, and false if it gave up
// waiting for them (see abandonGrace).
func (r *run[C]) runWorkers() (time.Duration, cputime.Times, bool) {
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
		return 0, cputime.Times{}, false
	}
	startCPU := cputime.Self()
	start := time.Now()
	close(r.started)
	if !r.await(&r.done) {
		return 0, cputime.Times{}, false
	}
	return r.end.Sub(start), r.endCPU.Sub(startCPU), true
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
