//go:build cgo

package callback

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestAvailable(t *testing.T) {
	t.Parallel()
	if !Available || Unavailable != "" {
		t.Errorf("with cgo: Available = %v, Unavailable = %q; want true, \"\"", Available, Unavailable)
	}
}

// TestRunSums runs every variant with every handle on 1 and 3 threads;
// -short runs each pair once, on 1 or 3 threads in turn, so that every
// variant and every handle still runs on both.
func TestRunSums(t *testing.T) {
	calls := int64(20_000)
	if testing.Short() {
		calls = 1_000
	}
	for vi, v := range Variants() {
		for hi, h := range testHandles {
			threadCounts := []int{1, 3}
			if testing.Short() {
				threadCounts = threadCounts[(vi+hi)%2 : (vi+hi)%2+1]
			}
			for _, threads := range threadCounts {
				p := Params{Variant: v, Handle: h, Threads: threads, Calls: calls}
				t.Run(fmt.Sprintf("%s/%s/%d", v, h, threads), func(t *testing.T) {
					res, err := Run(context.Background(), p, testHandle(p.Handle))
					if err != nil {
						t.Fatalf("Run(%+v): %v", p, err)
					}
					if res.Calls != calls {
						t.Errorf("Calls = %d, want %d", res.Calls, calls)
					}
					if want := ExpectedSum(calls); res.Sum != want {
						t.Errorf("Sum = %d, want %d", res.Sum, want)
					}
					if res.Wall <= 0 || res.CPU.Total() <= 0 {
						t.Errorf("Wall = %v, CPU = %+v; want both > 0", res.Wall, res.CPU)
					}
				})
			}
		}
	}
}

// TestRunModel checks random runs against the brute-force model, including
// fewer calls than threads (threads with nothing to do); -short draws up to
// 300 calls a run instead of 3,000.
func TestRunModel(t *testing.T) {
	maxCalls := int64(3_000)
	if testing.Short() {
		maxCalls = 300
	}
	rapid.Check(t, func(t *rapid.T) {
		p := Params{
			Variant: rapid.SampledFrom(Variants()).Draw(t, "variant"),
			Handle:  rapid.SampledFrom(testHandles).Draw(t, "handle"),
			Threads: rapid.IntRange(1, 5).Draw(t, "threads"),
			Calls:   rapid.Int64Range(1, maxCalls).Draw(t, "calls"),
		}
		res, err := Run(context.Background(), p, testHandle(p.Handle))
		if err != nil {
			t.Fatalf("Run(%+v): %v", p, err)
		}
		if res.Calls != p.Calls {
			t.Fatalf("Calls = %d, want %d", res.Calls, p.Calls)
		}
		if want := bruteSum(p.Calls, p.Threads); res.Sum != want {
			t.Fatalf("Sum = %d, model %d", res.Sum, want)
		}
	})
}

func TestRunRejectsBadParams(t *testing.T) {
	t.Parallel()
	p := DefaultParams()
	p.Variant = "ucontext"
	_, err := Run(context.Background(), p, testHandle(p.Handle))
	if err == nil || !strings.Contains(err.Error(), "ucontext") || !strings.Contains(err.Error(), "accepted") {
		t.Errorf("Run with a bad variant = %v, want the Validate error", err)
	}
}

// osThreads counts this process's OS threads.
func osThreads(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatalf("counting threads: %v", err)
	}
	return len(ents)
}

// settle polls f until it is at most want or the deadline passes, and
// returns its last value: goroutines that have signalled completion may take
// a moment to exit.
func settle(want int, f func() int) int {
	deadline := time.Now().Add(2 * time.Second)
	for {
		got := f()
		if got <= want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestNoLeaks checks that runs leave no goroutine and no thread behind. The
// Go runtime keeps the threads it has created for reuse, so the thread
// count is taken after warm-up runs of every variant; repeated runs must
// then not grow it (a slack of 2 covers the runtime's own occasional
// thread; one leaked thread per run would exceed it many times over).
func TestNoLeaks(t *testing.T) {
	const threads, slack = 3, 2
	rounds, calls := 5, int64(3_000)
	if testing.Short() {
		rounds, calls = 2, 1_000
	}
	run := func(v string) {
		p := Params{Variant: v, Handle: "cgo-handle", Threads: threads, Calls: calls}
		if _, err := Run(context.Background(), p, testHandle(p.Handle)); err != nil {
			t.Fatalf("Run(%+v): %v", p, err)
		}
	}
	for range 2 {
		for _, v := range Variants() {
			run(v)
		}
	}
	baseG := runtime.NumGoroutine()
	for range 10 { // the lowest of a few samples: a goroutine may be exiting
		time.Sleep(2 * time.Millisecond)
		baseG = min(baseG, runtime.NumGoroutine())
	}
	baseT := osThreads(t)
	t.Logf("after warm-up: %d goroutines, %d threads", baseG, baseT)
	for range rounds {
		for _, v := range Variants() {
			run(v)
			if g := settle(baseG, runtime.NumGoroutine); g > baseG {
				t.Errorf("after a %s run: %d goroutines, %d before", v, g, baseG)
			}
		}
	}
	t.Logf("after %d rounds: %d goroutines, %d threads", rounds, runtime.NumGoroutine(), osThreads(t))
	if n := settle(baseT+slack, func() int { return osThreads(t) }); n > baseT+slack {
		t.Errorf("after %d rounds of every variant: %d threads, %d after warm-up (slack %d)",
			rounds, n, baseT, slack)
	}
}

// TestCancel checks that cancelling the context stops a run that would
// otherwise take hours, for every variant, and that Run says so.
func TestCancel(t *testing.T) {
	const calls = int64(1) << 40
	for _, v := range Variants() {
		t.Run(v, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type out struct {
				res Result
				err error
			}
			done := make(chan out, 1)
			go func() {
				res, err := Run(ctx, Params{Variant: v, Handle: "table", Threads: 2, Calls: calls}, testHandle("table"))
				done <- out{res, err}
			}()
			time.Sleep(20 * time.Millisecond)
			cancel()
			select {
			case o := <-done:
				if !errors.Is(o.err, context.Canceled) {
					t.Errorf("error = %v, want one wrapping context.Canceled", o.err)
				}
				if o.err != nil && !strings.Contains(o.err.Error(), v) {
					t.Errorf("error %q does not name the variant", o.err)
				}
				if o.res.Calls >= calls {
					t.Errorf("Calls = %d, want fewer than %d", o.res.Calls, calls)
				}
			case <-time.After(time.Minute):
				// A failure bound, not a speed goal: without the stop flag
				// the run would take hours.
				t.Fatal("Run did not stop within a minute of cancellation")
			}
		})
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, DefaultParams(), nil)
	if !errors.Is(err, context.Canceled) || res.Calls != 0 {
		t.Errorf("Run on a cancelled context = %+v, %v; want no calls and context.Canceled", res, err)
	}
}

// BenchmarkRun reports, per variant and handle, the time per call (ns/op,
// replacing the benchmark's own figure, which would include thread setup)
// and the throughput, with one caller making b.N calls.
func BenchmarkRun(b *testing.B) {
	for _, v := range Variants() {
		for _, h := range testHandles {
			b.Run(v+"/"+h, func(b *testing.B) {
				p := Params{Variant: v, Handle: h, Threads: 1, Calls: int64(b.N)}
				res, err := Run(context.Background(), p, testHandle(p.Handle))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(res.NsPerCall(), "ns/op")
				b.ReportMetric(res.CallsPerSecond(), "op/s")
			})
		}
	}
}
