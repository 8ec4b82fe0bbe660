//go:build cgo

package impls

import (
	"runtime/cgo"

	"github.com/rootbench/rootbench/impls/cgohandle"
)

// registerCgoHandle registers runtime/cgo.Handle as a cell and as a handle.
func registerCgoHandle() {
	must(Register("cgo-handle", "runtime/cgo.Handle, the standard library's root handle", cgohandle.New, "cgo"))
	must(RegisterHandle("cgo-handle", "runtime/cgo.Handle, the standard library's root handle", cgoHandle{}))
}

// cgoHandle is runtime/cgo.Handle as a RootHandle.
type cgoHandle struct{}

func (cgoHandle) New(v any) uintptr   { return uintptr(cgo.NewHandle(v)) }
func (cgoHandle) Value(h uintptr) any { return cgo.Handle(h).Value() }
func (cgoHandle) Delete(h uintptr)    { cgo.Handle(h).Delete() }
