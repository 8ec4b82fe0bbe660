package harness

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// loads returns a load source that reads xs in turn, then last forever.
func loads(last float64, xs ...float64) func() (float64, error) {
	return func() (float64, error) {
		if len(xs) == 0 {
			return last, nil
		}
		x := xs[0]
		xs = xs[1:]
		return x, nil
	}
}

// fakeClock is a clock that only Sleep moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }
func (c *fakeClock) sleep(_ context.Context, d time.Duration) error {
	c.t = c.t.Add(d)
	return nil
}

func TestLoadWait(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		src    func() (float64, error)
		want   LoadWaitLog
		ok     bool
		shown  []float64
		waited []time.Duration
	}{
		{"below at once", loads(1.5), LoadWaitLog{Round: 3, Load: 1.5}, false, nil, nil},
		{"falls below after two polls", loads(1, 5, 4),
			LoadWaitLog{Round: 3, WaitedNs: 10e9, Load: 1}, true, []float64{5, 4}, []time.Duration{0, 5 * time.Second}},
		{"gives up at the timeout", loads(6),
			LoadWaitLog{Round: 3, WaitedNs: 12e9, Load: 6, GaveUp: true}, true, []float64{6, 6, 6}, []time.Duration{0, 5 * time.Second, 10 * time.Second}},
		{"at the bound still waits", loads(1.9, 2),
			LoadWaitLog{Round: 3, WaitedNs: 5e9, Load: 1.9}, true, []float64{2}, []time.Duration{0}},
	} {
		c := &fakeClock{t: time.Unix(100, 0)}
		w := &LoadWait{Below: 2, Timeout: 12 * time.Second, Source: tc.src, Sleep: c.sleep}
		var shown []float64
		var waited []time.Duration
		log, ok, err := w.wait(context.Background(), 3, c.now, func(load float64, d time.Duration) {
			shown = append(shown, load)
			waited = append(waited, d)
		})
		if err != nil || ok != tc.ok || log != tc.want || !slices.Equal(shown, tc.shown) || !slices.Equal(waited, tc.waited) {
			t.Errorf("%s: %+v, %t, %v, shown %v after %v; want %+v, %t, shown %v after %v",
				tc.name, log, ok, err, shown, waited, tc.want, tc.ok, tc.shown, tc.waited)
		}
	}
	// An unreadable load and an interruption end the wait with their error.
	boom := errors.New("no /proc")
	w := &LoadWait{Below: 2, Timeout: time.Minute, Source: func() (float64, error) { return 0, boom }}
	if _, _, err := w.wait(context.Background(), 1, time.Now, func(float64, time.Duration) {}); !errors.Is(err, boom) {
		t.Errorf("unreadable load: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w = &LoadWait{Below: 2, Timeout: time.Minute, Source: loads(9)}
	if _, _, err := w.wait(ctx, 1, time.Now, func(float64, time.Duration) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted wait: %v", err)
	}
}

func TestLoadWaitTexts(t *testing.T) {
	t.Parallel()
	w := &LoadWait{Below: 2, Timeout: 10 * time.Minute}
	for _, tc := range []struct{ got, want string }{
		{w.waitText(5.34, 15400*time.Millisecond), "waiting for the load to fall below 2: 5.3 now, waited 15s of at most 10m0s"},
		{w.LogText(LoadWaitLog{Round: 3, WaitedNs: 35e9, Load: 1.8}), "round 3 started at load 1.8 after waiting 35s for it to fall below 2"},
		{w.LogText(LoadWaitLog{Round: 3, WaitedNs: 600e9, Load: 5.3, GaveUp: true}), "gave up waiting for the load to fall below 2 after 10m0s: round 3 started at load 5.3"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// The A/B engine waits before each measured round, records the waits, and
// keeps their time out of the budget: the session makes the rounds it
// would make without them.
func TestABWaitsForLoad(t *testing.T) {
	t.Parallel()
	var notices strings.Builder
	fa := &fakeAB{cancel: -1, opt: ABOptions{
		Benchmarks: abBenchmarks(2), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
		Rule: fixedRule(never, 2, 4, 8), MaxTime: 130 * time.Millisecond, Notices: &notices,
		// Round 1 waits two polls; round 2 not at all; round 3 until the
		// timeout; later rounds not at all.
		WaitForLoad: &LoadWait{Below: 2, Timeout: 12 * time.Second, Source: loads(1, 5, 5, 1, 1, 5, 5, 5, 5)},
	}}
	f, err := fa.run(t)
	if err != nil {
		t.Fatal(err)
	}
	if f.Stopped != StopBudget || len(fa.calls) != 12 {
		t.Errorf("stopped %q after %d runs, want budget after 12, as without waits", f.Stopped, len(fa.calls))
	}
	want := []LoadWaitLog{{Round: 1, WaitedNs: 10e9, Load: 1}, {Round: 3, WaitedNs: 12e9, Load: 5, GaveUp: true}}
	if f.WaitForLoad != 2 || !slices.Equal(f.LoadWaits, want) {
		t.Errorf("waits: bound %v, %+v; want 2, %+v", f.WaitForLoad, f.LoadWaits, want)
	}
	if got := f.FinishedAt.Sub(f.StartedAt); got < 22*time.Second {
		t.Errorf("session took %v, want the 22 s of waits in it", got)
	}
	for _, line := range []string{"waiting for the load to fall below 2: 5.0 now", "round 1 started at load 1.0 after waiting 10s",
		"gave up waiting for the load to fall below 2 after 12s: round 3 started at load 5.0"} {
		if !strings.Contains(notices.String(), line) {
			t.Errorf("notices lack %q:\n%s", line, notices.String())
		}
	}
	if n := strings.Count(notices.String(), "now, waited"); n != 2 {
		t.Errorf("%d progress lines without a bar, want one per wait:\n%s", n, notices.String())
	}
}

// The run engine waits before each measured round (in grouped order,
// each measured run) and records the waits in the file.
func TestRunWaitsForLoad(t *testing.T) {
	t.Parallel()
	// Three rounds of two runs, or four rounds of one.
	for order, runs := range map[Order]int{Interleaved: 3, Grouped: 2} {
		fe := &fakeEngine{cancel: -1, opt: Options{
			Benchmarks: abBenchmarks(2), Executable: "x", Runs: runs, Order: order,
			WaitForLoad: &LoadWait{Below: 2, Timeout: time.Minute, Source: loads(1, 3, 1, 1, 3),
				Sleep: func(context.Context, time.Duration) error { return nil }},
		}, script: func(int, int) outcome { return outcome{wall: 1e6} }}
		f, err := fe.run(t)
		if err != nil {
			t.Fatal(err)
		}
		var rounds []int
		for _, w := range f.LoadWaits {
			rounds = append(rounds, w.Round)
		}
		if f.WaitForLoad != 2 || !slices.Equal(rounds, []int{1, 3}) || len(fe.calls) != 2*runs {
			t.Errorf("%s: bound %v, waits before rounds %v, %d runs; want 2, [1 3], %d", order, f.WaitForLoad, rounds, len(fe.calls), 2*runs)
		}
	}
}
