//go:build !race

package boxroot

import "testing"

// BenchmarkChurnPools runs TestDropInChurn's pattern (waves of short-lived
// goroutines, each creating a batch, deleting half of it and handing the
// other half to a goroutine of the next wave) once per iteration, on the
// drop-in API and on pdomain-checked (a domain of the domain API per P),
// and reports the pools each allocator held at its peak against the pools
// that the peak of live handles needs (peak-pools/need). TestDropInChurn
// holds the drop-in API to 1.25 times the need plus one pool per cache in
// use; this
// prices the same bound for the domain-per-P design, which TestDropInChurn
// cannot run. Not under -race (pdomain-checked's exclusion is the pins').
//
//	go test -run XXX -bench ChurnPools -benchtime 1x ./impls/boxroot
func BenchmarkChurnPools(b *testing.B) {
	b.Run("boxroot-handle", func(b *testing.B) {
		for range b.N {
			resetStdPeak()
			before, _ := stdLiveSlots()
			peak := churnWaves(b, HandleImpl(), 3000)
			reportChurn(b, StdStats()["peak_pools"], before+peak)
		}
	})
	b.Run("pdomain-checked", func(b *testing.B) {
		for range b.N {
			fi := newPcheckedImpl()
			peak := churnWaves(b, fi, 3000)
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
