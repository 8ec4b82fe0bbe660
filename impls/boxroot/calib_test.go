package boxroot

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootbench/rootbench/cell"
)

// floorDomain is the cheapest possible integer-handle table behind the
// cell.Domain interface: a slice of slots, no free list, no checks. Its
// benchmarks are the floor under boxroot's (the interface calls and the
// loop); floorDom is a package variable so the calls stay dynamic.
type floorDomain struct {
	slots []any
	next  uintptr
}

func (f *floorDomain) Create(v any) Handle {
	i := f.next & 4095
	f.next++
	f.slots[i] = v
	return Handle(i)
}
func (f *floorDomain) Get(h Handle) any { return f.slots[h&4095] }
func (f *floorDomain) Delete(h Handle)  { f.slots[h&4095] = nil }
func (f *floorDomain) Close()           {}

var floorDom cell.Domain[Handle] = &floorDomain{slots: make([]any, 4096)}

// BenchmarkFloorCreateDelete is the floor under BenchmarkLocalCreateDelete.
func BenchmarkFloorCreateDelete(b *testing.B) {
	d := floorDom
	v := sinkValue
	defer cpuPerOp(b)()
	for b.Loop() {
		d.Delete(d.Create(v))
	}
}

// BenchmarkFloorDirectCreateDelete is the floor under
// BenchmarkConcreteLocalCreateDelete: floorDomain's trivial Create and
// Delete called directly, kept out of line as boxroot's are.
func BenchmarkFloorDirectCreateDelete(b *testing.B) {
	f := &floorDomain{slots: make([]any, 4096)}
	v := sinkValue
	defer cpuPerOp(b)()
	for range b.N {
		f.deleteOutOfLine(f.createOutOfLine(v))
	}
}

//go:noinline
func (f *floorDomain) createOutOfLine(v any) Handle { return f.Create(v) }

//go:noinline
func (f *floorDomain) deleteOutOfLine(h Handle) { f.Delete(h) }

// BenchmarkFloorGet is the floor under BenchmarkGet.
func BenchmarkFloorGet(b *testing.B) {
	d := floorDom
	want := sinkValue.(*int)
	var bad int
	defer cpuPerOp(b)()
	for i := 0; b.Loop(); i++ {
		if p, _ := d.Get(Handle(i & 4095)).(*int); p != want && p != nil {
			bad++
		}
	}
	if bad != 0 {
		b.Fatal("wrong value")
	}
}

// calPool and calWord serve the calibrations of the drop-in API's costs.
var (
	calPool = sync.Pool{New: func() any { return new(int) }}
	calWord atomic.Uint64
)

// BenchmarkCalibrateSyncPool is one sync.Pool Get and Put, the standard
// library's per-P cache.
func BenchmarkCalibrateSyncPool(b *testing.B) {
	defer cpuPerOp(b)()
	for b.Loop() {
		x := calPool.Get().(*int)
		calPool.Put(x)
	}
}

// BenchmarkCalibrateCAS is one uncontended load and CAS, then one atomic
// OR: the two atomic operations a bitmap-based handle table pays per
// handle (claim and free).
func BenchmarkCalibrateCAS(b *testing.B) {
	defer cpuPerOp(b)()
	for b.Loop() {
		o := calWord.Load()
		calWord.CompareAndSwap(o, o+1)
		calWord.Or(1)
	}
}

// BenchmarkCalibratePin is two procPin/procUnpin pairs around a trivial
// per-P update: the synchronisation the drop-in API pays per handle (one
// pair in NewHandle, one in Delete), its floor.
func BenchmarkCalibratePin(b *testing.B) {
	var perP [64]int
	defer cpuPerOp(b)()
	for b.Loop() {
		perP[procPin()&63]++
		procUnpin()
		perP[procPin()&63]--
		procUnpin()
	}
}

// BenchmarkCalibrateCall is BenchmarkCalibratePin with each procPin and
// procUnpin replaced by a call to an empty function the compiler may not
// inline. procPin and procUnpin are the runtime's, linked by name, so the
// compiler cannot inline them either: when the two benchmarks read alike,
// the pins cost their calls, and no shorter pin body would help.
func BenchmarkCalibrateCall(b *testing.B) {
	var perP [64]int
	defer cpuPerOp(b)()
	for b.Loop() {
		perP[calNoPin()&63]++
		calNoUnpin()
		perP[calNoPin()&63]--
		calNoUnpin()
	}
}

// calNoPin and calNoUnpin are BenchmarkCalibrateCall's empty calls, shaped
// as procPin and procUnpin.
//
//go:noinline
func calNoPin() int { return 0 }

//go:noinline
func calNoUnpin() {}

// BenchmarkCalibrateUnpinned is BenchmarkHandle's single-goroutine loop
// with the pins taken out: NewHandle, Value and Delete's fast paths on a
// cache of the benchmark's own, filled from the depot, with no procPin or
// procUnpin. It is not a usable API (a cache used without the pin is safe
// only for one goroutine); it measures what the drop-in API would cost if
// its synchronisation were free, the bound on any per-P design that keeps
// its checks and its GC-visible writes.
func BenchmarkCalibrateUnpinned(b *testing.B) {
	// The benchmark's cache takes cacheBatch free slots from the drop-in
	// API, and gives them back at the end.
	c := new(pcache)
	for range cacheBatch {
		unpinnedDelete(c, NewHandle(nil))
	}
	v := sinkValue
	bad := 0
	defer cpuPerOp(b)()
	for range b.N {
		h := unpinnedNew(c, v)
		if h.Value() != v {
			bad++
		}
		unpinnedDelete(c, h)
	}
	b.StopTimer()
	if bad != 0 {
		b.Fatalf("%d wrong values", bad)
	}
	for c.len() > 0 {
		unpinnedNew(c, nil).Delete()
	}
}

// unpinnedNew is NewHandle's fast path without the pin.
//
//go:noinline
func unpinnedNew(c *pcache, v any) Handle {
	h := c.pop()
	stdSlot(h).v = v
	return h
}

// unpinnedDelete is Delete's fast path without the pin.
//
//go:noinline
func unpinnedDelete(c *pcache, h Handle) {
	free(stdLive(h), h)
	c.pushFreed(h + tagOne)
}

// crossSink keeps BenchmarkCalibrateCrossCore's reads from being dropped.
var crossSink uintptr

// BenchmarkCalibrateCrossCore is the price of slot traffic between cores:
// one goroutine writes 512 KiB of 16-byte slots (two words, as an interface
// value is), then another reads and rewrites each slot, as the producer and
// the consumer of message passing do; the two take turns, each locked to
// its own thread. b.N counts slots of the reading passes, and the ns/slot
// metric times those passes alone (ns/op also counts the writing passes
// and the hand-offs). Sub-benchmark "local" has the writing goroutine read
// too, for comparison.
func BenchmarkCalibrateCrossCore(b *testing.B) {
	type slot struct{ a, b uintptr }
	const n = 1 << 15
	for _, c := range []struct {
		name  string
		cross bool
	}{{"cross", true}, {"local", false}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]slot, n)
			var took time.Duration
			readWrite := func() {
				t := time.Now()
				var x uintptr
				for i := range buf {
					x += buf[i].a
					buf[i] = slot{x, 0}
				}
				took += time.Since(t)
				crossSink += x
			}
			turn, done := make(chan struct{}), make(chan struct{})
			go func() { // the reader, when cross
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				for range turn {
					readWrite()
					done <- struct{}{}
				}
			}()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			passes := (b.N + n - 1) / n
			for r := range passes {
				for i := range buf {
					buf[i] = slot{uintptr(i + r), uintptr(r)}
				}
				if c.cross {
					turn <- struct{}{} // buf is the reader's until done
					<-done
				} else {
					readWrite()
				}
			}
			close(turn)
			b.ReportMetric(float64(took)/float64(passes*n), "ns/slot")
		})
	}
}

// cpuPerOp locks the benchmark to its thread and, when the returned func
// runs after the loop, reports the thread's CPU time per op ("cpu-ns/op").
// Use it with defer before a b.Loop loop on one goroutine.
func cpuPerOp(b *testing.B) func() {
	runtime.LockOSThread()
	start, ok := threadCPU()
	return func() {
		end, ok2 := threadCPU()
		runtime.UnlockOSThread()
		if ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// processCPUPerOp is cpuPerOp for work spread over several threads: every
// thread's CPU time, per op.
func processCPUPerOp(b *testing.B) func() {
	start, ok := processCPU()
	return func() {
		end, ok2 := processCPU()
		if ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
