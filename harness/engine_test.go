package harness

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// call is one exec call the engine made: which benchmark, warm-up or not.
type call struct {
	b    int
	warm bool
}

// outcome is the scripted result of one call.
type outcome struct {
	wall int64 // process wall time, ns
	fail bool
}

// fakeEngine runs the engine with a scripted exec and no processes.
type fakeEngine struct {
	opt    Options
	script func(b, k int) outcome // k-th call (warm-ups included) of benchmark b
	cancel int                    // the call at which ctx is cancelled (dropped), -1 for never

	calls []call
	snaps []*File
}

// fataler is what fakeEngine.run needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func (fe *fakeEngine) run(t fataler) (*File, error) {
	t.Helper()
	opt, ref, err := fe.opt.check()
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	opt.OnRound = func(f *File) { fe.snaps = append(fe.snaps, f) }
	index := map[*Benchmark]int{}
	for i := range opt.Benchmarks {
		index[&opt.Benchmarks[i]] = i
	}
	perBench := map[int]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var e *runEngine
	e = newRunEngine(opt, ref, func(ctx context.Context, b *Benchmark, _ string) (Run, bool) {
		i := index[b]
		st := e.states[0][i]
		// A warm-up call is one made while the benchmark still owes
		// warm-ups.
		fe.calls = append(fe.calls, call{b: i, warm: st.warm < opt.Warmup})
		if len(fe.calls)-1 == fe.cancel {
			cancel()
			return Run{}, true
		}
		o := fe.script(i, perBench[i])
		perBench[i]++
		run := Run{WallNs: o.wall / 2, Cells: 10, ProcessWallNs: o.wall}
		if o.fail {
			run = Run{Failed: true, Error: fmt.Sprintf("scripted failure of %d", i), ProcessWallNs: o.wall}
		}
		return run, false
	})
	return e.run(ctx)
}

// modelTarget is the specified run count after the measured process walls
// seen so far.
func modelTarget(o Options, walls []int64) int {
	if o.Runs > 0 {
		return o.Runs
	}
	n := o.MinRuns
	var sum int64
	for _, w := range walls {
		sum += w
	}
	if o.MinRunsTime > 0 && len(walls) > 0 {
		// The floor's cap: MinRuns runs at the mean so far must fit in
		// MinRunsTime, or the floor is what fits, but at least
		// min(MinRuns, FewestRuns).
		mean := float64(sum) / float64(len(walls))
		for n > min(o.MinRuns, FewestRuns) && float64(n-1)*mean >= float64(o.MinRunsTime) {
			n--
		}
	}
	if o.MinTime > 0 && len(walls) > 0 {
		if want := int(math.Ceil(float64(o.MinTime) / (float64(sum) / float64(len(walls))))); want > n {
			n = want
		}
	}
	if o.MaxRuns > 0 && n > o.MaxRuns {
		n = o.MaxRuns
	}
	return n
}

// model computes the calls the engine should make, from the specification:
// warm-ups first (per benchmark in grouped order, in rounds in interleaved
// order), then measured runs until each benchmark reaches its target,
// re-estimated after every round (every run in grouped order); a failure
// stops a benchmark unless IgnoreFailure; cancellation stops everything. It
// also returns the number of OnRound calls before the final one.
func model(o Options, nb int, script func(b, k int) outcome, cancelAt int) (calls []call, rounds int) {
	walls := make([][]int64, nb)
	stopped := make([]bool, nb)
	k := make([]int, nb)
	targets := make([]int, nb)
	for i := range targets {
		targets[i] = modelTarget(o, nil)
	}
	cancelled := false
	do := func(b int, warm bool) {
		calls = append(calls, call{b, warm})
		if len(calls)-1 == cancelAt {
			cancelled = true
			return
		}
		out := script(b, k[b])
		k[b]++
		if !warm {
			walls[b] = append(walls[b], out.wall)
		}
		if out.fail && !o.IgnoreFailure {
			stopped[b] = true
		}
	}
	done := func(b int) bool { return stopped[b] || len(walls[b]) >= targets[b] }
	if o.Order == Grouped {
		for b := 0; b < nb && !cancelled; b++ {
			for w := 0; w < o.Warmup && !stopped[b] && !cancelled; w++ {
				do(b, true)
			}
			for !done(b) && !cancelled {
				do(b, false)
				if cancelled {
					break
				}
				targets[b] = modelTarget(o, walls[b])
				rounds++
			}
		}
		return calls, rounds
	}
	for w := 0; w < o.Warmup && !cancelled; w++ {
		for b := 0; b < nb && !cancelled; b++ {
			if !stopped[b] {
				do(b, true)
			}
		}
	}
	for !cancelled {
		var active []int
		for b := 0; b < nb; b++ {
			if !done(b) {
				active = append(active, b)
			}
		}
		if len(active) == 0 {
			break
		}
		for _, b := range active {
			if do(b, false); cancelled {
				break
			}
		}
		if cancelled {
			break
		}
		for b := range targets {
			targets[b] = modelTarget(o, walls[b])
		}
		rounds++
	}
	return calls, rounds
}

func TestEngineModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		nb := rapid.IntRange(1, 4).Draw(t, "benchmarks")
		o := Options{Executable: "unused", Workload: "fake", Unit: "cell"}
		for i := 0; i < nb; i++ {
			o.Benchmarks = append(o.Benchmarks, Benchmark{Cell: fmt.Sprintf("c%d", i), Label: fmt.Sprintf("c%d", i)})
		}
		o.Warmup = rapid.IntRange(0, 2).Draw(t, "warmup")
		o.Order = rapid.SampledFrom([]Order{Interleaved, Grouped}).Draw(t, "order")
		o.IgnoreFailure = rapid.Bool().Draw(t, "ignoreFailure")
		if rapid.Bool().Draw(t, "exact") {
			o.Runs = rapid.IntRange(1, 6).Draw(t, "runs")
		} else {
			o.MinRuns = rapid.IntRange(1, 9).Draw(t, "minRuns")
			if rapid.Bool().Draw(t, "capped") {
				o.MinRunsTime = time.Duration(rapid.IntRange(1, 2000).Draw(t, "minRunsTimeMs")) * time.Millisecond
			}
			if rapid.Bool().Draw(t, "bounded") {
				o.MaxRuns = rapid.IntRange(o.MinRuns, 10).Draw(t, "maxRuns")
			}
			o.MinTime = time.Duration(rapid.IntRange(-1, 1000).Draw(t, "minTimeMs")) * time.Millisecond
			if o.MinTime == 0 {
				o.MinTime = -1 // 0 would mean the 3s default: unbounded without MaxRuns
			}
		}
		failPct := rapid.IntRange(0, 40).Draw(t, "failPercent")
		// Outcomes are drawn lazily but fixed per (benchmark, call), so the
		// engine and the model see the same ones whatever their order.
		type key struct{ b, k int }
		drawn := map[key]outcome{}
		script := func(b, k int) outcome {
			if o, ok := drawn[key{b, k}]; ok {
				return o
			}
			o := outcome{
				wall: int64(rapid.IntRange(1, 400).Draw(t, fmt.Sprintf("wall[%d,%d]", b, k))) * 1e6,
				fail: rapid.IntRange(0, 99).Draw(t, fmt.Sprintf("fail[%d,%d]", b, k)) < failPct,
			}
			drawn[key{b, k}] = o
			return o
		}
		cancelAt := -1
		if rapid.Bool().Draw(t, "cancels") {
			cancelAt = rapid.IntRange(0, 30).Draw(t, "cancelAt")
		}

		fe := &fakeEngine{opt: o, script: script, cancel: cancelAt}
		f, err := fe.run(t)
		checked, _, _ := o.check()
		wantCalls, rounds := model(checked, nb, script, cancelAt)
		interrupted := cancelAt >= 0 && cancelAt < len(wantCalls)

		if !slices.Equal(fe.calls, wantCalls) {
			t.Fatalf("calls\n got %v\nwant %v", fe.calls, wantCalls)
		}
		if interrupted != (err != nil) || f.Partial != interrupted {
			t.Fatalf("interrupted=%v but err=%v partial=%v", interrupted, err, f.Partial)
		}
		// OnRound: once per round plus the final file, counts only growing.
		if len(fe.snaps) != rounds+1 || fe.snaps[len(fe.snaps)-1] != f {
			t.Fatalf("OnRound called %d times, want %d rounds + 1 with the final file last", len(fe.snaps), rounds)
		}
		prev := map[string]int{}
		for i, s := range fe.snaps {
			if i < len(fe.snaps)-1 && !s.Partial {
				t.Fatalf("snapshot %d is not partial", i)
			}
			for _, r := range s.Results {
				if len(r.Runs) < prev[r.Label] {
					t.Fatalf("snapshot %d: %s went from %d to %d runs", i, r.Label, prev[r.Label], len(r.Runs))
				}
				prev[r.Label] = len(r.Runs)
			}
		}
		// Every recorded run has the next index, in call order.
		recorded := 0
		byLabel := map[string]*Result{}
		for i := range f.Results {
			byLabel[f.Results[i].Label] = &f.Results[i]
			recorded += len(f.Results[i].Runs)
		}
		seen := make([]bool, recorded)
		for _, r := range f.Results {
			last := -1
			for _, run := range r.Runs {
				if run.Index < 0 || run.Index >= recorded || seen[run.Index] || run.Index <= last {
					t.Fatalf("%s: bad or repeated index %d (of %d recorded)", r.Label, run.Index, recorded)
				}
				seen[run.Index] = true
				last = run.Index
			}
		}
		// Per benchmark: failures stop it unless ignored; the run count
		// meets the plan unless stopped or interrupted.
		for b := 0; b < nb; b++ {
			label := o.Benchmarks[b].Label
			r := byLabel[label]
			var runs []Run
			if r != nil {
				runs = r.Runs
			}
			measured, failed := 0, 0
			var walls []int64
			for i, run := range runs {
				if run.Failed {
					failed++
					if !o.IgnoreFailure && i != len(runs)-1 {
						t.Fatalf("%s: runs recorded after a failure without IgnoreFailure", label)
					}
				}
				if !strings.HasPrefix(run.Error, "warm-up run: ") {
					measured++
					walls = append(walls, run.ProcessWallNs)
				}
			}
			if r != nil && r.Failed != failed {
				t.Fatalf("%s: Failed=%d, counted %d", label, r.Failed, failed)
			}
			stopped := failed > 0 && !o.IgnoreFailure
			if interrupted || stopped {
				continue
			}
			// It stopped because the target was reached (the target may
			// have dropped below the count when the runs got slower)...
			if tgt := modelTarget(checked, walls); measured < tgt {
				t.Fatalf("%s: %d measured runs, but the target after them is %d", label, measured, tgt)
			}
			// ...and not before.
			floor := checked.MinRuns
			if checked.MinRunsTime > 0 {
				floor = min(floor, FewestRuns)
			}
			for n := floor; n < measured && checked.Runs == 0; n++ {
				if modelTarget(checked, walls[:n]) <= n {
					t.Fatalf("%s: went on after %d runs though the target was reached", label, n)
				}
			}
			if checked.Runs == 0 && (measured < floor || (checked.MaxRuns > 0 && measured > checked.MaxRuns)) {
				t.Fatalf("%s: %d runs outside [%d, %d]", label, measured, floor, checked.MaxRuns)
			}
		}
	})
}

func TestEngineMinTimeReestimation(t *testing.T) {
	t.Parallel()
	// Process walls 500ms then 110ms each, MinTime 1s, MinRuns 2. Targets
	// after each run: ceil(1/0.5)=2, ceil(1/0.305)=4, ceil(1/0.24)=5,
	// ceil(1/0.2075)=5, ceil(1/0.188)=6, ceil(1/0.175)=6: six runs.
	walls := []int64{500e6, 110e6, 110e6, 110e6, 110e6, 110e6, 110e6, 110e6}
	script := func(b, k int) outcome { return outcome{wall: walls[k]} }
	for _, c := range []struct {
		maxRuns, want int
	}{{0, 6}, {4, 4}, {6, 6}, {20, 6}} {
		opt := Options{Executable: "x", Benchmarks: []Benchmark{{Cell: "a", Label: "a"}}, MinRuns: 2, MaxRuns: c.maxRuns, MinTime: time.Second}
		fe := &fakeEngine{opt: opt, script: script, cancel: -1}
		f, err := fe.run(t)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(f.Results[0].Runs); n != c.want {
			t.Errorf("MaxRuns %d: %d runs, want %d", c.maxRuns, n, c.want)
		}
	}
	// A long budget is clamped by MinRuns from below: one 2s run would
	// satisfy 1s, but MinRuns is 3.
	opt := Options{Executable: "x", Benchmarks: []Benchmark{{Cell: "a", Label: "a"}}, MinRuns: 3, MinTime: time.Second}
	fe := &fakeEngine{opt: opt, script: func(int, int) outcome { return outcome{wall: 2e9} }, cancel: -1}
	if f, _ := fe.run(t); len(f.Results[0].Runs) != 3 {
		t.Errorf("slow benchmark: %d runs, want MinRuns 3", len(f.Results[0].Runs))
	}
}

// A slow benchmark's MinRuns floor is capped by MinRunsTime, down to
// FewestRuns; a fast one keeps it.
func TestEngineMinRunsTimeCapsSlowBenchmarks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		wall      int64
		minRuns   int
		cap       time.Duration
		want      int
		situation string
	}{
		{2e9, 10, 9 * time.Second, FewestRuns, "10 runs of 2s exceed 9s: the floor drops to 5, then up to FewestRuns"},
		{1e9, 10, 9 * time.Second, 9, "10 runs of 1s exceed 9s: 9 fit"},
		{500e6, 10, 9 * time.Second, 10, "10 runs of 0.5s fit in 9s: MinRuns holds"},
		{2e9, 4, 1 * time.Second, 4, "a floor below FewestRuns is not raised"},
		{2e9, 10, 0, 10, "no cap"},
	} {
		opt := Options{Executable: "x", Benchmarks: []Benchmark{{Cell: "a", Label: "a"}}, MinRuns: c.minRuns, MinRunsTime: c.cap, MinTime: time.Second}
		fe := &fakeEngine{opt: opt, script: func(int, int) outcome { return outcome{wall: c.wall} }, cancel: -1}
		f, err := fe.run(t)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(f.Results[0].Runs); n != c.want {
			t.Errorf("%s: %d runs, want %d", c.situation, n, c.want)
		}
	}
}

func TestEngineDefaults(t *testing.T) {
	t.Parallel()
	o, _, err := Options{Executable: "x", Benchmarks: []Benchmark{{Label: "a"}}}.check()
	if err != nil {
		t.Fatal(err)
	}
	if o.MinRuns != DefaultMinRuns || o.MinTime != DefaultMinTime || o.Order != Interleaved {
		t.Errorf("defaults: min runs %d, min time %v, order %v", o.MinRuns, o.MinTime, o.Order)
	}
	// 100ms per run with the 3s default budget: 30 runs.
	fe := &fakeEngine{opt: Options{Executable: "x", Benchmarks: []Benchmark{{Label: "a"}}},
		script: func(int, int) outcome { return outcome{wall: 100e6} }, cancel: -1}
	if f, _ := fe.run(t); len(f.Results[0].Runs) != 30 {
		t.Errorf("default budget: %d runs of 100ms, want 30", len(f.Results[0].Runs))
	}
}

func TestEngineFailures(t *testing.T) {
	t.Parallel()
	// Benchmark 0 fails every other run; benchmark 1 fails its warm-up.
	script := func(b, k int) outcome {
		if b == 0 {
			return outcome{wall: 1e6, fail: k%2 == 1}
		}
		return outcome{wall: 1e6, fail: k == 0}
	}
	opt := Options{Executable: "x", Runs: 4, Warmup: 1, IgnoreFailure: true,
		Benchmarks: []Benchmark{{Cell: "a", Label: "a"}, {Cell: "b", Label: "b"}}}
	fe := &fakeEngine{opt: opt, script: script, cancel: -1}
	f, err := fe.run(t)
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.Results[0], f.Results[1]
	// a: warm-up k=0 succeeds (not recorded), measured k=1..4 fail, ok, fail, ok.
	if len(a.Runs) != 4 || a.Failed != 2 || a.Mean != 0.0005 {
		t.Errorf("a: %d runs, %d failed, mean %v; want 4, 2 and the 0.5ms mean of the successful ones", len(a.Runs), a.Failed, a.Mean)
	}
	// b: the failed warm-up is recorded, then 4 measured runs.
	if len(b.Runs) != 5 || b.Failed != 1 || !strings.HasPrefix(b.Runs[0].Error, "warm-up run: scripted failure") {
		t.Errorf("b: runs %+v; want the failed warm-up then 4 runs", b.Runs)
	}
	if f.FailedRuns() != 3 {
		t.Errorf("FailedRuns = %d, want 3", f.FailedRuns())
	}

	// Without IgnoreFailure the failed warm-up stops b before any measured run.
	opt.IgnoreFailure = false
	fe = &fakeEngine{opt: opt, script: script, cancel: -1}
	f, _ = fe.run(t)
	// a: the warm-up (k=0) succeeds, the first measured run (k=1) fails.
	if len(f.Results[1].Runs) != 1 || len(f.Results[0].Runs) != 1 || !f.Results[0].Runs[0].Failed {
		t.Errorf("without IgnoreFailure: a has %d runs (want 1, failed), b %d (want the warm-up failure only)",
			len(f.Results[0].Runs), len(f.Results[1].Runs))
	}
}

func TestEngineProgress(t *testing.T) {
	t.Parallel()
	var buf strings.Builder
	opt := Options{Executable: "x", Runs: 3, Warmup: 1, Progress: &buf,
		Benchmarks: []Benchmark{{Cell: "a", Label: "boxroot"}, {Cell: "b", Label: "ref"}}}
	fe := &fakeEngine{opt: opt, script: func(int, int) outcome { return outcome{wall: 4e6} }, cancel: -1}
	if _, err := fe.run(t); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// The fake runs report half the process wall as the workload wall: 2ms.
	for _, want := range []string{"boxroot warm-up", "ref first run", "boxroot ~2.00 ms", "/8"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress output lacks %q:\n%q", want, out)
		}
	}
}
