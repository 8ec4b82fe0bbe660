package boxroot

import (
	"runtime"
	"testing"
	"time"
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
