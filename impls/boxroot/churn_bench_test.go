package boxroot

import "testing"

// BenchmarkChurnPools runs TestDropInChurn's pattern (waves of short-lived
// goroutines, each creating a batch, deleting half of it and handing the
// other half to a goroutine of the next wave) once per iteration on the
// drop-in API, and reports the pools it held at its peak against the pools
// that the peak of live handles needs (peak-pools/need), at the full batch
// size whatever the flags. TestDropInChurn holds the same ratio to 1.25
// plus one pool per cache in use.
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
}

func reportChurn(b *testing.B, peakPools, peakLive int64) {
	need := (peakLive + poolSize - 1) / poolSize
	b.ReportMetric(float64(peakPools), "peak-pools")
	b.ReportMetric(float64(need), "need-pools")
	b.ReportMetric(float64(peakPools)/float64(need), "peak-pools/need")
}
