//go:build !race && !purego && go1.26 && !go1.27

package boxroot

import (
	"runtime"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// TestAsmCachesOn checks that the runtime's layout is the one the assembly
// fast paths were assembled with, so that they, not the pinned ones, are
// what this toolchain's builds run (and what the other tests check).
func TestAsmCachesOn(t *testing.T) {
	if !asmCaches {
		t.Fatalf("%s does not have go1.26's layout %+v: the fast paths pin; see cache_asm_linux_amd64.go for how to find the new offsets", runtime.Version(), go126Layout)
	}
	if got := StdStats()["asm_fast_paths"]; got != 1 {
		t.Errorf("StdStats reports asm_fast_paths %d, want 1", got)
	}
	defer pinnedFastPaths()()
	if got := StdStats()["asm_fast_paths"]; got != 0 {
		t.Errorf("on the pinned fast paths StdStats reports asm_fast_paths %d, want 0", got)
	}
}

// TestAsmMid checks that the assembly reads the id of the M the caller
// runs on: many goroutines, each locked to its own thread at the same
// time, read ids that are distinct, the same as pinID's, and the same
// after the goroutine yields.
func TestAsmMid(t *testing.T) {
	const workers = 3 * directCaches
	ids := make([]int, workers)
	var locked, done sync.WaitGroup
	locked.Add(workers)
	release := make(chan struct{})
	for i := range workers {
		done.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			ids[i] = asmMid()
			locked.Done()
			<-release // every worker holds its thread until all have read
			for range 20 {
				runtime.Gosched()
				pinned := pinID()
				procUnpin()
				if got := asmMid(); got != ids[i] || pinned != ids[i] {
					t.Errorf("worker %d: asmMid() read %d, then %d, and pinID %d on the same locked thread", i, ids[i], got, pinned)
					return
				}
			}
		})
	}
	locked.Wait()
	close(release)
	done.Wait()
	seen := map[int]int{}
	above := 0
	for i, id := range ids {
		if j, dup := seen[id]; dup {
			t.Errorf("workers %d and %d, locked to different threads, read M id %d", j, i, id)
		}
		seen[id] = i
		if id >= directCaches {
			above++
		}
	}
	t.Logf("%d distinct M ids (%d beyond the tree's leaves)", len(seen), above)
}

// TestAsmTree checks every leaf of the assembly's tree, and its default
// path, against the Go fast paths' (treeCache, which TestCacheTree
// checks): id i gets caches[i], an id beyond maxCaches none.
func TestAsmTree(t *testing.T) {
	t.Parallel()
	for id := range uint(maxCaches + 2) {
		if got, want := asmTreeCache(id), treeCache(id); got != want {
			t.Errorf("id %d: the assembly's tree finds %p, the Go tree %p", id, got, want)
		}
	}
	if asmTreeCache(1<<40) != nil {
		t.Error("id 1<<40: the assembly's tree finds a cache")
	}
}

// TestAsmCacheModel checks the assembly's pop and pushFreed against
// pcache's Go methods: the same random operations on two caches, one
// through each, leave the two equal after every step, with equal results.
// Pushed handles are either arbitrary or the next handle of the slot just
// popped, so that both of pushFreed's branches are taken, and the cache
// fills and empties.
func TestAsmCacheModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(rt *rapid.T) {
		asm, model := new(pcache), new(pcache)
		start := rapid.Uint().Draw(rt, "start") // top and bottom run free
		asm.top, asm.bottom, model.top, model.bottom = start, start, start, start
		for step := range rapid.IntRange(1, 3*cacheSize).Draw(rt, "steps") {
			switch op := rapid.IntRange(0, 3).Draw(rt, "op"); op {
			case 0:
				if got, want := asmPopFrom(asm), model.pop(); got != want {
					rt.Fatalf("step %d: asm pop %#x, Go pop %#x", step, got, want)
				}
			default:
				h := Handle(rapid.Uint64().Draw(rt, "h"))
				if op == 1 {
					h = model.sl[model.top%cacheSize] + tagOne
				}
				if got, want := asmPushFreedTo(asm, h), model.pushFreed(h); got != want {
					rt.Fatalf("step %d: asm pushFreed(%#x) %v, Go %v", step, h, got, want)
				}
			}
			if *asm != *model {
				rt.Fatalf("step %d: the caches differ (asm top %d bottom %d, Go top %d bottom %d)",
					step, asm.top, asm.bottom, model.top, model.bottom)
			}
		}
	})
}

// TestLayoutHoldsRefusesWrongOffsets checks that layoutHolds says no, and
// does not crash, when an offset is wrong: one that reads another pointer
// of the same structure, one that reads a word that is the same on every
// M, one that reads a small number (and faults at a low address), and one
// that reads far past the structure. The right layout holds.
func TestLayoutHoldsRefusesWrongOffsets(t *testing.T) {
	// The id is not checked here: after initialization m0 is an M like any
	// other, and a test's goroutine may run on it (TestAsmMid checks ids).
	if _, ok := layoutHolds(go126Layout); !ok {
		t.Fatal("go1.26's layout does not hold")
	}
	for name, l := range map[string]runtimeLayout{
		"g.m at g.goid":          {152, runtimeMCurg, runtimeMID},
		"m.curg one word off":    {runtimeGM, runtimeMCurg + 8, runtimeMID},
		"m.id at m.g0":           {runtimeGM, runtimeMCurg, 0},
		"m.id at m.curg":         {runtimeGM, runtimeMCurg, runtimeMCurg},
		"m.id at m.mallocing":    {runtimeGM, runtimeMCurg, runtimeMID + 8},
		"m.id past the M by 1TB": {runtimeGM, runtimeMCurg, 1 << 40},
	} {
		if _, ok := layoutHolds(l); ok {
			t.Errorf("%s: layoutHolds accepts %+v", name, l)
		}
	}
}

// TestDropInModelPinned runs TestDropInModel's model on the pinned fast
// paths, the ones other builds use, so that both stay checked here.
func TestDropInModelPinned(t *testing.T) {
	defer pinnedFastPaths()()
	TestDropInModel(t)
}
