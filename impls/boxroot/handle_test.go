package boxroot

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/cell"
)

var churnFull = flag.Bool("boxroot.churn-full", false,
	"run TestDropInChurn at full size (3000 handles per goroutine) even under -race")

// trimStd releases the drop-in allocator's empty pools beyond maxEmpty as
// if they had idled long enough (the depot releases them only after a
// while of disuse).
func trimStd() {
	std.mu.Lock()
	saved := std.idleFactor
	std.idleFactor = 0
	depotTrim()
	std.idleFactor = saved
	std.mu.Unlock()
}

// resetStdPeak releases the empty pools other tests left beyond maxEmpty
// and makes the drop-in allocator's peak_pools its current pools, so that
// a test measures its own peak.
func resetStdPeak() {
	trimStd()
	std.mu.Lock()
	std.peak = std.pools
	std.mu.Unlock()
}

// forEachCache calls f with every cache and its id, each locked under the
// race detector (pinCacheID). Call it only while no goroutine uses the
// drop-in API.
func forEachCache(f func(id int, c *pcache)) {
	for id := range caches {
		f(id, pinCacheID(id))
		unpinCacheID(id)
	}
}

// cachedPools returns the directory indexes of the pools of the slots in
// the caches and the depot's magazines. Call it only while no
// goroutine uses the drop-in API.
func cachedPools() map[int32]bool {
	seen := map[int32]bool{}
	forEachCache(func(_ int, c *pcache) {
		for _, h := range c.handles() {
			seen[int32(h&indexMask>>poolLog)] = true
		}
	})
	std.mu.Lock()
	defer std.mu.Unlock()
	for _, m := range depot.mags {
		for _, h := range m {
			seen[int32(h&indexMask>>poolLog)] = true
		}
	}
	return seen
}

// cacheCounters returns every cache's top and bottom. Call it only while
// no goroutine uses the drop-in API.
func cacheCounters() [maxCaches][2]uint {
	var tb [maxCaches][2]uint
	forEachCache(func(id int, c *pcache) { tb[id] = [2]uint{c.top, c.bottom} })
	return tb
}

// cachesUsedSince counts the caches that hold a slot now or whose top or
// bottom moved since before (from cacheCounters): those that the drop-in
// code run in between used, one per M (or P, where the fast paths pin).
// A cache whose top and bottom came back to where they were, empty, is
// missed, which tightens a bound that adds one pool per cache. Call it
// only while no goroutine uses the drop-in API.
func cachesUsedSince(before [maxCaches][2]uint) int {
	n := 0
	for id, tb := range cacheCounters() {
		if tb != before[id] || tb[0] != tb[1] {
			n++
		}
	}
	return n
}

// cachedSlots counts the free slots in the caches. Call it only while no
// goroutine uses the drop-in API.
func cachedSlots() int {
	n := 0
	forEachCache(func(_ int, c *pcache) { n += int(c.len()) })
	return n
}

// stdLiveSlots counts the drop-in allocator's live slots (those that hold
// no free mark), pool by directory index. Other tests may leave some. Call
// it only while no goroutine uses the drop-in API.
func stdLiveSlots() (total int64, byPool map[int32]int) {
	byPool = map[int32]int{}
	std.mu.Lock()
	defer std.mu.Unlock()
	for idx := range std.dir {
		p := std.dir[idx].Load()
		if p == nil {
			continue
		}
		for i := range p.slots {
			if _, free := p.slots[i].v.(*freeMark); !free {
				byPool[int32(idx)]++
				total++
			}
		}
	}
	return total, byPool
}

// checkReleased checks the drop-in allocator's pool accounting while no
// goroutine uses it: every pool in the directory is kept empty (at most
// maxEmpty), holds a live slot, or holds a slot some cache or the
// depot's magazines keep.
// It first releases the empty pools beyond maxEmpty (trimStd).
func checkReleased(t testing.TB) {
	t.Helper()
	trimStd()
	s := StdStats()
	if s["pools_allocated"]-s["pools_released"] != s["pools"] {
		t.Errorf("pools: %d allocated - %d released != %d", s["pools_allocated"], s["pools_released"], s["pools"])
	}
	if s["pools_empty"] > maxEmpty {
		t.Errorf("%d empty pools kept, more than %d", s["pools_empty"], maxEmpty)
	}
	_, live := stdLiveSlots()
	cached := cachedPools()
	held := 0
	for idx := range maxPools {
		if live[int32(idx)] > 0 || cached[int32(idx)] {
			held++
		}
	}
	if kept := s["pools"] - s["pools_empty"]; kept > int64(held) {
		t.Errorf("%d pools are neither empty nor hold a live or cached slot (%d hold one): %v", kept-int64(held), held, s)
	}
}

// TestDropInChurn runs 150 waves of 64 short-lived goroutines (churnWaves,
// through HandleImpl's domains, whose methods are the fast paths). Each
// creates a batch of handles, deletes half of them itself and leaves the
// other half to a goroutine of the next wave, then exits. The drop-in
// pools must stay within 1.25 times the pools that the peak of live
// handles needs, plus one per cache the waves used (cachesUsedSince; a
// cache holds at most a pool's worth of slots), or within the pools other
// tests left, which the depot reuses first; and once everything is
// deleted, every pool must be released or kept empty, but for those
// holding a cached slot.
func TestDropInChurn(t *testing.T) {
	batch := 3000
	if raceEnabled && !*churnFull {
		// The race detector makes each handle many times dearer. Not smaller:
		// slots cached by the Ps cost a few pools whatever the size,
		// which the 25% margin covers only from some 40 pools' worth up.
		batch = 600
	}
	if testing.Short() {
		batch = 100
	}
	resetStdPeak()
	before, _ := stdLiveSlots() // left by other tests
	// The pools other tests left: the depot reuses them before it
	// allocates, so they are the peak until the test needs more.
	startPools := StdStats()["pools"]
	counters := cacheCounters()
	peak := churnWaves(t, HandleImpl(), batch)
	need := (before + peak + poolSize - 1) / poolSize
	used := cachesUsedSince(counters)
	limit := max(need*5/4+int64(used), startPools)
	s := StdStats()
	t.Logf("%d waves of %d goroutines: peak %d handles live (and %d of other tests: %d pools' worth), peak %d pools (limit %d with %d caches in use, %d pools at the start); now %v",
		churnWavesN, churnWorkers, peak, before, need, s["peak_pools"], limit, used, startPools, s)
	if s["peak_pools"] > limit {
		t.Errorf("peak %d pools for a peak of %d live handles (%d pools' worth): more than %d",
			s["peak_pools"], peak, need, limit)
	}
	checkReleased(t)
}

// churnWavesN waves of churnWorkers goroutines make churnWaves' pattern.
const churnWavesN, churnWorkers = 150, 64

// churnWaves runs TestDropInChurn's pattern on impl: churnWavesN waves of
// churnWorkers goroutines, each with a domain of its own, creating batch
// handles, deleting the half the previous wave handed it and half of its
// own (checking each value), and handing the other half on; at the end
// every handle is deleted. It returns the peak of live handles, and fails
// tb on a wrong value.
func churnWaves(tb testing.TB, impl cell.Impl[Handle], batch int) int64 {
	var live, peak, bad atomic.Int64
	counted := func(d int64) {
		n := live.Add(d)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
	}
	handOver := make([][]Handle, churnWorkers) // from the previous wave
	for wave := range churnWavesN {
		next := make([][]Handle, churnWorkers)
		var wg sync.WaitGroup
		for w := range churnWorkers {
			wg.Go(func() {
				d := impl.NewDomain()
				defer d.Close()
				base := (wave*churnWorkers + w) * batch
				hs := make([]Handle, batch)
				for i := range hs {
					counted(1)
					hs[i] = d.Create(base + i)
				}
				for _, h := range handOver[w] {
					d.Delete(h)
					counted(-1)
				}
				for i, h := range hs[:batch/2] {
					if d.Get(h) != base+i {
						bad.Add(1)
					}
					d.Delete(h)
					counted(-1)
				}
				next[(w+1)%churnWorkers] = hs[batch/2:]
			})
		}
		wg.Wait()
		handOver = next
	}
	d := impl.NewDomain()
	for _, hs := range handOver {
		for _, h := range hs {
			d.Delete(h)
		}
	}
	d.Close()
	if bad.Load() != 0 {
		tb.Errorf("%d wrong values", bad.Load())
	}
	return peak.Load()
}

// capacityChildEnv makes the test binary run TestCapacityLimit's child
// part: with the pool limit lowered, which no other test may see.
const capacityChildEnv = "BOXROOT_CAPACITY_CHILD"

// TestCapacityLimit runs capacityChild in a child process with the pool
// limit lowered to 4 pools: a deadlock there fails the test at a timeout
// instead of hanging the suite.
func TestCapacityLimit(t *testing.T) {
	if os.Getenv(capacityChildEnv) == "1" {
		capacityChild(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCapacityLimit$", "-test.v")
	cmd.Env = append(os.Environ(), capacityChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the child did not finish within 60s (a deadlock?):\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestCapacityLimit") {
		t.Fatalf("the child failed: %v\n%s", err, out)
	}
}

// createUntilFull calls create until it panics, and returns the number of
// creates that succeeded and the panic value.
func createUntilFull(create func(i int)) (n int, r any) {
	defer func() { r = recover() }()
	for ; ; n++ {
		create(n)
	}
}

// checkFull checks a panic value at the limit of pools pools.
func checkFull(t *testing.T, what string, r any, pools int) {
	t.Helper()
	err, ok := r.(error)
	if !ok || !errors.Is(err, ErrFull) {
		t.Fatalf("%s: panic value %v (%T), want an error wrapping ErrFull", what, r, r)
	}
	want := fmt.Sprintf("boxroot: out of handle space: all %d pools of 1024 slots (%d handles) are in use; delete handles to create more",
		pools, pools*poolSize)
	if err.Error() != want {
		t.Errorf("%s: message %q, want %q", what, err, want)
	}
}

func capacityChild(t *testing.T) {
	const pools = 4
	if MaxHandles != 1<<26-1024 {
		t.Errorf("MaxHandles = %d, want 2^26-1024", MaxHandles)
	}
	msg := fullError{"boxroot", maxPools - 1}.Error()
	if !strings.Contains(msg, "all 65535 pools of 1024 slots (67107840 handles)") {
		t.Errorf("the message at the real limit is %q", msg)
	}

	t.Run("domain", func(t *testing.T) {
		im := New(Options{})
		im.poolLimit = pools + 1 // index 0 is never used
		d := im.NewLocalDomain()
		var hs []Handle
		n, r := createUntilFull(func(i int) { hs = append(hs, d.Create(i)) })
		checkFull(t, "Create", r, pools)
		if n != pools*poolSize {
			t.Errorf("%d creates before the limit, want exactly %d", n, pools*poolSize)
		}
		if s := im.Stats(); s["pools"] != pools { // no deadlock either
			t.Errorf("at the limit: %v", s)
		}
		// Room made by deletes is used again, by the owner...
		for _, h := range hs[:100] {
			d.Delete(h)
		}
		n, r = createUntilFull(func(i int) { hs[i] = d.Create(i) })
		checkFull(t, "Create after 100 deletes", r, pools)
		if n != 100 {
			t.Errorf("%d creates after 100 deletes, want 100", n)
		}
		// ... and, once the owner closes, by a domain on another goroutine.
		for _, h := range hs {
			d.Delete(h)
		}
		d.Close()
		done := make(chan int)
		go func() {
			e := im.NewLocalDomain()
			defer e.Close()
			n, _ := createUntilFull(func(i int) { e.Create(i) })
			done <- n
		}()
		if n := <-done; n != pools*poolSize {
			t.Errorf("a fresh domain created %d handles, want %d", n, pools*poolSize)
		}
	})

	t.Run("drop-in", func(t *testing.T) {
		std.mu.Lock()
		std.poolLimit = pools + 1
		std.mu.Unlock()
		// At the limit every slot is live or cached: the slots cached by
		// other Ms (or Ps), out of this goroutine's reach, are all it
		// could not create, and no slot is lost.
		var hs []Handle
		n, r := createUntilFull(func(i int) { hs = append(hs, NewHandle(i)) })
		checkFull(t, "NewHandle", r, pools)
		if cached := cachedSlots(); n+cached != pools*poolSize {
			t.Errorf("%d creates before the limit and %d slots cached, want %d in all", n, cached, pools*poolSize)
		}
		if s := StdStats(); s["pools"] != pools { // no deadlock either
			t.Errorf("at the limit: %v", s)
		}
		for _, h := range hs {
			h.Delete()
		}
		done := make(chan int)
		go func() {
			n, r := createUntilFull(func(i int) { NewHandle(i) })
			checkFull(t, "NewHandle on a fresh goroutine", r, pools)
			done <- n
		}()
		if n, cached := <-done, cachedSlots(); n+cached != pools*poolSize {
			t.Errorf("after every handle was deleted, a fresh goroutine created %d handles and %d slots are cached, want %d in all", n, cached, pools*poolSize)
		}
	})
}

// reuseSlot creates handles with create, keeping them live, until one
// names the same slot as h (the same index, another tag); it deletes the
// others with del and returns that one.
func reuseSlot(t *testing.T, h Handle, create func() Handle, del func(Handle)) Handle {
	t.Helper()
	var kept []Handle
	defer func() {
		for _, g := range kept {
			del(g)
		}
	}()
	for range 8 * poolSize {
		g := create()
		if g&indexMask == h&indexMask {
			if g == h {
				t.Fatalf("handle %#x was issued again after its Delete", h)
			}
			return g
		}
		kept = append(kept, g)
	}
	t.Fatalf("the slot of %#x was not reused in %d creates", h, 8*poolSize)
	return 0
}

// TestStaleAfterReuse checks, in both APIs, that a deleted handle panics
// on Get/Value and Delete even once its slot holds a new live value, and
// that the new handle is unharmed.
func TestStaleAfterReuse(t *testing.T) {
	t.Run("domain", func(t *testing.T) {
		im := New(Options{})
		d, other := im.NewLocalDomain(), im.NewLocalDomain()
		defer d.Close()
		defer func() { other.Close() }()
		for _, remote := range []bool{false, true} {
			var h Handle
			if remote {
				// A pool's worth deleted by another domain: its owner
				// takes them back (reuse in place) when it needs room.
				hs := fill(d, poolSize)
				for _, g := range hs {
					other.Delete(g)
				}
				other.Close() // publishes the remote deletes
				other = im.NewLocalDomain()
				h = hs[0]
			} else {
				h = d.Create("old")
				d.Delete(h)
			}
			g := reuseSlot(t, h, func() Handle { return d.Create("new") }, d.Delete)
			for _, misuse := range []struct {
				what string
				f    func()
			}{
				{"Get", func() { d.Get(h) }},
				{"Impl.Get", func() { im.Get(h) }},
				{"Delete", func() { d.Delete(h) }},
				{"remote Delete", func() { other.Delete(h) }},
			} {
				if err := expectPanic(fmt.Sprintf("%s of a stale handle (remote delete %v)", misuse.what, remote), misuse.f); err != nil {
					t.Error(err)
				}
			}
			if got := d.Get(g); got != "new" {
				t.Errorf("the slot's new handle holds %v, want %q", got, "new")
			}
			d.Delete(g)
		}
	})
	t.Run("drop-in", func(t *testing.T) {
		h := NewHandle("old")
		h.Delete()
		g := reuseSlot(t, h, func() Handle { return NewHandle("new") }, Handle.Delete)
		for _, misuse := range []struct {
			what string
			f    func()
		}{{"Value", func() { h.Value() }}, {"Delete", func() { h.Delete() }}} {
			if err := expectPanic(misuse.what+" of a stale handle", misuse.f); err != nil {
				t.Error(err)
			}
		}
		if got := g.Value(); got != "new" {
			t.Errorf("the slot's new handle holds %v, want %q", got, "new")
		}
		g.Delete()
	})
}

// TestCrossAllocator checks that a handle of one allocator given to
// another panics, even where the other has a live slot at the same index.
func TestCrossAllocator(t *testing.T) {
	a, b := New(Options{}), New(Options{})
	da, db := a.NewLocalDomain(), b.NewLocalDomain()
	defer da.Close()
	defer db.Close()
	ha, hb := da.Create("a"), db.Create("b")
	if ha&indexMask != hb&indexMask {
		t.Fatalf("two fresh allocators' first handles %#x and %#x name different slots", ha, hb)
	}
	hd := NewHandle("drop-in")
	defer hd.Delete()
	for _, c := range []struct {
		what string
		f    func()
	}{
		{"Get of a's handle by b", func() { b.Get(ha) }},
		{"Delete of a's handle by b's domain", func() { db.Delete(ha) }},
		{"Value of a domain handle", func() { ha.Value() }},
		{"Get of a drop-in handle by a", func() { a.Get(hd) }},
	} {
		if err := expectPanic(c.what, c.f); err != nil {
			t.Error(err)
		}
	}
	if da.Get(ha) != "a" || db.Get(hb) != "b" || hd.Value() != "drop-in" {
		t.Error("a misuse disturbed a live handle")
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

// TestCachesKeepTheirRegions replays what makes two Ps false-share: a
// goroutine moves from P a to P b between a NewHandle and its Delete, and
// later another moves back between its own pair. Each P then loops as
// the parallel BenchmarkHandle does (pop, push back). Each P's top must
// stay among the slots it started with, never beside the other's top:
// neighbouring handles are neighbouring slots in memory, one cache line
// apart at most.
func TestCachesKeepTheirRegions(t *testing.T) {
	var a, b pcache
	for i := range 8 {
		a.push(Handle(100+i) + tagOne) // region of a: slots 100-107
		b.push(Handle(200+i) + tagOne) // region of b: slots 200-207
	}
	loop := func(c *pcache) Handle { // one create and delete in turn
		h := c.pop()
		c.pushFreed(h + tagOne)
		return h & slotMask
	}
	loop(&a)
	loop(&b)
	// a's top, handed out on a, freed on b; then b's top, freed on a.
	b.pushFreed(a.pop() + tagOne)
	a.pushFreed(b.pop() + tagOne)
	for range 3 {
		if ta, tb := loop(&a), loop(&b); ta/100 != 1 || tb/100 != 2 {
			t.Fatalf("tops after two moves: a reuses slot %d, b slot %d; want each its own region (1xx, 2xx)", ta, tb)
		}
	}
}

// TestCacheKeepsItsTop checks where a cache puts a freed slot: the
// slot it handed out last goes back on top (reused next, while warm); any
// other goes to the bottom, and is reused only after every slot above it,
// even when the cache's own top has gone to another cache (see
// pcache.pushFreed).
func TestCacheKeepsItsTop(t *testing.T) {
	h := func(i int) Handle { return Handle(i) + 5*tagOne }
	var c pcache
	for i := 1; i <= 3; i++ {
		c.push(h(i))
	}
	if got := c.pop(); got != h(3) {
		t.Fatalf("pop = %#x, want %#x", got, h(3))
	}
	c.pushFreed(h(7) + tagOne) // another cache's slot: to the bottom
	c.pushFreed(h(3) + tagOne) // its own: on top
	want := []Handle{h(7) + tagOne, h(1), h(2), h(3) + tagOne}
	if got := c.handles(); !slices.Equal(got, want) {
		t.Errorf("cache = %#x, want %#x (oldest first)", got, want)
	}
	// The top goes to another cache and is deleted there: the next top
	// is the cache's own h(2), not the foreign slot.
	c.pop()
	c.pushFreed(h(8) + tagOne)
	if got := c.pop(); got != h(2) {
		t.Errorf("after losing its top, pop = %#x, want its own %#x", got, h(2))
	}
	c.pop() // h(1)
	for _, w := range []Handle{h(7) + tagOne, h(8) + tagOne, 0} {
		if got := c.pop(); got != w {
			t.Errorf("pop = %#x, want %#x (other caches' slots, in the order they came, then none)", got, w)
		}
	}
	for c.len() < cacheSize {
		c.pushFreed(h(3))
	}
	if c.pushFreed(h(4)) || c.push(h(4)) {
		t.Error("a full cache took one more")
	}
	// The bottom half goes to a magazine, oldest first, also across the
	// wrap of the ring.
	var m magazine
	flushCache(&c, &m)
	if c.len() != cacheSize-cacheBatch || m[0] != h(3) {
		t.Errorf("after a flush: %d cached, magazine starts %#x", c.len(), m[0])
	}
}

// TestStdStatsNamesItsFastPaths checks that StdStats says which fast paths
// this build runs: asm_fast_paths is 1 exactly when they are the assembly
// ones (never under -race).
func TestStdStatsNamesItsFastPaths(t *testing.T) {
	got, ok := StdStats()["asm_fast_paths"]
	if want := map[bool]int64{false: 0, true: 1}[asmCaches]; !ok || got != want {
		t.Errorf("StdStats()[asm_fast_paths] = %d (present: %v), want %d", got, ok, want)
	}
}
