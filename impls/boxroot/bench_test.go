package boxroot

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// sinkValue is a pointer value, so that storing it in an interface does not
// allocate.
var sinkValue any = new(int)

func BenchmarkLocalCreateDelete(b *testing.B) {
	for _, c := range benchImpls() {
		b.Run(c.name, func(b *testing.B) {
			d := c.impl.NewDomain()
			defer d.Close()
			v := sinkValue
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				d.Delete(d.Create(v))
			}
		})
	}
}

// BenchmarkLocalCreateDeleteBatch creates 1024 handles, then deletes them:
// the free list is walked through a whole pool, not a single slot. One op
// is one Create and, amortised, one Delete.
func BenchmarkLocalCreateDeleteBatch(b *testing.B) {
	d := New(Options{}).NewDomain()
	defer d.Close()
	hs := make([]Handle, 1024)
	v := sinkValue
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for i := 0; b.Loop(); i++ {
		j := i & 1023
		hs[j] = d.Create(v)
		if j == 1023 {
			for _, h := range hs {
				d.Delete(h)
			}
		}
	}
}

func BenchmarkGet(b *testing.B) {
	d := New(Options{}).NewDomain()
	defer d.Close()
	hs := make([]Handle, 4096)
	for i := range hs {
		hs[i] = d.Create(sinkValue)
	}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	var bad int
	want := sinkValue.(*int)
	for i := 0; b.Loop(); i++ {
		if p, _ := d.Get(hs[i&4095]).(*int); p != want {
			bad++
		}
	}
	if bad != 0 {
		b.Fatalf("%d wrong values", bad)
	}
}

// BenchmarkRemoteDelete times only the deletes, by a domain that does not
// own the pools, of handles another domain created (creation untimed).
// Its cpu-ns/op counts the deleting thread's CPU time in the timed part.
func BenchmarkRemoteDelete(b *testing.B) {
	for _, c := range benchImpls() {
		b.Run(c.name, func(b *testing.B) {
			owner, other := c.impl.NewDomain(), c.impl.NewDomain()
			defer owner.Close()
			defer other.Close()
			timeDeletes(b, func(hs []Handle) {
				for j := range hs {
					hs[j] = owner.Create(sinkValue)
				}
			}, func(hs []Handle) {
				for _, h := range hs {
					other.Delete(h)
				}
			})
		})
	}
}

// timeDeletes runs b.N deletes in batches, timing only the deletes: fill
// creates a batch of handles, del deletes them. It reports the deleting
// thread's CPU time per delete as cpu-ns/op. The callbacks take a whole
// batch, so that the calls inside them stay direct (and inline).
func timeDeletes(b *testing.B, fill, del func(hs []Handle)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 1 << 14
	hs := make([]Handle, n)
	b.ReportAllocs()
	b.StopTimer()
	var cpu time.Duration
	for i := 0; i < b.N; i += n {
		batch := hs[:min(n, b.N-i)]
		fill(batch)
		t0, _ := threadCPU()
		b.StartTimer()
		del(batch)
		b.StopTimer()
		t1, _ := threadCPU()
		cpu += t1 - t0
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkCreateRemoteDelete is the message-passing path on one goroutine:
// one domain creates, another deletes, all timed (creation, remote delete,
// publication and the owner's reuse in place).
func BenchmarkCreateRemoteDelete(b *testing.B) {
	for _, c := range benchImpls() {
		b.Run(c.name, func(b *testing.B) {
			owner, other := c.impl.NewDomain(), c.impl.NewDomain()
			defer owner.Close()
			defer other.Close()
			hs := make([]Handle, 1024)
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for i := 0; b.Loop(); i++ {
				j := i & 1023
				hs[j] = owner.Create(sinkValue)
				if j == 1023 {
					for _, h := range hs {
						other.Delete(h)
					}
				}
			}
		})
	}
}

type benchImpl struct {
	name string
	impl *Impl
}

func benchImpls() []benchImpl {
	out := []benchImpl{{"boxroot", New(Options{})}}
	for _, v := range Variants() {
		out = append(out, benchImpl{v.Name, New(v.Options)})
	}
	return out
}

// handleAPI is a cgo.Handle-shaped API, for side-by-side benchmarks. Each
// loop calls its API directly (no function value per call), n times or
// until pb is done, and counts wrong values.
type handleAPI struct {
	name     string
	loop     func(n int, v any) (bad int)
	parallel func(pb *testing.PB, v any) (bad int)
	// setUp, if set, runs before each of the API's benchmarks, and what
	// it returns after.
	setUp func() (tearDown func())
}

// handleAPIs lists the drop-in API and, when cgo is on, runtime/cgo.Handle
// (see cgo_test.go).
var handleAPIs = []handleAPI{{
	name: "boxroot-handle",
	loop: func(n int, v any) (bad int) {
		for range n {
			h := NewHandle(v)
			if h.Value() != v {
				bad++
			}
			h.Delete()
		}
		return bad
	},
	parallel: func(pb *testing.PB, v any) (bad int) {
		for pb.Next() {
			h := NewHandle(v)
			if h.Value() != v {
				bad++
			}
			h.Delete()
		}
		return bad
	},
}}

// BenchmarkHandle times one NewHandle, Value and Delete, on one goroutine
// and in parallel, for every API in handleAPIs.
func BenchmarkHandle(b *testing.B) {
	for _, api := range handleAPIs {
		b.Run(api.name, func(b *testing.B) {
			if api.setUp != nil {
				defer api.setUp()()
			}
			b.ReportAllocs()
			stop := cpuPerOp(b)
			bad := api.loop(b.N, sinkValue)
			stop()
			if bad != 0 {
				b.Fatalf("%d wrong values", bad)
			}
		})
		b.Run(api.name+"/parallel", func(b *testing.B) {
			if api.setUp != nil {
				defer api.setUp()()
			}
			b.ReportAllocs()
			defer processCPUPerOp(b)()
			var bad atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				bad.Add(int64(api.parallel(pb, any(new(int)))))
			})
			if bad.Load() != 0 {
				b.Fatalf("%d wrong values", bad.Load())
			}
		})
	}
}

// BenchmarkHandleCrossThread is the pattern the drop-in API exists for:
// handles created on one thread and deleted on another. It runs the
// message-passing workload (workload/msgpass, as `rootbench run` does, in
// process): producer goroutines create handles in batches of 1024 and push
// them on a lock-free queue, consumer goroutines pop them, check each value
// and delete the handle; each worker is locked to its own OS thread, and a
// producer waits for its batches to be consumed every 128 batches. One op
// is one handle (b.N rounded up to whole batches); ns/cell is the
// workload's own clock (setup excluded), cpu-ns/op every thread's CPU time
// per cell (setup included): their ratio tells a run bound by one thread's
// latency from one that keeps both cores busy. It runs one producer and one
// consumer, two of each on the shared queue, and two of each with a queue
// per consumer; each with the drop-in API, the domain API (boxroot:
// producer domains create, consumer domains delete remotely) and, with cgo,
// runtime/cgo.Handle, so that their ratios come from one invocation.
// BenchmarkHandle is the same API on one goroutine: read the two together.
func BenchmarkHandleCrossThread(b *testing.B) {
	for _, w := range []struct {
		name       string
		prod, cons int
		queue      msgpass.Queue
	}{
		{"1x1", 1, 1, msgpass.Shared},
		{"2x2", 2, 2, msgpass.Shared},
		{"2x2-per-consumer", 2, 2, msgpass.PerConsumer},
	} {
		for _, c := range crossCases {
			b.Run(w.name+"/"+c.name, func(b *testing.B) {
				p := msgpass.DefaultParams()
				p.Producers, p.Consumers, p.Queue = w.prod, w.cons, w.queue
				p.NIters = max(1, (b.N+p.BatchSize*p.Producers-1)/(p.BatchSize*p.Producers))
				b.ReportAllocs()
				stopCPU := processCPUPerOp(b)
				res, err := c.run(p)
				stopCPU()
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Wall.Nanoseconds())/float64(res.Cells), "ns/cell")
			})
		}
	}
}

// crossCase is one API in BenchmarkHandleCrossThread: run makes a fresh
// implementation and runs the workload on it once; domain makes one of its
// worker domains (for TestCrossCaseDomainsApart).
type crossCase struct {
	name   string
	run    func(msgpass.Params) (msgpass.Result, error)
	domain func() any
}

func crossCaseOf[C any](name string, newImpl func() cell.Impl[C]) crossCase {
	return crossCase{
		name: name,
		run: func(p msgpass.Params) (msgpass.Result, error) {
			return msgpass.Run(context.Background(), newImpl(), p)
		},
		domain: func() any { return newImpl().NewDomain() },
	}
}

// crossCases lists the APIs BenchmarkHandleCrossThread compares;
// cgo_test.go adds cgo-handle.
var crossCases = []crossCase{
	crossCaseOf("boxroot-handle", HandleImpl),
	crossCaseOf("boxroot", func() cell.Impl[Handle] { return New(Options{}) }),
}

// mpParams are the message-passing benchmark's parameters.
type mpParams struct {
	cells, batch, maxDelay int
}

// msgPass is a minimal parallel message-passing run: a producer domain
// creates batches of cells and sends them over a channel to a consumer
// domain, which checks every value and deletes every cell. Every maxDelay
// batches the producer waits until the consumer has caught up. Producer
// and consumer are each locked to an OS thread.
func msgPass[C any](impl cell.Impl[C], p mpParams) error {
	prod, cons := impl.NewDomain(), impl.NewDomain()
	vals := make([]any, p.batch)
	for i := range vals {
		vals[i] = new(int)
	}
	nb := (p.cells + p.batch - 1) / p.batch
	batches := make(chan []C, p.maxDelay+1)
	spare := make(chan []C, p.maxDelay+2)
	ack := make(chan struct{})
	var wg sync.WaitGroup
	var cerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer cons.Close()
		for batch := range batches {
			if batch == nil {
				ack <- struct{}{}
				continue
			}
			for j, c := range batch {
				if cons.Get(c) != vals[j] && cerr == nil {
					cerr = fmt.Errorf("cell %d of a batch: wrong value", j)
				}
				cons.Delete(c)
			}
			select {
			case spare <- batch[:0]:
			default:
			}
		}
	}()
	runtime.LockOSThread()
	for i := range nb {
		var batch []C
		select {
		case batch = <-spare:
		default:
			batch = make([]C, 0, p.batch)
		}
		for j := range p.batch {
			batch = append(batch, prod.Create(vals[j]))
		}
		batches <- batch
		if p.maxDelay > 0 && (i+1)%p.maxDelay == 0 {
			batches <- nil
			<-ack
		}
	}
	runtime.UnlockOSThread()
	close(batches)
	wg.Wait()
	prod.Close()
	return cerr
}

// mpCase is one cell implementation in the message-passing benchmark.
type mpCase struct {
	name string
	run  func(mpParams) error
}

func mpCaseOf[C any](name string, newImpl func() cell.Impl[C]) mpCase {
	return mpCase{name, func(p mpParams) error { return msgPass(newImpl(), p) }}
}

// mpCases lists the cells compared; cgo_test.go adds cgo-handle.
var mpCases = func() []mpCase {
	cs := []mpCase{
		mpCaseOf("ocaml", func() cell.Impl[any] { return directImpl{} }),
		mpCaseOf("boxroot", func() cell.Impl[Handle] { return New(Options{}) }),
		mpCaseOf("ref", func() cell.Impl[*refBox] { return refImpl{} }),
		mpCaseOf("boxroot-handle", HandleImpl),
		mpCaseOf("bxboxed", func() cell.Impl[Handle] { return boxedImpl{New(Options{})} }),
	}
	for _, v := range Variants() {
		opts := v.Options
		cs = append(cs, mpCaseOf("boxroot:"+v.Name, func() cell.Impl[Handle] { return New(opts) }))
	}
	return cs
}()

// BenchmarkMsgPass is the parallel message-passing workload with the
// default parameters (BATCH_SIZE=1024, MAX_DELAY=128); one op is one cell.
func BenchmarkMsgPass(b *testing.B) {
	for _, c := range mpCases {
		b.Run(c.name, func(b *testing.B) { benchMsgPass(b, c) })
	}
}

// benchMsgPass runs c through b.N cells of the message-passing workload
// (BATCH_SIZE=1024, MAX_DELAY=128), reporting every thread's CPU time per
// cell beside the wall time.
func benchMsgPass(b *testing.B, c mpCase) {
	b.ReportAllocs()
	defer processCPUPerOp(b)()
	if err := c.run(mpParams{cells: b.N, batch: 1024, maxDelay: 128}); err != nil {
		b.Fatal(err)
	}
}

// directImpl is the control: the cell is the value itself.
type directImpl struct{}

func (directImpl) NewDomain() cell.Domain[any] { return directImpl{} }
func (directImpl) Create(v any) any            { return v }
func (directImpl) Get(c any) any               { return c }
func (directImpl) Delete(any)                  {}
func (directImpl) Close()                      {}

// refImpl is a fresh heap box per cell, as the ref cell.
type refImpl struct{}

type refBox struct{ v any }

func (refImpl) NewDomain() cell.Domain[*refBox] { return refImpl{} }
func (refImpl) Create(v any) *refBox            { return &refBox{v} }
func (refImpl) Get(c *refBox) any               { return c.v }
func (refImpl) Delete(c *refBox)                { c.v = nil }
func (refImpl) Close()                          {}

// boxedImpl is bx-boxed (impls/bxboxed) restated here, as that package
// imports this one: a heap box per cell, rooted through boxroot.
type boxedImpl struct{ im *Impl }

type boxedDomain struct{ d cell.Domain[Handle] }

func (b boxedImpl) NewDomain() cell.Domain[Handle] { return boxedDomain{b.im.NewDomain()} }
func (b boxedDomain) Create(v any) Handle          { return b.d.Create(&refBox{v}) }
func (b boxedDomain) Get(h Handle) any             { return b.d.Get(h).(*refBox).v }
func (b boxedDomain) Delete(h Handle)              { b.d.Delete(h) }
func (b boxedDomain) Close()                       { b.d.Close() }
