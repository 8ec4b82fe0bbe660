package boxroot

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// handleAPI is a cgo.Handle-shaped API, for side-by-side benchmarks. Each
// loop calls its API directly (no function value per call), n times or
// until pb is done, and counts wrong values. So every API writes its two
// loops out in full (here, in cgo_test.go) rather than sharing one loop
// over a func value or a type parameter, whose calls BenchmarkHandle
// would then time with the API's.
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
