//go:build cgo

package cgohandle_test

import (
	"fmt"
	"runtime/cgo"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/cgohandle"
)

// TestMisuse: the misuses not declared to the conformance kit (impls'
// TestConformance declares only the zero handle) still panic, with
// runtime/cgo's own message.
func TestMisuse(t *testing.T) {
	t.Parallel()
	panicMsg := func(f func()) (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		f()
		return "<no panic>"
	}
	d := cgohandle.New().NewDomain()
	const want = "runtime/cgo: misuse of an invalid Handle"
	c := d.Create(1)
	d.Delete(c)
	if got := panicMsg(func() { d.Get(c) }); !strings.Contains(got, want) {
		t.Errorf("Get after Delete: panic %q, want one containing %q", got, want)
	}
	if got := panicMsg(func() { d.Delete(c) }); !strings.Contains(got, want) {
		t.Errorf("double Delete: panic %q, want one containing %q", got, want)
	}
	if got := panicMsg(func() { d.Delete(0) }); !strings.Contains(got, "cgo-handle") {
		t.Errorf("Delete of the zero handle: panic %q, want one naming cgo-handle", got)
	}
}

// BenchmarkCreateGetDelete is one cell's whole life in one domain.
func BenchmarkCreateGetDelete(b *testing.B) { celltest.BenchCreateGetDelete(b, cgohandle.New()) }

// BenchmarkBatch creates 1024 cells, then gets and deletes them.
func BenchmarkBatch(b *testing.B) { celltest.BenchBatch(b, cgohandle.New()) }

// getter is the shape of a domain's Get, called through an interface as the
// workload does.
type getter interface{ Get(cgo.Handle) any }

// renaming is the rejected design: a deferred recover that renames
// runtime/cgo's misuse panic.
type renaming struct{}

func (renaming) Get(h cgo.Handle) any {
	defer func() {
		if r := recover(); r != nil {
			panic(fmt.Sprintf("cgo-handle: %v", r))
		}
	}()
	return h.Value()
}

var sink any

func benchGet(b *testing.B, g getter) {
	hs := make([]cgo.Handle, 1024)
	for i := range hs {
		hs[i] = cgo.NewHandle(i)
	}
	i := 0
	for b.Loop() {
		sink = g.Get(hs[i&1023])
		i++
	}
	for _, h := range hs {
		h.Delete()
	}
}

// BenchmarkGet is the cell's Get (zero check, then h.Value()).
func BenchmarkGet(b *testing.B) {
	benchGet(b, cgohandle.New().NewDomain())
}

// BenchmarkGetRenamingDefer is Get with a deferred recover that renames the
// misuse panic: compare with BenchmarkGet.
func BenchmarkGetRenamingDefer(b *testing.B) {
	benchGet(b, renaming{})
}
