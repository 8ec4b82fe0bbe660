package boxroot

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestDropInReuse checks the drop-in API's memory bound: handles freed are
// claimed again before any pool is allocated, and a burst of n live
// handles takes about n/poolSize pools.
func TestDropInReuse(t *testing.T) {
	const n = 20 * poolSize
	round := func() {
		hs := make([]Handle, n)
		for i := range hs {
			hs[i] = NewHandle(i)
		}
		for i, h := range hs {
			if got := h.Value(); got != i {
				t.Fatalf("Value() = %v, want %d", got, i)
			}
			h.Delete()
		}
	}
	before := StdStats()["pools"]
	round()
	first := StdStats()["pools"] - before
	// A goroutine's stack may move (and hash to another stripe), so allow
	// a second stripe's worth.
	if limit := int64(2 * (n/(poolSize-reuseMin) + 1)); first > limit {
		t.Errorf("%d live handles took %d pools, want at most %d", n, first, limit)
	}
	mid := StdStats()["pools"]
	for range 5 {
		round()
	}
	if again := StdStats()["pools"] - mid; again > first {
		t.Errorf("5 more rounds over freed pools allocated %d pools (the first round %d): freed slots are not reused", again, first)
	}
}

// TestDropInPassAround has goroutines create handles and pass half of
// them to another goroutine to check and delete, so that handles go back
// to other threads' caches and through the depot. Meaningful under -race.
func TestDropInPassAround(t *testing.T) {
	const workers, rounds, batch = 8, 20, 700
	inbox := make([]chan []Handle, workers)
	for i := range inbox {
		inbox[i] = make(chan []Handle, rounds)
	}
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			for r := range rounds {
				hs := make([]Handle, batch)
				for i := range hs {
					hs[i] = NewHandle(w*1_000_000 + r*batch + i)
				}
				for i, h := range hs[batch/2:] {
					want := w*1_000_000 + r*batch + batch/2 + i
					if got := h.Value(); got != want && err == nil {
						err = fmt.Errorf("handle %#x holds %v, want %d", h, got, want)
					}
					h.Delete()
				}
				inbox[(w+1)%workers] <- hs[:batch/2]
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a wrong value: %v", err)
		}
	}
	for w, in := range inbox {
		close(in)
		for hs := range in {
			from := (w + workers - 1) % workers
			for _, h := range hs {
				if v, ok := h.Value().(int); !ok || v/1_000_000 != from {
					t.Fatalf("handle %#x holds %v, want a value of worker %d", h, h.Value(), from)
				}
				h.Delete()
			}
		}
	}
}

// TestDropInGCSafety roots objects through the drop-in API on some
// goroutines and deletes half of them on others: no rooted object may be
// collected, and every deleted one must be.
func TestDropInGCSafety(t *testing.T) {
	const n = 4000
	var collected [n]atomic.Bool
	hs := make([]Handle, n)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 8 {
				p := &payload{id: int64(i)}
				runtime.AddCleanup(p, func(i int) { collected[i].Store(true) }, i)
				hs[i] = NewHandle(p)
			}
		}()
	}
	wg.Wait()
	for g := range 8 {
		wg.Add(1)
		go func() { // deletes the even ones, other goroutines than their creators'
			defer wg.Done()
			for i := (g + 1) % 8 * 2; i < n; i += 16 {
				hs[i].Delete()
			}
		}()
	}
	wg.Wait()
	waitCollected := func(want func(i int) bool) {
		t.Helper()
		for try := 0; ; try++ {
			runtime.GC()
			missing := 0
			for i := range n {
				if want(i) && !collected[i].Load() {
					missing++
				}
			}
			if missing == 0 {
				return
			}
			if try == 100 {
				t.Fatalf("%d deleted objects still not collected after 100 collections", missing)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitCollected(func(i int) bool { return i%2 == 0 })
	for i := 1; i < n; i += 2 {
		if collected[i].Load() {
			t.Fatalf("object %d was collected while rooted", i)
		}
		if p, ok := hs[i].Value().(*payload); !ok || p.id != int64(i) {
			t.Fatalf("handle %d holds %v", i, hs[i].Value())
		}
	}
	for i := 1; i < n; i += 2 {
		hs[i].Delete()
	}
	waitCollected(func(int) bool { return true })
}

// TestDropInModel checks the drop-in API against a model (the live
// handles and their values) under goroutine churn: creates and deletes run
// on fresh goroutines, alone or many at once, and deleted handles must
// panic, their slots reused or not.
func TestDropInModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		live := map[Handle]int64{}
		var order, dead []Handle
		var nextID int64
		pick := func(rt *rapid.T) int { return rapid.IntRange(0, len(order)-1).Draw(rt, "k") }
		// onGoroutines runs f(g) on k fresh goroutines at once.
		onGoroutines := func(k int, f func(g int)) {
			var wg sync.WaitGroup
			for g := range k {
				wg.Add(1)
				go func() { defer wg.Done(); f(g) }()
			}
			wg.Wait()
		}
		added := func(hs []Handle, ids []int64) {
			for i, h := range hs {
				if _, ok := live[h]; ok || h == 0 {
					rt.Fatalf("NewHandle returned %#x, zero or live", h)
				}
				for _, d := range dead {
					if d == h {
						rt.Fatalf("NewHandle returned %#x again after its Delete", h)
					}
				}
				live[h] = ids[i]
				order = append(order, h)
			}
		}
		remove := func(k int) Handle {
			h := order[k]
			order[k] = order[len(order)-1]
			order = order[:len(order)-1]
			delete(live, h)
			dead = append(dead, h)
			return h
		}
		check := func(h Handle) {
			if p, ok := h.Value().(*payload); !ok || p.id != live[h] {
				rt.Fatalf("Value(%#x) = %v, want payload %d", h, h.Value(), live[h])
			}
		}
		rt.Repeat(map[string]func(*rapid.T){
			"create": func(rt *rapid.T) {
				nextID++
				p := &payload{id: nextID}
				var h Handle
				if rapid.Bool().Draw(rt, "here") {
					h = NewHandle(p)
				} else {
					onGoroutines(1, func(int) { h = NewHandle(p) })
				}
				added([]Handle{h}, []int64{nextID})
			},
			"create-concurrently": func(rt *rapid.T) {
				k, each := rapid.IntRange(2, 8).Draw(rt, "goroutines"), rapid.IntRange(1, 400).Draw(rt, "each")
				hs := make([][]Handle, k)
				first := nextID + 1
				nextID += int64(k * each)
				onGoroutines(k, func(g int) {
					for i := range each {
						hs[g] = append(hs[g], NewHandle(&payload{id: first + int64(g*each+i)}))
					}
				})
				for g := range k {
					ids := make([]int64, each)
					for i := range ids {
						ids[i] = first + int64(g*each+i)
					}
					added(hs[g], ids)
				}
			},
			"value": func(rt *rapid.T) {
				if len(order) > 0 {
					check(order[pick(rt)])
				}
			},
			"delete-elsewhere": func(rt *rapid.T) {
				if len(order) > 0 {
					k := pick(rt)
					check(order[k])
					h := remove(k)
					onGoroutines(1, func(int) { h.Delete() })
				}
			},
			"delete-concurrently": func(rt *rapid.T) {
				n := min(len(order), rapid.IntRange(1, 1000).Draw(rt, "n"))
				hs := make([]Handle, 0, n)
				for range n {
					hs = append(hs, remove(pick(rt)))
				}
				k := rapid.IntRange(1, 8).Draw(rt, "goroutines")
				onGoroutines(k, func(g int) {
					for i := g; i < len(hs); i += k {
						hs[i].Delete()
					}
				})
			},
			"stale": func(rt *rapid.T) {
				if len(dead) > 0 {
					h := dead[rapid.IntRange(0, len(dead)-1).Draw(rt, "dead")]
					f := func() { h.Value() }
					if rapid.Bool().Draw(rt, "delete") {
						f = func() { h.Delete() }
					}
					if err := expectPanic(fmt.Sprintf("use of deleted handle %#x", h), f); err != nil {
						rt.Fatal(err)
					}
				}
			},
			"gc": func(rt *rapid.T) {
				runtime.GC()
				for _, h := range order {
					check(h)
				}
			},
		})
		onGoroutines(1, func(int) {
			for _, h := range order {
				check(h)
				h.Delete()
			}
		})
	})
	checkReleased(t)
}
