//go:build !race

package boxroot

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestCacheFastPathsGenerated checks that cache_norace.go and
// cache_asm_linux_amd64.s are what gen_cache.go writes: a hand edit of one
// of their leaves, which could give two Ps one cache, fails here.
func TestCacheFastPathsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	dir := t.TempDir()
	goFile, asmFile := filepath.Join(dir, "cache.go"), filepath.Join(dir, "cache.s")
	if out, err := exec.Command("go", "run", "gen_cache.go", "-o", goFile, "-asm", asmFile).CombinedOutput(); err != nil {
		t.Fatalf("go run gen_cache.go: %v\n%s", err, out)
	}
	for _, f := range []struct{ have, want string }{
		{"cache_norace.go", goFile},
		{"cache_asm_linux_amd64.s", asmFile},
	} {
		got, err := os.ReadFile(f.have)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(f.want)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is not what gen_cache.go writes: run go generate ./impls/boxroot", f.have)
		}
	}
}

// TestFastPathsUseTheirCache checks that NewHandle and Delete, and the
// cell's Create and Delete, use the cache of the M (assembly fast paths)
// or P (pinned ones) they run on, the one pinID names, through the tree's
// leaves and its default path: it runs them pinned (procPin nests), with
// more Ps than the tree has leaves, and checks that each create took the
// top of that cache and each delete put the slot back there.
// gen_cache.go writes every leaf from one template, so the leaves the test
// reaches stand for the others (TestCacheTree checks the tree's every
// leaf), and TestCacheFastPathsGenerated keeps the file to the template.
func TestFastPathsUseTheirCache(t *testing.T) {
	seen := onManyPs(20, func() func() (int, bool) {
		hd := HandleImpl().NewDomain()
		return func() (int, bool) {
			// Make sure the cache has a handle and room (the slow
			// paths may not run pinned); then check, pinned.
			NewHandle(nil).Delete()
			id := pinID()
			if id >= maxCaches {
				procUnpin()
				return -1, true
			}
			c := &caches[id]
			if c.len() == 0 || c.len() == cacheSize {
				procUnpin()
				return -1, true
			}
			top := c.sl[(c.top-1)%cacheSize]
			h := NewHandle(nil)
			took := h == top
			h.Delete()
			back := c.sl[(c.top-1)%cacheSize] == h+tagOne
			// The cell's methods, the same fast paths again.
			top2 := c.sl[(c.top-1)%cacheSize]
			h2 := hd.Create(nil)
			took2 := h2 == top2
			hd.Delete(h2)
			back2 := c.sl[(c.top-1)%cacheSize] == h2+tagOne
			procUnpin()
			if !took || !back || !took2 || !back2 {
				t.Errorf("cache %d: NewHandle took %#x (its cache's top: %#x), Delete put back %v; the cell's Create took %#x (top %#x), Delete put back %v",
					id, h, top, back, h2, top2, back2)
				return id, false
			}
			return id, true
		}
	})
	above := 0
	for id := range seen {
		if id >= directCaches {
			above++
		}
	}
	t.Logf("checked %d caches (%d beyond the tree's leaves) with %d Ps", len(seen), above, directCaches+8)
}

// onManyPs raises GOMAXPROCS beyond the fast paths' tree's leaves and runs
// many goroutines at once, each making a check with newCheck and calling
// it rounds times, yielding the P between calls, so that the checks run on
// every P. A check returns the P id it checked on (-1 if it skipped) and
// whether to go on. onManyPs returns the Ps checked on.
func onManyPs(rounds int, newCheck func() func() (id int, goOn bool)) map[int]bool {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(directCaches + 8))
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for range 8 * (directCaches + 8) {
		wg.Go(func() {
			check := newCheck()
			for range rounds {
				id, goOn := check()
				if !goOn {
					return
				}
				if id >= 0 {
					mu.Lock()
					seen[id] = true
					mu.Unlock()
				}
				runtime.Gosched()
			}
		})
	}
	wg.Wait()
	return seen
}

// TestCacheTree checks every leaf of the fast paths' tree, and its default
// path: P id i gets caches[i], a P beyond maxCaches none. It checks them
// in treeCache, and that NewHandle and Delete (and the cell's Create and
// Delete) have treeCache's tree, word for word (indentation aside).
func TestCacheTree(t *testing.T) {
	src, err := os.ReadFile("cache_norace.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, found := strings.Cut(string(src), "func treeCache(")
	start := strings.Index(body, "\tif id < ")
	end := strings.Index(body, "\treturn c\n")
	if !found || start < 0 || end < start {
		t.Fatal("cache_norace.go: no tree in treeCache")
	}
	// The fast paths' trees sit one block deeper than treeCache's.
	unindent := func(s string) string {
		lines := strings.Split(s, "\n")
		for i := range lines {
			lines[i] = strings.TrimLeft(lines[i], "\t")
		}
		return strings.Join(lines, "\n")
	}
	if n := strings.Count(unindent(string(src)), unindent(body[start:end])); n != 5 {
		t.Errorf("cache_norace.go has treeCache's tree %d times, want 5 (treeCache, NewHandle, Delete and the cell's Create and Delete)", n)
	}

	for id := range uint(maxCaches + 2) {
		want := (*pcache)(nil)
		if id < maxCaches {
			want = &caches[id]
		}
		if got := treeCache(id); got != want {
			t.Errorf("P %d: the tree finds another cache (%p, want %p)", id, got, want)
		}
	}
}
