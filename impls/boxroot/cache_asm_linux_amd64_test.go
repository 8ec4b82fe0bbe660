//go:build !race && !purego && go1.26 && !go1.27

package boxroot

import (
	"runtime"
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

// TestAsmPid checks that the assembly reads the id of the P the caller
// runs on, the one procPin reports, on every P of many.
func TestAsmPid(t *testing.T) {
	seen := onManyPs(200, func() func() (int, bool) {
		return func() (int, bool) {
			id := procPin()
			got := asmPid()
			procUnpin()
			if got != id {
				t.Errorf("asmPid() = %d on P %d", got, id)
				return id, false
			}
			return id, true
		}
	})
	if len(seen) < 2 {
		t.Errorf("ran on %d P(s) only", len(seen))
	}
	t.Logf("checked on %d of %d Ps", len(seen), directCaches+8)
}

// TestAsmTree checks every leaf of the assembly's tree, and its default
// path, against the Go fast paths' (treeCache, which TestCacheTree
// checks): P id i gets caches[i], a P beyond maxCaches none.
func TestAsmTree(t *testing.T) {
	for id := range uint(maxCaches + 2) {
		if got, want := asmTreeCache(id), treeCache(id); got != want {
			t.Errorf("P %d: the assembly's tree finds %p, the Go tree %p", id, got, want)
		}
	}
	if asmTreeCache(1<<40) != nil {
		t.Error("P 1<<40: the assembly's tree finds a cache")
	}
}

// TestAsmCacheModel checks the assembly's pop and pushFreed against
// pcache's Go methods: the same random operations on two caches, one
// through each, leave the two equal after every step, with equal results.
// Pushed handles are either arbitrary or the next handle of the slot just
// popped, so that both of pushFreed's branches are taken, and the cache
// fills and empties.
func TestAsmCacheModel(t *testing.T) {
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
// of the same structure, one that reads a small number (and faults at a
// low address), and one that reads far past the structure. (A wrong p.id
// offset that holds this P's id by chance passes layoutHolds: pinCache's
// check, TestAsmPidAgrees, is the one for it.)
func TestLayoutHoldsRefusesWrongOffsets(t *testing.T) {
	if !layoutHolds(go126Layout) {
		t.Fatal("go1.26's layout does not hold")
	}
	for name, l := range map[string]runtimeLayout{
		"m.p at m.g0":           {runtimeGM, runtimeMCurg, 0, runtimePID, runtimePM},
		"g.m at g.goid":         {152, runtimeMCurg, runtimeMP, runtimePID, runtimePM},
		"m.curg one word off":   {runtimeGM, runtimeMCurg + 8, runtimeMP, runtimePID, runtimePM},
		"p.m one word off":      {runtimeGM, runtimeMCurg, runtimeMP, runtimePID, runtimePM + 8},
		"p.id at p.m":           {runtimeGM, runtimeMCurg, runtimeMP, runtimePM, runtimePM},
		"m.p past the M by 1TB": {runtimeGM, runtimeMCurg, 1 << 40, runtimePID, runtimePM},
	} {
		if layoutHolds(l) {
			t.Errorf("%s: layoutHolds accepts %+v", name, l)
		}
	}
}

// TestAsmPidAgrees checks the slow paths' check of the P id (pinCache):
// it agrees with procPin's id, and not with another.
func TestAsmPidAgrees(t *testing.T) {
	id := procPin()
	same, other := asmPidAgrees(id), asmPidAgrees(id+1)
	procUnpin()
	if !same || other {
		t.Errorf("on P %d: asmPidAgrees(%d) = %v, asmPidAgrees(%d) = %v; want true, false", id, id, same, id+1, other)
	}
}

// TestDropInModelPinned runs TestDropInModel's model on the pinned fast
// paths, the ones other builds use, so that both stay checked here.
func TestDropInModelPinned(t *testing.T) {
	defer pinnedFastPaths()()
	TestDropInModel(t)
}
