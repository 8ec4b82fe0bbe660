package boxroot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

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
	t.Parallel()
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
