//go:build !race

package boxroot

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rootbench/rootbench/cell"
)

// BenchmarkChurnPools runs TestDropInChurn's pattern (waves of short-lived
// goroutines, each creating a batch, deleting half of it and handing the
// other half to a goroutine of the next wave) once per iteration, on the
// drop-in API and on pdomain-checked (a domain of the domain API per P),
// and reports the pools each allocator held at its peak against the pools
// that the peak of live handles needs (peak-pools/need). TestDropInChurn
// holds the drop-in API to 1.25 times the need plus one pool per P; this
// prices the same bound for the domain-per-P design, which TestDropInChurn
// cannot run. Not under -race (pdomain-checked's exclusion is the pins').
//
//	go test -run XXX -bench ChurnPools -benchtime 1x ./impls/boxroot
func BenchmarkChurnPools(b *testing.B) {
	b.Run("boxroot-handle", func(b *testing.B) {
		for range b.N {
			resetStdPeak()
			before, _ := stdLiveSlots()
			peak := churnWaves(b, HandleImpl())
			reportChurn(b, StdStats()["peak_pools"], before+peak)
		}
	})
	b.Run("pdomain-checked", func(b *testing.B) {
		for range b.N {
			fi := &pcheckedImpl{newPdomainImpl()}
			peak := churnWaves(b, fi)
			reportChurn(b, fi.im.Stats()["peak_pools"], peak)
		}
	})
}

func reportChurn(b *testing.B, peakPools, peakLive int64) {
	need := (peakLive + poolSize - 1) / poolSize
	b.ReportMetric(float64(peakPools), "peak-pools")
	b.ReportMetric(float64(need), "need-pools")
	b.ReportMetric(float64(peakPools)/float64(need), "peak-pools/need")
}

// churnWaves runs the churn pattern on impl, checking every value, and
// returns the peak of live handles.
func churnWaves(b *testing.B, impl cell.Impl[Handle]) int64 {
	const waves, workers, batch = 150, 64, 3000
	var live, peak, bad atomic.Int64
	counted := func(d int64) {
		n := live.Add(d)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
	}
	handOver := make([][]Handle, workers)
	for wave := range waves {
		next := make([][]Handle, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := impl.NewDomain()
				defer d.Close()
				base := (wave*workers + w) * batch
				hs := make([]Handle, batch)
				for i := range hs {
					counted(1)
					hs[i] = d.Create(base + i)
				}
				for _, h := range handOver[w] {
					d.Delete(h)
					counted(-1)
				}
				for i, h := range hs[:batch/2] {
					if d.Get(h) != base+i {
						bad.Add(1)
					}
					d.Delete(h)
					counted(-1)
				}
				next[(w+1)%workers] = hs[batch/2:]
			}()
		}
		wg.Wait()
		handOver = next
	}
	d := impl.NewDomain()
	for _, hs := range handOver {
		for _, h := range hs {
			d.Delete(h)
		}
	}
	d.Close()
	if bad.Load() != 0 {
		b.Fatalf("%d wrong values", bad.Load())
	}
	return peak.Load()
}
