package boxroot

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

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
