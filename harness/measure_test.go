package harness

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/cputime"
)

var sink [][]byte

func TestMeasureGC(t *testing.T) {
	const live = 8 << 20
	run, err := Measure(func() (int64, map[string]int64, error) {
		// 8 MiB kept live to the end, and 24 MiB of 64-byte garbage: more
		// than the 4 MiB initial heap goal, so the GC must run.
		keep := make([]byte, live)
		for i := 0; i < 24<<20/64; i++ {
			sink = append(sink[:0], make([]byte, 64))
		}
		keep[len(keep)-1] = 1
		runtime.KeepAlive(keep)
		return 42, map[string]int64{"pools": 3}, nil
	})
	sink = nil
	if err != nil {
		t.Fatal(err)
	}
	g := run.GC
	if run.Cells != 42 || run.Stats["pools"] != 3 || run.WallNs <= 0 {
		t.Errorf("cells %d stats %v wall %d: not passed through", run.Cells, run.Stats, run.WallNs)
	}
	if g.Cycles < 1 {
		t.Fatalf("GC cycles = %d: 32 MiB allocated should trigger the GC", g.Cycles)
	}
	if g.HeapAllocBytes < 32<<20 || g.HeapAllocObjs < 24<<20/64 {
		t.Errorf("allocated %d bytes / %d objects, want at least 32 MiB and %d objects", g.HeapAllocBytes, g.HeapAllocObjs, 24<<20/64)
	}
	if g.PeakHeapBytes < live {
		t.Errorf("peak heap %d, want at least the %d bytes kept live", g.PeakHeapBytes, live)
	}
	if g.MaxPauseNs <= 0 || g.TotalPauseNs < g.MaxPauseNs {
		t.Errorf("max pause %d, total pause %d: want 0 < max <= total", g.MaxPauseNs, g.TotalPauseNs)
	}
	if g.CPUTotalNs <= 0 || g.CPUPercent <= 0 || g.CPUPercent > 100 {
		t.Errorf("GC CPU %dns = %.2f%%: want positive and at most 100%%", g.CPUTotalNs, g.CPUPercent)
	}
	if parts := g.CPUAssistNs + g.CPUDedicatedNs + g.CPUIdleNs + g.CPUPauseNs; math.Abs(float64(parts-g.CPUTotalNs)) > 1000 {
		t.Errorf("GC CPU classes sum to %d, total is %d", parts, g.CPUTotalNs)
	}
	if g.StoppingNs < 0 || g.MaxStoppingNs < 0 || (g.StoppingNs > 0 && g.MaxStoppingNs == 0) {
		t.Errorf("stopping %d max %d", g.StoppingNs, g.MaxStoppingNs)
	}
}

func TestMeasureQuiet(t *testing.T) {
	// A workload that does not allocate sees no GC (Measure collected
	// before it started).
	run, err := Measure(func() (int64, map[string]int64, error) {
		time.Sleep(5 * time.Millisecond)
		return 1, nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if run.GC.Cycles != 0 || run.GC.CPUTotalNs != 0 || run.GC.MaxPauseNs != 0 {
		t.Errorf("idle workload: %+v, want no GC", run.GC)
	}
	if run.WallNs < (5 * time.Millisecond).Nanoseconds() {
		t.Errorf("wall %v, want at least the 5ms sleep", time.Duration(run.WallNs))
	}
}

func TestMeasureError(t *testing.T) {
	boom := errors.New("wrong value")
	run, err := Measure(func() (int64, map[string]int64, error) { return 7, nil, boom })
	if !errors.Is(err, boom) || run.Cells != 7 {
		t.Errorf("Measure = (%+v, %v), want fn's error and figures", run, err)
	}
}

func TestMeasurePanicStopsSampler(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		defer func() { _ = recover() }()
		_, _ = Measure(func() (int64, map[string]int64, error) { panic("boom") })
	}()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after a panicking workload, %d before: the sampler leaked", n, before)
	}
}

func TestMaxPause(t *testing.T) {
	t.Parallel()
	var ring [256]uint64
	for i := range ring {
		ring[i] = uint64(i + 1) // cycle k is at (k-1)%256: pause k
	}
	for _, c := range []struct {
		before, after uint32
		want          uint64
		ok            bool
	}{
		{10, 10, 0, true},  // no cycle
		{10, 13, 13, true}, // cycles 11..13 at 10..12
		// Cycles 251..256 at 250..255 (pauses 251..256), then 257..260 at
		// 0..3 (pauses 1..4).
		{250, 260, 256, true},
		{0, 256, 256, true}, // exactly the whole ring
		{0, 257, 0, false},  // overwritten: not exact any more
		// NumGC wrapped around: cycles 2^32-1 (at 254), 2^32 = 0 (at 255)
		// and 1 (at 0).
		{1<<32 - 2, 1, 256, true},
	} {
		got, ok := maxPause(c.before, c.after, &ring)
		if got != c.want || ok != c.ok {
			t.Errorf("maxPause(%d, %d) = %d, %v; want %d, %v", c.before, c.after, got, ok, c.want, c.ok)
		}
	}
}

func TestHist(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	h := hist{
		counts:  []uint64{1, 0, 2, 3, 0},
		buckets: []float64{math.Inf(-1), 1, 2, 4, 8, inf},
	}
	// 1·1 (the -Inf bucket counts at its upper bound) + 2·3 + 3·6 = 25.
	if got := h.midpointSum(); got != 25 {
		t.Errorf("midpointSum = %v, want 25", got)
	}
	if got := h.max(); got != 8 {
		t.Errorf("max = %v, want 8 (upper bound of [4,8))", got)
	}
	h.counts[4] = 1 // a value in [8, +Inf): counts at 8
	if got, want := h.midpointSum(), 33.0; got != want {
		t.Errorf("midpointSum with the +Inf bucket = %v, want %v", got, want)
	}
	if got := h.max(); got != 8 {
		t.Errorf("max with the +Inf bucket = %v, want its finite bound 8", got)
	}
	if (hist{}).max() != 0 || (hist{}).midpointSum() != 0 {
		t.Errorf("empty histogram should give 0")
	}
}

// TestMeasurePasses checks the passes' arithmetic and order: one warm-up
// pass, then the measured ones, whose wall times, CPU times, cells, last
// stats and summed stats (SummedStatSuffix) make the Run; and that the
// warm-up's garbage is collected before the
// measurement, so its GC work is not counted.
func TestMeasurePasses(t *testing.T) {
	var calls int
	run, err := MeasurePasses(3, func() (Pass, error) {
		calls++
		if calls == 1 { // the warm-up: 32 MiB of garbage, more than the initial heap goal
			for i := 0; i < 32<<20/64; i++ {
				sink = append(sink[:0], make([]byte, 64))
			}
			sink = nil
			return Pass{Wall: time.Hour, CPU: cputime.Times{User: time.Hour}, Cells: 1 << 40, Stats: map[string]int64{"spun_ns": 1e9}}, nil
		}
		return Pass{Wall: time.Duration(calls) * time.Millisecond, Cells: int64(calls),
			Stats: map[string]int64{"pass": int64(calls), "spun_ns": int64(calls)},
			CPU:   cputime.Times{User: time.Duration(calls) * time.Millisecond, Sys: time.Microsecond}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Fatalf("%d passes run, want 1 warm-up + 3 measured", calls)
	}
	if want := []int64{2e6, 3e6, 4e6}; len(run.PassNs) != 3 || run.PassNs[0] != want[0] || run.PassNs[1] != want[1] || run.PassNs[2] != want[2] {
		t.Errorf("PassNs = %v, want %v (the measured passes only)", run.PassNs, want)
	}
	if run.WallNs != 9e6 || run.Cells != 9 || run.Stats["pass"] != 4 || run.Stats["spun_ns"] != 9 {
		t.Errorf("WallNs %d, Cells %d, Stats %v; want the sums 9ms and 9, the last pass's stats and spun_ns summed over the measured passes, 9",
			run.WallNs, run.Cells, run.Stats)
	}
	if run.CPUUserNs != 9e6 || run.CPUSysNs != 3e3 {
		t.Errorf("CPU time %d user, %d sys; want the measured passes' sums, 9ms and 3µs", run.CPUUserNs, run.CPUSysNs)
	}
	if run.GC.Cycles != 0 || run.GC.HeapAllocBytes > 1<<20 {
		t.Errorf("GC figures count the warm-up: %d cycles, %d bytes allocated", run.GC.Cycles, run.GC.HeapAllocBytes)
	}
}

// TestMeasurePassesCollectsBeforeEachPass checks that every measured pass
// starts from a collected heap (one forced collection before it, none
// between its start and the pass's own work), and that only the passes'
// own collections are counted: the forced ones are not.
func TestMeasurePassesCollectsBeforeEachPass(t *testing.T) {
	const passes = 4
	var forced []uint32
	var ms runtime.MemStats
	run, err := MeasurePasses(passes, func() (Pass, error) {
		runtime.ReadMemStats(&ms)
		forced = append(forced, ms.NumForcedGC)
		sink = append(sink[:0], make([]byte, 1<<20)) // garbage a later pass must not inherit
		runtime.GC()                                 // the pass's own collection
		return Pass{Wall: time.Millisecond, Cells: 1}, nil
	})
	sink = nil
	if err != nil {
		t.Fatal(err)
	}
	if len(forced) != passes+1 {
		t.Fatalf("%d passes run, want 1 warm-up + %d measured", len(forced), passes)
	}
	for i := 1; i < len(forced); i++ {
		// The previous pass forced one collection itself; one more is
		// MeasurePasses's, before this pass.
		if d := forced[i] - forced[i-1]; d != 2 {
			t.Errorf("pass %d: %d forced collections since the previous pass began, want 2 (its own, then one before this pass)", i, d)
		}
	}
	if run.GC.Cycles != passes {
		t.Errorf("GC cycles = %d, want %d: each measured pass's own collection, not the ones forced before the passes", run.GC.Cycles, passes)
	}
	if run.GC.HeapAllocBytes < passes<<20 || run.GC.HeapAllocBytes > 2*passes<<20 {
		t.Errorf("heap allocated = %d bytes, want the %d passes' %d MiB (the warm-up's excluded)", run.GC.HeapAllocBytes, passes, passes)
	}
}

func TestGCAdd(t *testing.T) {
	a := GC{Cycles: 1, CPUTotalNs: 10, CPUAssistNs: 1, CPUDedicatedNs: 2, CPUIdleNs: 3, CPUPauseNs: 4, MaxPauseNs: 50, TotalPauseNs: 60,
		StoppingNs: 7, MaxStoppingNs: 8, HeapAllocBytes: 100, HeapAllocObjs: 10, PeakHeapBytes: 1000, CPUPercent: 99}
	b := GC{Cycles: 2, CPUTotalNs: 20, CPUAssistNs: 1, CPUDedicatedNs: 1, CPUIdleNs: 1, CPUPauseNs: 1, MaxPauseNs: 40, TotalPauseNs: 40,
		StoppingNs: 3, MaxStoppingNs: 9, HeapAllocBytes: 50, HeapAllocObjs: 5, PeakHeapBytes: 2000, CPUPercent: 1}
	want := GC{Cycles: 3, CPUTotalNs: 30, CPUAssistNs: 2, CPUDedicatedNs: 3, CPUIdleNs: 4, CPUPauseNs: 5, MaxPauseNs: 50, TotalPauseNs: 100,
		StoppingNs: 10, MaxStoppingNs: 9, HeapAllocBytes: 150, HeapAllocObjs: 15, PeakHeapBytes: 2000}
	if got := a.add(b); got != want {
		t.Errorf("add = %+v, want %+v", got, want)
	}
	if got := gcCPUPercent(30, 600); got != 5 {
		t.Errorf("gcCPUPercent(30, 600) = %v, want 5", got)
	}
	if got := gcCPUPercent(30, 0); got != 0 {
		t.Errorf("gcCPUPercent with no P-time = %v, want 0", got)
	}
}

func TestMeasurePassesErrors(t *testing.T) {
	boom := errors.New("boom")
	failAt := func(n int) func() (Pass, error) {
		calls := 0
		return func() (Pass, error) {
			if calls++; calls == n {
				return Pass{Wall: time.Millisecond}, boom
			}
			return Pass{Wall: time.Millisecond, Cells: 1}, nil
		}
	}
	for _, c := range []struct {
		passes, failAt int
		want           string
	}{
		{3, 1, "warm-up pass: boom"},
		{3, 3, "measured pass 2 of 3: boom"},
		{0, 0, "0 passes: must be from 1 to 1000"},
		{MaxPasses + 1, 0, "1001 passes"},
	} {
		_, err := MeasurePasses(c.passes, failAt(c.failAt))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MeasurePasses(%d, failing at call %d) error = %v, want %q", c.passes, c.failAt, err, c.want)
		}
		if c.failAt > 0 && !errors.Is(err, boom) {
			t.Errorf("error %v does not wrap the pass's error", err)
		}
	}
}
