package boxroot

import (
	"flag"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/internal/racedetect"
)

var churnFull = flag.Bool("boxroot.churn-full", false,
	"run TestDropInChurn at full size (3000 handles per goroutine) even under -race")

// TestDropInChurn runs 150 waves of 64 short-lived goroutines (churnWaves,
// through HandleImpl's domains, whose methods are the fast paths). Each
// creates a batch of handles, deletes half of them itself and leaves the
// other half to a goroutine of the next wave, then exits. The drop-in
// pools must stay within 1.25 times the pools that the peak of live
// handles needs, plus one per cache the waves used (cachesUsedSince; a
// cache holds at most a pool's worth of slots), or within the pools other
// tests left, which the depot reuses first; and once everything is
// deleted, every pool must be released or kept empty, but for those
// holding a cached slot.
func TestDropInChurn(t *testing.T) {
	batch := 3000
	if racedetect.Enabled && !*churnFull {
		// The race detector makes each handle many times dearer. Not smaller:
		// slots cached by the Ps cost a few pools whatever the size,
		// which the 25% margin covers only from some 40 pools' worth up.
		batch = 600
	}
	if testing.Short() {
		batch = 100
	}
	resetStdPeak()
	before, _ := stdLiveSlots() // left by other tests
	// The pools other tests left: the depot reuses them before it
	// allocates, so they are the peak until the test needs more.
	startPools := StdStats()["pools"]
	counters := cacheCounters()
	peak := churnWaves(t, HandleImpl(), batch)
	need := (before + peak + poolSize - 1) / poolSize
	used := cachesUsedSince(counters)
	limit := max(need*5/4+int64(used), startPools)
	s := StdStats()
	t.Logf("%d waves of %d goroutines: peak %d handles live (and %d of other tests: %d pools' worth), peak %d pools (limit %d with %d caches in use, %d pools at the start); now %v",
		churnWavesN, churnWorkers, peak, before, need, s["peak_pools"], limit, used, startPools, s)
	if s["peak_pools"] > limit {
		t.Errorf("peak %d pools for a peak of %d live handles (%d pools' worth): more than %d",
			s["peak_pools"], peak, need, limit)
	}
	checkReleased(t)
}

// churnWavesN waves of churnWorkers goroutines make churnWaves' pattern.
const churnWavesN, churnWorkers = 150, 64

// churnWaves runs TestDropInChurn's pattern on impl: churnWavesN waves of
// churnWorkers goroutines, each with a domain of its own, creating batch
// handles, deleting the half the previous wave handed it and half of its
// own (checking each value), and handing the other half on; at the end
// every handle is deleted. It returns the peak of live handles, and fails
// tb on a wrong value.
func churnWaves(tb testing.TB, impl cell.Impl[Handle], batch int) int64 {
	var live, peak, bad atomic.Int64
	counted := func(d int64) {
		n := live.Add(d)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
	}
	handOver := make([][]Handle, churnWorkers) // from the previous wave
	for wave := range churnWavesN {
		next := make([][]Handle, churnWorkers)
		var wg sync.WaitGroup
		for w := range churnWorkers {
			wg.Go(func() {
				d := impl.NewDomain()
				defer d.Close()
				base := (wave*churnWorkers + w) * batch
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
				next[(w+1)%churnWorkers] = hs[batch/2:]
			})
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
		tb.Errorf("%d wrong values", bad.Load())
	}
	return peak.Load()
}
