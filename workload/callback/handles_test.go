//go:build cgo

package callback

import (
	"context"
	"runtime/cgo"
	"strings"
	"sync"
	"testing"
)

// The workload's tests bring their own handle kinds: the workload knows only
// RootHandle, and the real implementations are tested where they live.

// cgoHandle is runtime/cgo.Handle as a RootHandle.
type cgoHandle struct{}

func (cgoHandle) New(v any) uintptr   { return uintptr(cgo.NewHandle(v)) }
func (cgoHandle) Value(h uintptr) any { return cgo.Handle(h).Value() }
func (cgoHandle) Delete(h uintptr)    { cgo.Handle(h).Delete() }

// tableHandle is a handle table under a mutex: handle i+1 is slot i.
type tableHandle struct {
	mu    sync.Mutex
	slots []any
}

func (t *tableHandle) New(v any) uintptr {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.slots = append(t.slots, v)
	return uintptr(len(t.slots))
}

func (t *tableHandle) Value(h uintptr) any {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.slots[h-1]
}

func (t *tableHandle) Delete(h uintptr) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slots[h-1] == nil {
		panic("tableHandle: double delete")
	}
	t.slots[h-1] = nil
}

// testHandles are the handle names the tests run: none, and two kinds
// testHandle makes.
var testHandles = []string{HandleNone, "cgo-handle", "table"}

// testHandle returns a RootHandle for the handle name: cgo.Handle for
// cgo-handle, a fresh table for table, nil for none.
func testHandle(name string) RootHandle {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "cgo-handle":
		return cgoHandle{}
	case "table":
		return &tableHandle{}
	}
	return nil
}

// wrongHandle roots nothing: every handle resolves to the same stray target.
type wrongHandle struct{}

func (wrongHandle) New(any) uintptr   { return 1 }
func (wrongHandle) Value(uintptr) any { return &target{add: Addend + 1} }
func (wrongHandle) Delete(uintptr)    {}

// TestRunResolvesThroughTheGivenHandle checks that every call goes through
// the RootHandle Run is given: one that resolves to the wrong object fails
// the sum check, for every variant, and a missing one is refused.
func TestRunResolvesThroughTheGivenHandle(t *testing.T) {
	for _, v := range Variants() {
		p := Params{Variant: v, Handle: "table", Threads: 2, Calls: 1_000}
		_, err := Run(context.Background(), p, wrongHandle{})
		if err == nil || !strings.Contains(err.Error(), "wrong sum") {
			t.Errorf("%s with a handle resolving to the wrong object: error %v, want a wrong sum", v, err)
		}
		_, err = Run(context.Background(), p, nil)
		if err == nil || !strings.Contains(err.Error(), "no implementation") {
			t.Errorf("%s with no handle implementation: error %v, want a refusal", v, err)
		}
	}
	tbl := &tableHandle{}
	p := Params{Variant: VariantPlain, Handle: "table", Threads: 3, Calls: 1_000}
	if _, err := Run(context.Background(), p, tbl); err != nil {
		t.Fatal(err)
	}
	for i, v := range tbl.slots {
		if v != nil {
			t.Errorf("handle %d is still rooted after the run", i+1)
		}
	}
	if len(tbl.slots) != 3 {
		t.Errorf("%d handles created, want one per thread (3)", len(tbl.slots))
	}
}
