package harness

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/rootbench/rootbench/cputime"
)

// The worker's side of a run: Measure wraps the workload and fills the GC
// and memory figures; WriteWorkerLine prints the Run for the parent.

// samplePeriod is how often Measure samples the heap for its peak. Reading
// two runtime/metrics scalars does not stop the world and costs about a
// microsecond, so the sampler's cost is negligible next to the workload.
const samplePeriod = 2 * time.Millisecond

// Metric names read by Measure.
const (
	mGCCycles      = "/gc/cycles/total:gc-cycles"
	mGCCPUTotal    = "/cpu/classes/gc/total:cpu-seconds"
	mGCCPUAssist   = "/cpu/classes/gc/mark/assist:cpu-seconds"
	mGCCPUDedic    = "/cpu/classes/gc/mark/dedicated:cpu-seconds"
	mGCCPUIdle     = "/cpu/classes/gc/mark/idle:cpu-seconds"
	mGCCPUPause    = "/cpu/classes/gc/pause:cpu-seconds"
	mPausesTotal   = "/sched/pauses/total/gc:seconds"
	mPausesStop    = "/sched/pauses/stopping/gc:seconds"
	mHeapObjects   = "/memory/classes/heap/objects:bytes"
	mGOMAXPROCS    = "/sched/gomaxprocs:threads"
	secondsToNanos = 1e9
)

var aroundMetrics = []string{mGCCycles, mGCCPUTotal, mGCCPUAssist, mGCCPUDedic, mGCCPUIdle, mGCCPUPause, mPausesTotal, mPausesStop}

// Pass is what one pass of a workload measured: its own wall time
// (excluding its set-up and teardown), the process's CPU time over the
// same interval (read by the workload where it reads its clock), the units
// of work it did, and the implementation's statistics after it.
type Pass struct {
	Wall  time.Duration
	CPU   cputime.Times
	Cells int64
	Stats map[string]int64
}

// MaxPasses bounds the passes MeasurePasses accepts.
const MaxPasses = 1000

// MeasurePasses is a measured run of several passes in one process: pass
// once, unmeasured (the warm-up: it faults in the heap, starts the threads
// and warms the caches a fresh process lacks), then passes more times, each
// under its own Measure, which first collects the heap. Each call of pass
// must do the whole workload on a fresh implementation and verify it; the
// first error stops the run.
//
// Every measured pass thus starts from a collected heap, so where the
// pass's own collections fall depends on the pass alone, not on what the
// process allocated before it: neither the warm-up's leftovers nor the
// command line's start-up can shift a GC cycle into or out of a pass. A
// workload whose pass allocates about one heap goal's worth is otherwise
// slower or faster by a cycle, depending on the bytes allocated before it
// (docs/records.md, "Every measured pass starts from a collected heap").
//
// The Run's WallNs, Cells, CPUUserNs and CPUSysNs are the sums over the
// measured passes, PassNs holds each measured pass's wall time, and Stats
// are the last pass's but for those whose key ends in SummedStatSuffix,
// which are summed over the measured passes: the warm-up pass, and whatever
// the worker does between passes, is in neither the wall nor the CPU time.
// The GC figures are the measured passes' (GC.add): the forced collections
// before them, and the warm-up, are in none of them.
func MeasurePasses(passes int, pass func() (Pass, error)) (Run, error) {
	if passes < 1 || passes > MaxPasses {
		return Run{}, fmt.Errorf("measure: %d passes: must be from 1 to %d", passes, MaxPasses)
	}
	if _, err := pass(); err != nil {
		return Run{}, fmt.Errorf("warm-up pass: %w", err)
	}
	run := Run{PassNs: make([]int64, 0, passes)}
	var wall time.Duration
	var cpu cputime.Times
	var procNs float64
	for i := range passes {
		var ps Pass
		one, onePNs, err := measure(func() (int64, map[string]int64, error) {
			var err error
			ps, err = pass()
			return ps.Cells, ps.Stats, err
		})
		run.GC = run.GC.add(one.GC)
		procNs += onePNs
		if err != nil {
			run.Cells += ps.Cells
			run.Stats = ps.Stats
			return run, fmt.Errorf("measured pass %d of %d: %w", i+1, passes, err)
		}
		wall += ps.Wall
		cpu = cpu.Add(ps.CPU)
		run.Cells += ps.Cells
		run.Stats = passStats(run.Stats, ps.Stats)
		run.PassNs = append(run.PassNs, ps.Wall.Nanoseconds())
	}
	run.GC.CPUPercent = gcCPUPercent(run.GC.CPUTotalNs, procNs)
	run.WallNs = wall.Nanoseconds()
	run.CPUUserNs, run.CPUSysNs = cpu.User.Nanoseconds(), cpu.Sys.Nanoseconds()
	return run, nil
}

// SummedStatSuffix ends the Stats keys that are time a pass spent (in
// nanoseconds, as a planted slowdown's spin: impls.PlantedWallStat): a run's
// figure is the sum over its measured passes, where every other statistic
// (an implementation's counters) is the last pass's.
const SummedStatSuffix = "_ns"

// passStats is a run's Stats after a pass that reported cur, the run's
// being prev so far: cur, with each summed key (SummedStatSuffix) added to
// prev's.
func passStats(prev, cur map[string]int64) map[string]int64 {
	if prev == nil || cur == nil {
		return cur
	}
	out := maps.Clone(cur)
	for k, v := range prev {
		if strings.HasSuffix(k, SummedStatSuffix) {
			out[k] += v
		}
	}
	return out
}

// Measure runs fn once, the measured workload, and returns its figures as a
// Run. fn returns the units of work it did (cells or calls), the
// implementation's statistics, and an error if the workload failed.
//
// The split between Measure and its caller: Measure fills Cells, Stats, GC and
// WallNs, where WallNs is the wall time of the whole fn call. A workload that
// times itself (excluding its own set-up, as msgpass and callback do)
// overwrites WallNs with its own figure. The parent fills the process figures,
// Index and StartedAt.
//
// Before fn, Measure forces a garbage collection (as testing.B does), so every
// run starts from a collected heap and the runtime's CPU statistics, which it
// only updates at the end of a GC cycle, are fresh. Around fn it reads
// runtime/metrics and runtime.MemStats; ReadMemStats stops the world, so it is
// called only before and after fn, never during it. During fn a sampler
// goroutine reads the heap size and GOMAXPROCS every samplePeriod (no
// stop-the-world) for the peak heap and the CPU-percent denominator.
//
// The GC figures:
//   - Cycles, MaxPauseNs (exact, from MemStats.PauseNs; when more than 256
//     cycles ran, the ring has been overwritten and the upper bound of the
//     /sched/pauses/total/gc histogram's highest non-empty bucket is used),
//     TotalPauseNs (exact, MemStats.PauseTotalNs: every GC stop-the-world
//     pause, stopping time included), HeapAllocBytes and HeapAllocObjs
//     (MemStats.TotalAlloc and Mallocs) are MemStats differences.
//   - The CPU times are /cpu/classes/gc/... differences. The runtime updates
//     them when a cycle's mark phase ends, so a cycle still marking when fn
//     returns is not counted.
//   - CPUPercent is CPUTotalNs over GOMAXPROCS integrated over fn's wall time
//     (what /cpu/classes/total:cpu-seconds measures; that metric itself is
//     only updated at the end of a GC cycle, so Measure integrates its samples
//     of GOMAXPROCS instead, which also follows a workload that changes
//     GOMAXPROCS).
//   - StoppingNs, the total time to stop the world for the GC (time to
//     safepoint), is estimated from the /sched/pauses/stopping/gc histogram as
//     the sum of its new counts times their buckets' midpoints; MaxStoppingNs
//     is the upper bound of its highest non-empty bucket.
//   - PeakHeapBytes is the highest /memory/classes/heap/objects:bytes seen by
//     the sampler and at the end (live and not yet swept objects).
//
// If fn fails, Measure returns the figures gathered and fn's error as is.
func Measure(fn func() (cells int64, stats map[string]int64, err error)) (Run, error) {
	run, _, err := measure(fn)
	return run, err
}

// measure is Measure, which also returns the GOMAXPROCS integrated over
// fn's wall time (P-nanoseconds, the denominator of GC.CPUPercent), so
// that MeasurePasses can combine several measurements' percentages.
func measure(fn func() (cells int64, stats map[string]int64, err error)) (Run, float64, error) {
	runtime.GC()
	before := readMetrics(aroundMetrics)
	var msBefore runtime.MemStats
	runtime.ReadMemStats(&msBefore)

	smp := startSampler()
	start := time.Now()
	cells, st, err := runAndStop(fn, smp)
	wall := time.Since(start)

	var msAfter runtime.MemStats
	runtime.ReadMemStats(&msAfter)
	after := readMetrics(aroundMetrics)

	run := Run{WallNs: wall.Nanoseconds(), Cells: cells, Stats: st}
	run.GC = gcFigures(before, after, &msBefore, &msAfter, smp)
	return run, smp.procNs, err
}

// runAndStop calls fn and stops the sampler even if fn panics.
func runAndStop(fn func() (int64, map[string]int64, error), smp *sampler) (int64, map[string]int64, error) {
	defer smp.stop()
	return fn()
}

// gcFigures computes the GC figures from the readings around the run and the
// sampler's results. smp must have been stopped.
func gcFigures(before, after map[string]metrics.Value, msBefore, msAfter *runtime.MemStats, smp *sampler) GC {
	var g GC
	g.Cycles = int64(msAfter.NumGC - msBefore.NumGC)
	g.CPUTotalNs = secondsDiff(before, after, mGCCPUTotal)
	g.CPUAssistNs = secondsDiff(before, after, mGCCPUAssist)
	g.CPUDedicatedNs = secondsDiff(before, after, mGCCPUDedic)
	g.CPUIdleNs = secondsDiff(before, after, mGCCPUIdle)
	g.CPUPauseNs = secondsDiff(before, after, mGCCPUPause)
	g.CPUPercent = gcCPUPercent(g.CPUTotalNs, smp.procNs)
	pauses := histDiff(before[mPausesTotal], after[mPausesTotal])
	if mp, ok := maxPause(msBefore.NumGC, msAfter.NumGC, &msAfter.PauseNs); ok {
		g.MaxPauseNs = int64(mp)
	} else {
		g.MaxPauseNs = int64(pauses.max() * secondsToNanos)
	}
	g.TotalPauseNs = int64(msAfter.PauseTotalNs - msBefore.PauseTotalNs)
	stopping := histDiff(before[mPausesStop], after[mPausesStop])
	g.StoppingNs = int64(stopping.midpointSum() * secondsToNanos)
	g.MaxStoppingNs = int64(stopping.max() * secondsToNanos)
	g.HeapAllocBytes = int64(msAfter.TotalAlloc - msBefore.TotalAlloc)
	g.HeapAllocObjs = int64(msAfter.Mallocs - msBefore.Mallocs)
	g.PeakHeapBytes = int64(smp.peak)
	return g
}

// gcCPUPercent is the GC's CPU time as a percent of procNs, the GOMAXPROCS
// integrated over the wall time it was spent in (0 when procNs is not
// positive).
func gcCPUPercent(cpuTotalNs int64, procNs float64) float64 {
	if procNs <= 0 {
		return 0
	}
	return 100 * float64(cpuTotalNs) / procNs
}

// add is the GC figures of two measurements taken one after the other:
// counts, times and bytes summed, maxima the larger one. CPUPercent, a
// ratio, is left for the caller, who knows both denominators
// (gcCPUPercent).
func (g GC) add(h GC) GC {
	return GC{
		Cycles:         g.Cycles + h.Cycles,
		CPUTotalNs:     g.CPUTotalNs + h.CPUTotalNs,
		CPUAssistNs:    g.CPUAssistNs + h.CPUAssistNs,
		CPUDedicatedNs: g.CPUDedicatedNs + h.CPUDedicatedNs,
		CPUIdleNs:      g.CPUIdleNs + h.CPUIdleNs,
		CPUPauseNs:     g.CPUPauseNs + h.CPUPauseNs,
		MaxPauseNs:     max(g.MaxPauseNs, h.MaxPauseNs),
		TotalPauseNs:   g.TotalPauseNs + h.TotalPauseNs,
		StoppingNs:     g.StoppingNs + h.StoppingNs,
		MaxStoppingNs:  max(g.MaxStoppingNs, h.MaxStoppingNs),
		HeapAllocBytes: g.HeapAllocBytes + h.HeapAllocBytes,
		HeapAllocObjs:  g.HeapAllocObjs + h.HeapAllocObjs,
		PeakHeapBytes:  max(g.PeakHeapBytes, h.PeakHeapBytes),
	}
}

// maxPause returns the longest pause of cycles numBefore+1 .. numAfter from
// MemStats.PauseNs, a ring in which cycle k (counting from 1) is at
// (k-1) % 256. ok is false when more cycles ran than the ring holds.
func maxPause(numBefore, numAfter uint32, ring *[256]uint64) (max uint64, ok bool) {
	n := numAfter - numBefore
	if n > uint32(len(ring)) {
		return 0, false
	}
	for k := numBefore + 1; k != numAfter+1; k++ {
		if p := ring[(k-1)%uint32(len(ring))]; p > max {
			max = p
		}
	}
	return max, true
}

// readMetrics reads the named metrics.
func readMetrics(names []string) map[string]metrics.Value {
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	m := make(map[string]metrics.Value, len(s))
	for _, x := range s {
		m[x.Name] = x.Value
	}
	return m
}

// secondsDiff returns after-before of a float64 seconds metric, in
// nanoseconds; 0 when the metric is not supported by this runtime.
func secondsDiff(before, after map[string]metrics.Value, name string) int64 {
	b, a := before[name], after[name]
	if b.Kind() != metrics.KindFloat64 || a.Kind() != metrics.KindFloat64 {
		return 0
	}
	return int64(math.Round((a.Float64() - b.Float64()) * secondsToNanos))
}

// hist is the difference of two readings of a cumulative histogram: the
// counts that arrived in between, over the same buckets.
type hist struct {
	counts  []uint64
	buckets []float64 // len(counts)+1 boundaries; bucket i is [buckets[i], buckets[i+1])
}

// histDiff returns after-before for a histogram metric (empty when the
// metric is not supported).
func histDiff(before, after metrics.Value) hist {
	if before.Kind() != metrics.KindFloat64Histogram || after.Kind() != metrics.KindFloat64Histogram {
		return hist{}
	}
	b, a := before.Float64Histogram(), after.Float64Histogram()
	h := hist{counts: make([]uint64, len(a.Counts)), buckets: a.Buckets}
	for i, c := range a.Counts {
		if i < len(b.Counts) {
			c -= b.Counts[i]
		}
		h.counts[i] = c
	}
	return h
}

// midpointSum estimates the sum of the histogram's values as each count times
// its bucket's midpoint. A bucket with an infinite bound counts at its finite
// bound (and at 0 if both are infinite).
func (h hist) midpointSum() float64 {
	sum := 0.0
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		lo, hi := h.buckets[i], h.buckets[i+1]
		var mid float64
		switch {
		case math.IsInf(lo, 0) && math.IsInf(hi, 0):
			mid = 0
		case math.IsInf(lo, 0):
			mid = hi
		case math.IsInf(hi, 0):
			mid = lo
		default:
			mid = (lo + hi) / 2
		}
		sum += float64(c) * mid
	}
	return sum
}

// max returns the upper bound of the highest non-empty bucket (its lower
// bound when the upper one is infinite), or 0 for an empty histogram.
func (h hist) max() float64 {
	for i := len(h.counts) - 1; i >= 0; i-- {
		if h.counts[i] == 0 {
			continue
		}
		if hi := h.buckets[i+1]; !math.IsInf(hi, 0) {
			return hi
		}
		if lo := h.buckets[i]; !math.IsInf(lo, 0) {
			return lo
		}
		return 0
	}
	return 0
}

// sampler watches the heap and GOMAXPROCS during a run.
//
// Invariant: between startSampler and stop, the fields below are written
// only by the sampler goroutine; stop waits for that goroutine to exit (the
// close of done happens before stop returns), so after stop the caller reads
// them without further synchronisation.
type sampler struct {
	peak   uint64  // highest heap-objects bytes seen
	procNs float64 // ∫ GOMAXPROCS dt over the run, in P-nanoseconds

	quit chan struct{}
	done chan struct{}
}

func startSampler() *sampler {
	s := &sampler{quit: make(chan struct{}), done: make(chan struct{})}
	started := make(chan struct{})
	go s.loop(started)
	<-started // the first sample is taken: the run starts now
	return s
}

func (s *sampler) loop(started chan<- struct{}) {
	defer close(s.done)
	smp := []metrics.Sample{{Name: mHeapObjects}, {Name: mGOMAXPROCS}}
	last := time.Now()
	procs := float64(runtime.GOMAXPROCS(0))
	read := func() {
		metrics.Read(smp)
		if smp[0].Value.Kind() == metrics.KindUint64 {
			s.peak = max(s.peak, smp[0].Value.Uint64())
		}
		now := time.Now()
		// GOMAXPROCS is taken as constant over each sampling period, at
		// the value read at its start.
		s.procNs += procs * float64(now.Sub(last).Nanoseconds())
		last = now
		if smp[1].Value.Kind() == metrics.KindUint64 {
			procs = float64(smp[1].Value.Uint64())
		}
	}
	read()
	close(started)
	t := time.NewTicker(samplePeriod)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			read()
		case <-s.quit:
			read() // the heap at the end of the run
			return
		}
	}
}

// stop ends sampling and waits for the sampler goroutine.
func (s *sampler) stop() {
	close(s.quit)
	<-s.done
}
