package harness

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// abCall is one run the A/B engine made.
type abCall struct {
	side, bench int
	warm        bool
}

// fakeAB runs the A/B engine with scripted runs, no processes, and a clock
// that advances by each run's process wall time.
type fakeAB struct {
	opt    ABOptions
	wall   func(side, bench int) time.Duration // process wall of a run
	fail   func(side, bench, k int) bool       // k-th call of (side, bench)
	cancel int                                 // the call at which ctx is cancelled, -1 for never

	calls  []abCall
	looks  []Look
	engine *abEngine
}

func (fa *fakeAB) run(t fataler) (*ABFile, error) {
	t.Helper()
	opt, err := fa.opt.check()
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	inner := opt.Rule
	opt.Rule = &recordingRule{SequentialRule: inner, looks: &fa.looks}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := time.Unix(0, 0)
	index := map[*Benchmark]int{}
	for i := range opt.Benchmarks {
		index[&opt.Benchmarks[i]] = i
	}
	k := map[[2]int]int{}
	var e *abEngine
	e = newABEngine(opt, func(_ context.Context, side int, b *Benchmark, name string) (Run, bool) {
		i := index[b]
		st := e.states[side][i]
		fa.calls = append(fa.calls, abCall{side: side, bench: i, warm: st.warm < opt.Warmup})
		if len(fa.calls)-1 == fa.cancel {
			cancel()
			return Run{}, true
		}
		if want := opt.side(side).Name + "-" + b.Label + "-"; !strings.HasPrefix(name, want) {
			t.Fatalf("run name %q, want it to start with %q", name, want)
		}
		w := 10 * time.Millisecond
		if fa.wall != nil {
			w = fa.wall(side, i)
		}
		clock = clock.Add(w)
		key := [2]int{side, i}
		k[key]++
		if fa.fail != nil && fa.fail(side, i, k[key]-1) {
			return Run{Failed: true, Error: "scripted failure", ProcessWallNs: w.Nanoseconds()}, false
		}
		return Run{WallNs: w.Nanoseconds() / 2, Cells: 10, ProcessWallNs: w.Nanoseconds()}, false
	})
	e.now = func() time.Time { return clock }
	if w := opt.WaitForLoad; w != nil {
		// Waiting for the load advances the clock as the runs do.
		wc := *w
		wc.Sleep = func(_ context.Context, d time.Duration) error {
			clock = clock.Add(d)
			return nil
		}
		e.opt.WaitForLoad = &wc
	}
	fa.engine = e
	return e.run(ctx)
}

func abBenchmarks(n int) []Benchmark {
	var bs []Benchmark
	for i := range n {
		l := fmt.Sprintf("c%d", i)
		bs = append(bs, Benchmark{Cell: l, Label: l})
	}
	return bs
}

func never(*File, *File, Look) (bool, string) { return false, "" }

// sidesOf lists the sides of the measured calls of benchmark b, in order.
func sidesOf(calls []abCall, b int) string {
	var s strings.Builder
	for _, c := range calls {
		if c.bench == b && !c.warm {
			s.WriteByte("AB"[c.side])
		}
	}
	return s.String()
}

func TestABOrderIsABBA(t *testing.T) {
	t.Parallel()
	fa := &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(3), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Warmup: 1, Rule: fixedRule(never, 4, 8),
	}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	for b := range 3 {
		if got, want := sidesOf(fa.calls, b), strings.Repeat("ABBA", 4); got != want {
			t.Errorf("benchmark %d ran %s, want %s", b, got, want)
		}
	}
	// Warm-ups come first, one per benchmark and side.
	for i, c := range fa.calls[:6] {
		if !c.warm {
			t.Fatalf("call %d is not a warm-up: %v", i, fa.calls[:6])
		}
	}
	// Both sides' runs carry session-wide indexes, in call order.
	var idx []int
	for _, side := range []*File{f.Base, f.Head} {
		for _, r := range side.Results {
			if len(r.Runs) != 8 {
				t.Errorf("%s: %d runs, want 8", r.Label, len(r.Runs))
			}
			for _, run := range r.Runs {
				idx = append(idx, run.Index)
			}
		}
	}
	slices.Sort(idx)
	if want := len(fa.calls) - 6; len(idx) != want || idx[0] != 0 || idx[len(idx)-1] != want-1 {
		t.Errorf("indexes %v, want 0..%d", idx, want-1)
	}
	if f.Stopped != StopLastLook || len(f.Looks) != 2 || f.Base.Partial || f.Head.Partial || f.Schema != ABSchema {
		t.Errorf("stopped %q after %d looks (partial %v/%v), want last-look after 2", f.Stopped, len(f.Looks), f.Base.Partial, f.Head.Partial)
	}
	if f.Base.Order != "abba" || f.Base.Results[0].Mean <= 0 {
		t.Errorf("base side: order %q, mean %v", f.Base.Order, f.Base.Results[0].Mean)
	}
}

func TestABStopsWhenDecided(t *testing.T) {
	t.Parallel()
	fa := &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(func(base, head *File, l Look) (bool, string) {
			if len(base.Results) != 2 || len(head.Results) != 2 || len(base.Results[0].Runs) != l.Runs {
				panic(fmt.Sprintf("look %+v sees %d base runs", l, len(base.Results[0].Runs)))
			}
			return l.Number == 2, fmt.Sprintf("look %d", l.Number)
		}, 2, 6, 10, 20),
	}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	want := []Look{{Number: 1, Of: 4, Runs: 2}, {Number: 2, Of: 4, Runs: 6}}
	if !slices.Equal(fa.looks, want) {
		t.Errorf("looks %+v, want %+v", fa.looks, want)
	}
	if f.Stopped != StopDecided || len(f.Base.Results[0].Runs) != 6 || len(fa.calls) != 2*2*6 {
		t.Errorf("stopped %q with %d runs per side, %d calls; want decided at 6 runs", f.Stopped, len(f.Base.Results[0].Runs), len(fa.calls))
	}
	if len(f.Looks) != 2 || !f.Looks[1].Done || f.Looks[0].Note != "look 1" {
		t.Errorf("recorded looks %+v", f.Looks)
	}
}

func TestABBudgetEndsWithOneFinalLook(t *testing.T) {
	t.Parallel()
	// Rounds take 2 benchmarks x 2 sides x 10ms = 40ms; 130ms allow 3 rounds
	// (the 4th would end at 160ms), between the planned looks at 2 and 4.
	fa := &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(never, 2, 4, 8), MaxTime: 130 * time.Millisecond,
	}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	want := []Look{{Number: 1, Of: 3, Runs: 2}, {Number: 2, Of: 3, Runs: 3, Final: true, Budget: true}}
	if !slices.Equal(fa.looks, want) {
		t.Errorf("looks %+v, want %+v", fa.looks, want)
	}
	if f.Stopped != StopBudget || len(fa.calls) != 12 {
		t.Errorf("stopped %q after %d runs, want budget after 12", f.Stopped, len(fa.calls))
	}
	// The progress bar's plan follows the budget, not the last look (32
	// runs): the 12 made, as no round fits any more.
	if got := fa.engine.plannedTotal(); got != 12 {
		t.Errorf("planned total at the end %d, want the 12 runs the budget allowed", got)
	}

	// A budget that ends right after a planned look adds no look on the
	// same data.
	fa = &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(never, 2, 4, 8), MaxTime: 90 * time.Millisecond,
	}}
	if f, err = fa.run(t); err != nil {
		t.Fatal(err)
	}
	if len(fa.looks) != 1 || f.Stopped != StopBudget {
		t.Errorf("looks %+v, stopped %q; want the one planned look, then budget", fa.looks, f.Stopped)
	}
}

func TestABFailureStopsBothSides(t *testing.T) {
	t.Parallel()
	fa := &fakeAB{cancel: -1,
		fail: func(side, bench, k int) bool { return side == sideHead && bench == 1 && k == 1 },
		opt: ABOptions{
			Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
			Rule: fixedRule(never, 4),
		}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	// c1: A B (round 0), B fails in round 1: c1 stops on both sides.
	if got := sidesOf(fa.calls, 1); got != "ABB" {
		t.Errorf("c1 ran %s, want ABB (stopped on both sides at the failure)", got)
	}
	if got := sidesOf(fa.calls, 0); got != "ABBAABBA" {
		t.Errorf("c0 ran %s, want ABBAABBA", got)
	}
	if f.Head.FailedRuns() != 1 || f.Stopped != StopLastLook {
		t.Errorf("head failed runs %d, stopped %q", f.Head.FailedRuns(), f.Stopped)
	}

	// Every benchmark failing ends the session.
	fa = &fakeAB{cancel: -1, fail: func(int, int, int) bool { return true },
		opt: ABOptions{Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
			Rule: fixedRule(never, 4)}}
	if f, err = fa.run(t); err != nil || f.Stopped != StopFailed || len(fa.calls) != 2 {
		t.Errorf("all failing: stopped %q after %d calls (err %v), want failed after 2", f.Stopped, len(fa.calls), err)
	}
}

func TestABInterrupt(t *testing.T) {
	t.Parallel()
	fa := &fakeAB{cancel: 5, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(never, 4),
	}}
	f, err := fa.run(t)
	if err == nil || f == nil || f.Stopped != StopInterrupted || !f.Base.Partial || !f.Head.Partial {
		t.Fatalf("interrupted session: err %v, file %+v", err, f)
	}
	if n := len(f.Base.Results[0].Runs) + len(f.Head.Results[0].Runs) + len(f.Base.Results[1].Runs) + len(f.Head.Results[1].Runs); n != 5 {
		t.Errorf("%d runs kept, want the 5 made before the interruption", n)
	}
}

func TestABOptionsRefused(t *testing.T) {
	t.Parallel()
	good := ABOptions{Benchmarks: abBenchmarks(1), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(never, 2, 4)}
	for name, mut := range map[string]func(o *ABOptions){
		"no benchmarks":   func(o *ABOptions) { o.Benchmarks = nil },
		"no base":         func(o *ABOptions) { o.Base.Executable = "" },
		"bad env":         func(o *ABOptions) { o.Head.Env = []string{"NOEQUALS"} },
		"no looks":        func(o *ABOptions) { o.Rule = fixedRule(never) },
		"odd look":        func(o *ABOptions) { o.Rule = fixedRule(never, 3) },
		"decreasing":      func(o *ABOptions) { o.Rule = fixedRule(never, 4, 2) },
		"no rule":         func(o *ABOptions) { o.Rule = nil },
		"negative budget": func(o *ABOptions) { o.MaxTime = -time.Second },
		"same names":      func(o *ABOptions) { o.Base.Name, o.Head.Name = "x", "x" },
		"auto, no budget": func(o *ABOptions) { o.Rule = &testRule{auto: 3, decide: never} },
		"duplicate label": func(o *ABOptions) { o.Benchmarks = append(abBenchmarks(1), abBenchmarks(1)...) },
	} {
		o := good
		mut(&o)
		if _, err := ExecuteAB(context.Background(), o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := good.check(); err != nil {
		t.Errorf("good options refused: %v", err)
	}
}

func TestABAutomaticLooks(t *testing.T) {
	t.Parallel()
	// Rounds take 2 benchmarks x 2 sides x 10ms = 40ms; after the first two
	// (80ms) the 1s budget leaves room for 23 more: 25 runs per side, so
	// looks planned at 6, 12 and 24; the last is made when the budget
	// ends, at 25.
	fa := &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: &testRule{auto: 3, decide: never}, MaxTime: time.Second,
	}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	want := []Look{{Number: 1, Of: 3, Runs: 6}, {Number: 2, Of: 3, Runs: 12}, {Number: 3, Of: 3, Runs: 25, Final: true, Budget: true}}
	if !slices.Equal(fa.looks, want) || !slices.Equal(f.PlannedLooks, []int{6, 12, 24}) || f.Stopped != StopBudget {
		t.Errorf("looks %+v planned %v stopped %q; want %+v, [6 12 24], budget", fa.looks, f.PlannedLooks, f.Stopped, want)
	}
}

// TestABBalancesTime: after the first ABBA block a benchmark four times
// faster than the slowest makes four pairs per round, still alternating
// which side goes first, so both get about the same share of the budget;
// the looks count the slowest benchmark's runs, and the base and head runs
// with one Pair number are adjacent.
func TestABBalancesTime(t *testing.T) {
	t.Parallel()
	fa := &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(never, 4),
	}, wall: func(_, bench int) time.Duration {
		return []time.Duration{10 * time.Millisecond, 40 * time.Millisecond}[bench]
	}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	// Rounds 1-2: one pair each; rounds 3-4: four pairs of the fast one.
	if got, want := sidesOf(fa.calls, 0), "ABBA"+strings.Repeat("ABBA", 4); got != want {
		t.Errorf("fast benchmark ran %s, want %s", got, want)
	}
	if got := sidesOf(fa.calls, 1); got != "ABBAABBA" {
		t.Errorf("slow benchmark ran %s, want ABBAABBA", got)
	}
	if len(fa.looks) != 1 || fa.looks[0].Runs != 4 {
		t.Errorf("looks %+v, want one at 4 runs per side (the slowest's)", fa.looks)
	}
	if fa.engine.reps[0] != 4 || fa.engine.reps[1] != 1 {
		t.Errorf("reps %v, want [4 1]", fa.engine.reps)
	}
	for i := range f.Base.Results {
		b, h := f.Base.Results[i].Runs, f.Head.Results[i].Runs
		if len(b) != len(h) {
			t.Fatalf("%s: %d base runs, %d head runs", f.Base.Results[i].Label, len(b), len(h))
		}
		for k := range b {
			if b[k].Pair != k+1 || h[k].Pair != k+1 || abs(b[k].Index-h[k].Index) != 1 {
				t.Errorf("%s run %d: pairs %d/%d at indexes %d/%d, want pair %d, adjacent",
					f.Base.Results[i].Label, k, b[k].Pair, h[k].Pair, b[k].Index, h[k].Index, k+1)
			}
		}
	}
}

func abs(x int) int { return max(x, -x) }

// testRule is a sequential rule for the engine's tests: fixed looks, or
// auto looks planned by halving from the reachable runs down to 6.
type testRule struct {
	looks  []int
	auto   int
	decide func(base, head *File, l Look) (bool, string)
}

func fixedRule(decide func(base, head *File, l Look) (bool, string), looks ...int) *testRule {
	if looks == nil {
		looks = []int{}
	}
	return &testRule{looks: looks, decide: decide}
}

func (r *testRule) PlannedLooks() []int {
	if r.auto > 0 {
		return nil
	}
	return r.looks
}

func (r *testRule) MaxLooks() int {
	if r.auto > 0 {
		return r.auto
	}
	return len(r.looks)
}

func (r *testRule) PlanLooks(reach int) []int {
	last := max(reach-reach%2, 6)
	looks := []int{last}
	for n := last / 2; n >= 6 && len(looks) < r.auto; n /= 2 {
		looks = append([]int{n - n%2}, looks...)
	}
	return looks
}

func (r *testRule) Decide(base, head *File, l Look) (bool, string) { return r.decide(base, head, l) }

// recordingRule records the looks its rule is asked at.
type recordingRule struct {
	SequentialRule
	looks *[]Look
}

func (r *recordingRule) Decide(base, head *File, l Look) (bool, string) {
	*r.looks = append(*r.looks, l)
	return r.SequentialRule.Decide(base, head, l)
}
