package msgpass

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestStackModel: one goroutine, random pushes and pops, against a slice
// used as a LIFO.
func TestStackModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		var s stack[int]
		var model []int
		ops := rapid.SliceOfN(rapid.IntRange(-1, 1000), 0, 200).Draw(t, "ops") // -1: pop
		for _, op := range ops {
			if op >= 0 {
				s.push(op)
				model = append(model, op)
				continue
			}
			v, ok := s.pop()
			if len(model) == 0 {
				if ok {
					t.Fatalf("pop on empty stack returned %d", v)
				}
				continue
			}
			want := model[len(model)-1]
			model = model[:len(model)-1]
			if !ok || v != want {
				t.Fatalf("pop = %d, %v; want %d", v, ok, want)
			}
			if s.empty() != (len(model) == 0) {
				t.Fatalf("empty() = %v with %d items", s.empty(), len(model))
			}
		}
	})
}

// TestStackConcurrent: concurrent pushers and poppers (pops interleaved
// with pushes, as in the workload); every pushed item is popped exactly once.
func TestStackConcurrent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		pushers := rapid.IntRange(1, 4).Draw(t, "pushers")
		poppers := rapid.IntRange(1, 4).Draw(t, "poppers")
		per := rapid.IntRange(0, 300).Draw(t, "items per pusher")
		total := pushers * per
		var s stack[int]
		var popped atomic.Int64
		seen := make([][]int, poppers)
		var wg sync.WaitGroup
		for p := range pushers {
			wg.Go(func() {
				for i := range per {
					s.push(p*per + i)
					if i%16 == 0 {
						runtime.Gosched()
					}
				}
			})
		}
		for c := range poppers {
			wg.Go(func() {
				for popped.Load() < int64(total) {
					if v, ok := s.pop(); ok {
						seen[c] = append(seen[c], v)
						popped.Add(1)
					} else {
						runtime.Gosched()
					}
				}
			})
		}
		wg.Wait()
		count := make([]int, total)
		for _, vs := range seen {
			for _, v := range vs {
				if v < 0 || v >= total {
					t.Fatalf("popped %d, never pushed", v)
				}
				count[v]++
			}
		}
		exactlyOnce(t, count, "item %d popped %d times")
		if _, ok := s.pop(); ok {
			t.Fatal("stack not empty after every item was popped")
		}
	})
}

// TestFreeListConcurrent: many pushers, one taker taking everything at once
// while they push; every batch comes back exactly once.
func TestFreeListConcurrent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		pushers := rapid.IntRange(1, 4).Draw(t, "pushers")
		per := rapid.IntRange(0, 300).Draw(t, "items per pusher")
		total := pushers * per
		var l freeList[int]
		var wg sync.WaitGroup
		for p := range pushers {
			wg.Go(func() {
				for i := range per {
					l.push(&batch[int]{producer: p, index: int64(i)})
				}
			})
		}
		count := make([]int, total)
		got := 0
		for got < total {
			b := l.takeAll()
			if b == nil {
				runtime.Gosched()
			}
			for ; b != nil; b = b.nextFree {
				count[b.producer*per+int(b.index)]++
				got++
			}
		}
		wg.Wait()
		if l.takeAll() != nil {
			t.Fatal("free list not empty after every batch was taken")
		}
		exactlyOnce(t, count, "batch %d taken %d times")
	})
}

// exactlyOnce fails t, with format (the item's index, then its count),
// unless every item of count was seen once.
func exactlyOnce(t *rapid.T, count []int, format string) {
	for i, n := range count {
		if n != 1 {
			t.Fatalf(format, i, n)
		}
	}
}

// TestEventNoLostWakeup: a producer hands items one at a time to sleeping
// consumers through a counter and an event; with Signal-per-item, every
// item is taken and every consumer exits (a lost wake-up hangs the test).
func TestEventNoLostWakeup(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		consumers := rapid.IntRange(1, 6).Draw(t, "consumers")
		items := rapid.IntRange(0, 500).Draw(t, "items")
		var ev event
		ev.init()
		var avail, taken atomic.Int64
		var stop atomic.Bool
		var wg sync.WaitGroup
		tryTake := func() bool {
			for {
				a := avail.Load()
				if a == 0 {
					return false
				}
				if avail.CompareAndSwap(a, a-1) {
					return true
				}
			}
		}
		for range consumers {
			wg.Go(func() {
				for {
					if taken.Load() >= int64(items) {
						return
					}
					if tryTake() {
						if taken.Add(1) == int64(items) {
							ev.notify(true)
						}
						continue
					}
					key := ev.prepare()
					if avail.Load() > 0 || taken.Load() >= int64(items) {
						ev.cancel()
						continue
					}
					ev.wait(key, &stop)
				}
			})
		}
		for i := 0; i < items; i++ {
			avail.Add(1)
			ev.notify(false)
			if i%8 == 0 {
				runtime.Gosched()
			}
		}
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(time.Minute):
			t.Fatalf("consumers still asleep a minute after the last item: lost wake-up (taken %d of %d)", taken.Load(), items)
		}
		if taken.Load() != int64(items) {
			t.Fatalf("taken %d of %d", taken.Load(), items)
		}
	})
}
