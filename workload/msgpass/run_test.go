package msgpass

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/cell"
)

// small returns modest parameters for tests: the race detector makes every
// cell expensive, and the point is coverage, not volume.
func small(s Scheduler, pl Payload, q Queue) Params {
	p := DefaultParams()
	p.Scheduler, p.Payload, p.Queue = s, pl, q
	p.NIters = 60
	p.BatchSize = 32
	p.MaxDelay = 8
	p.Producers, p.Consumers = 2, 2
	if testing.Short() {
		p.NIters = 20
	}
	return p
}

var (
	allSchedulers = []Scheduler{Parallel, Concurrent, Sequential}
	allPayloads   = []Payload{Static, Fresh}
	allQueues     = []Queue{Shared, PerConsumer}
)

// runWithin runs fn, failing the test instead of hanging if it does not
// return within limit (a liveness guard, not a speed goal: limit is far above
// what the run needs).
func runWithin[T any](t *testing.T, limit time.Duration, fn func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- fn() }()
	select {
	case v := <-done:
		return v
	case <-time.After(limit):
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Fatalf("run did not finish within %v (hang?); goroutines:\n%s", limit, buf[:n])
		panic("unreachable")
	}
}

type outcome struct {
	res Result
	err error
}

func runOK[C any](t *testing.T, impl cell.Impl[C], p Params) (Result, error) {
	t.Helper()
	o := runWithin(t, 2*time.Minute, func() outcome {
		res, err := Run(context.Background(), impl, p)
		return outcome{res, err}
	})
	return o.res, o.err
}

// TestEveryCombination runs every scheduler × payload × queue with a
// tracking implementation and checks what the workload promises: every cell
// created once, checked, deleted once, by a domain other than its creator,
// nothing live at the end, every domain closed, stats passed through.
func TestEveryCombination(t *testing.T) {
	for _, s := range allSchedulers {
		for _, pl := range allPayloads {
			for _, q := range allQueues {
				p := small(s, pl, q)
				t.Run(fmt.Sprintf("%s/%s/%s", s, pl, q), func(t *testing.T) {
					impl := &tracked{}
					res, err := runOK(t, impl, p)
					if err != nil {
						t.Fatalf("Run: %v", err)
					}
					want := int64(p.NIters * p.BatchSize * p.Producers)
					if res.Cells != want {
						t.Errorf("Cells = %d, want %d", res.Cells, want)
					}
					if res.Wall <= 0 || res.CPU.Total() <= 0 {
						t.Errorf("Wall = %v, CPU = %+v; want both > 0", res.Wall, res.CPU)
					}
					if res.Stats["created"] != want || res.Stats["remote-deletes"] != want || res.Stats["local-deletes"] != 0 {
						t.Errorf("Stats = %v: want %d created, all of them deleted remotely", res.Stats, want)
					}
					doms := impl.domains()
					if len(doms) != p.Producers+p.Consumers {
						t.Fatalf("%d domains created, want %d", len(doms), p.Producers+p.Consumers)
					}
					if got := int(impl.closed.Load()); got != len(doms) {
						t.Errorf("%d domains closed, want %d", got, len(doms))
					}
					creators, deleters := 0, 0
					for _, d := range doms {
						if d.created > 0 && d.remote+d.local > 0 {
							t.Errorf("domain %d both created (%d) and deleted (%d) cells", d.id, d.created, d.remote)
						}
						if d.created > 0 {
							creators++
						}
						if d.remote > 0 {
							deleters++
						}
					}
					if creators != p.Producers {
						t.Errorf("%d domains created cells, want every producer (%d)", creators, p.Producers)
					}
					// Shared queue: any consumer may get everything under a
					// parallel scheduler; a per-consumer queue or the
					// sequential rotation spreads batches (120 batches over
					// 2 consumers: all-to-one has probability 2^-119).
					if (q == PerConsumer || s == Sequential) && deleters != p.Consumers {
						t.Errorf("%d domains deleted cells, want every consumer (%d)", deleters, p.Consumers)
					}
				})
			}
		}
	}
}

func TestShardedHandles(t *testing.T) {
	for _, s := range allSchedulers {
		p := small(s, Fresh, Shared)
		if _, err := runOK(t, newSharded(), p); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestManyWorkers: more workers than cores must finish under every
// scheduler (consumers sleep instead of spinning).
func TestManyWorkers(t *testing.T) {
	cases := []struct{ prod, cons, niters, batch int }{
		{16, 16, 20, 16},
		{64, 64, 3, 8},
		{1, 64, 40, 8},
		{64, 1, 2, 8},
	}
	for _, c := range cases {
		for _, s := range allSchedulers {
			for _, q := range allQueues {
				p := DefaultParams()
				p.Scheduler, p.Queue = s, q
				p.Producers, p.Consumers, p.NIters, p.BatchSize = c.prod, c.cons, c.niters, c.batch
				p.MaxDelay = 2
				t.Run(fmt.Sprintf("%dx%d/%s/%s", c.prod, c.cons, s, q), func(t *testing.T) {
					impl := &tracked{}
					res, err := runOK(t, impl, p)
					if err != nil {
						t.Fatalf("Run: %v", err)
					}
					if want := int64(c.prod * c.niters * c.batch); res.Cells != want {
						t.Fatalf("Cells = %d, want %d", res.Cells, want)
					}
					if res.Stats["remote-deletes"] != res.Cells {
						t.Errorf("%d remote deletes for %d cells", res.Stats["remote-deletes"], res.Cells)
					}
				})
			}
		}
	}
}

// TestMaxDelayBoundsInFlight: with MaxDelay M a producer is never more than
// M batches ahead of the consumers, so at most M×BatchSize×Producers cells
// are ever live. Without the bound (and a consumer that cannot keep up under
// one P) the peak is higher, which shows the check can fail.
func TestMaxDelayBoundsInFlight(t *testing.T) {
	for _, s := range []Scheduler{Parallel, Concurrent} {
		p := small(s, Static, Shared)
		p.NIters, p.MaxDelay, p.Producers, p.Consumers = 200, 4, 2, 1
		impl := &tracked{}
		if _, err := runOK(t, impl, p); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		limit := int64(p.MaxDelay * p.BatchSize * p.Producers)
		if peak := impl.peak.Load(); peak > limit {
			t.Errorf("%s: peak live %d cells > MaxDelay×BatchSize×Producers = %d", s, peak, limit)
		}
	}
	// Control: one P, no MaxDelay: the producer runs until preempted, far
	// past 4 batches.
	p := small(Concurrent, Static, Shared)
	p.NIters, p.MaxDelay, p.Producers, p.Consumers = 200, 0, 1, 1
	impl := &tracked{}
	if _, err := runOK(t, impl, p); err != nil {
		t.Fatal(err)
	}
	if peak := impl.peak.Load(); peak <= int64(4*p.BatchSize) {
		t.Errorf("control: without MaxDelay the peak was only %d cells; the bound above proves nothing", peak)
	}
}

// TestMaxOutstandingBoundsInFlight: MaxOutstanding caps live cells across
// all producers.
func TestMaxOutstandingBoundsInFlight(t *testing.T) {
	for _, s := range allSchedulers {
		for _, q := range allQueues {
			p := small(s, Fresh, q)
			p.Producers, p.Consumers = 4, 3
			p.MaxDelay = 0
			p.MaxOutstanding = 3 * p.BatchSize
			impl := &tracked{}
			if _, err := runOK(t, impl, p); err != nil {
				t.Fatalf("%s/%s: %v", s, q, err)
			}
			if peak := impl.peak.Load(); peak > int64(p.MaxOutstanding) {
				t.Errorf("%s/%s: peak live %d cells > MaxOutstanding %d", s, q, peak, p.MaxOutstanding)
			}
		}
	}
}

func TestGOMAXPROCSRestored(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	for _, s := range allSchedulers {
		p := small(s, Static, Shared)
		p.Producers, p.Consumers = 3, 3
		if _, err := runOK(t, &tracked{}, p); err != nil {
			t.Fatal(err)
		}
		if got := runtime.GOMAXPROCS(0); got != before {
			t.Fatalf("%s: GOMAXPROCS %d after the run, %d before", s, got, before)
		}
	}
}

// TestWrongValue: every kind of wrong value is reported, naming producer,
// batch, index, got and want, under every scheduler and payload.
func TestWrongValue(t *testing.T) {
	faults := []struct {
		f       fault
		name    string
		payload []Payload
		got     string
	}{
		{faultPrevious, "previous", allPayloads, "value (producer 0"},
		{faultCopy, "copy", []Payload{Fresh}, "fresh value (producer 0"},
		{faultForeign, "foreign", allPayloads, "a value of type string"},
		{faultNil, "nil", allPayloads, "got nil"},
	}
	for _, f := range faults {
		for _, pl := range f.payload {
			for _, s := range allSchedulers {
				t.Run(fmt.Sprintf("%s/%s/%s", f.name, pl, s), func(t *testing.T) {
					p := small(s, pl, Shared)
					p.Producers, p.Consumers = 1, 1
					_, err := runOK(t, &broken{fault: f.f, at: 100}, p)
					if err == nil {
						t.Fatal("Run succeeded, want a wrong-value error")
					}
					msg := err.Error()
					for _, want := range []string{"wrong value", "producer 0, batch ", "index ", f.got, "want "} {
						if !strings.Contains(msg, want) {
							t.Errorf("error %q does not contain %q", msg, want)
						}
					}
					// The 100th Get is cell 99: batch 3, index 3 at 32 cells a
					// batch, when batches are consumed in order (sequential;
					// the others pop a LIFO stack concurrently).
					if s == Sequential && !strings.Contains(msg, "batch 3, index 3:") {
						t.Errorf("error %q does not point at batch 3, index 3", msg)
					}
				})
			}
		}
	}
}

func TestLeakReported(t *testing.T) {
	for _, s := range allSchedulers {
		_, err := runOK(t, &broken{fault: faultLeak, at: 50}, small(s, Static, Shared))
		if err == nil || !strings.Contains(err.Error(), "1 cells still live after the run (leak)") {
			t.Errorf("%s: error %v, want a leak of 1 cell", s, err)
		}
	}
}

// TestPanicsBecomeErrors: a panic in the implementation, on any worker and
// in any phase, fails the run with an error naming the panic; the run does
// not hang and the process does not die.
func TestPanicsBecomeErrors(t *testing.T) {
	cases := []struct {
		f      fault
		worker string
		msg    string
	}{
		{faultPanicGet, "consumer", "Get failed on purpose"},
		{faultPanicNew, "producer", "Create failed on purpose"},
		{faultPanicClose, "Close", "Close failed on purpose"},
		{faultPanicDomain, "", "NewDomain failed on purpose"},
	}
	for _, c := range cases {
		for _, s := range allSchedulers {
			t.Run(fmt.Sprintf("%s/%s", c.msg, s), func(t *testing.T) {
				_, err := runOK(t, &broken{fault: c.f, at: 70}, small(s, Fresh, PerConsumer))
				if err == nil {
					t.Fatal("Run succeeded, want an error")
				}
				msg := err.Error()
				if !strings.Contains(msg, "panicked") || !strings.Contains(msg, c.msg) || !strings.Contains(msg, c.worker) {
					t.Errorf("error %q: want it to say %q panicked with %q", msg, c.worker, c.msg)
				}
			})
		}
	}
}

// TestCancel: cancelling the context stops a run that would otherwise take
// hours, and the error says so.
func TestCancel(t *testing.T) {
	for _, s := range allSchedulers {
		for _, md := range []int{0, 2} {
			p := small(s, Static, Shared)
			p.NIters = 1 << 40 / p.BatchSize
			p.MaxDelay = md
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			o := runWithin(t, time.Minute, func() outcome {
				res, err := Run(ctx, &tracked{}, p)
				return outcome{res, err}
			})
			if !errors.Is(o.err, context.Canceled) || !strings.Contains(o.err.Error(), "cancelled") {
				t.Errorf("%s max-delay %d: error %v, want a cancellation", s, md, o.err)
			}
			cancel()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, &tracked{}, small(Parallel, Static, Shared)); !errors.Is(err, context.Canceled) {
		t.Errorf("already-cancelled context: error %v", err)
	}
}

// TestCancelHungImplementation: an implementation that never returns does
// not keep Run from returning after cancellation, and the error names the
// grace it waited. Each scheduler waits out the grace, in parallel with the
// others: abandonGrace in the full suite, 50 ms in -short (what is waited
// for is the same).
func TestCancelHungImplementation(t *testing.T) {
	t.Parallel()
	grace := abandonGrace
	if testing.Short() {
		grace = 50 * time.Millisecond
	}
	for _, s := range allSchedulers {
		t.Run(s.String(), func(t *testing.T) {
			t.Parallel()
			impl := &broken{fault: faultHang, at: 10, hold: make(chan struct{})}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			time.AfterFunc(20*time.Millisecond, cancel)
			o := runWithin(t, time.Minute, func() outcome {
				res, err := runAbandoning(ctx, impl, small(s, Static, Shared), grace)
				return outcome{res, err}
			})
			close(impl.hold) // let the abandoned worker finish
			if !errors.Is(o.err, context.Canceled) || !strings.Contains(o.err.Error(), grace.String()+" later were abandoned") {
				t.Errorf("error %v, want a cancellation that abandons the stuck worker after %v", o.err, grace)
			}
		})
	}
}

func TestRunRejectsInvalidParams(t *testing.T) {
	p := DefaultParams()
	p.BatchSize = 0
	_, err := Run(context.Background(), &tracked{}, p)
	if err == nil || !strings.Contains(err.Error(), "batch-size 0") {
		t.Fatalf("error %v, want one naming batch-size 0", err)
	}
}

func TestStaticTableLen(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ batch, prods int }{{1, 1}, {1024, 1}, {1024, 64}, {MaxBatchSize, MaxWorkers}, {3, 7}} {
		n := staticTableLen(c.batch, c.prods)
		if n <= c.batch {
			t.Errorf("staticTableLen(%d, %d) = %d: a batch must not reuse an entry", c.batch, c.prods, n)
		}
		if (n-1)%c.batch != 0 {
			t.Errorf("staticTableLen(%d, %d) = %d: want k×batch+1 (coprime with batch)", c.batch, c.prods, n)
		}
		if n > 16*c.batch+1 || (n-1)/c.batch > 1 && n*c.prods > 2<<22 {
			t.Errorf("staticTableLen(%d, %d) = %d: over budget", c.batch, c.prods, n)
		}
	}
}
