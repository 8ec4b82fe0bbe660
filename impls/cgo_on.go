//go:build cgo

package impls

import (
	"runtime/cgo"

	"github.com/rootbench/rootbench/impls/cgohandle"
)

func cgoHandleEntry() Entry {
	e := bind("cgo-handle", []string{"cgo"},
		"runtime/cgo.Handle, the standard library's root handle", cgohandle.New)
	e.rootHandle = cgoHandle{}
	return e
}

// cgoHandle is runtime/cgo.Handle as a RootHandle.
type cgoHandle struct{}

func (cgoHandle) New(v any) uintptr   { return uintptr(cgo.NewHandle(v)) }
func (cgoHandle) Value(h uintptr) any { return cgo.Handle(h).Value() }
func (cgoHandle) Delete(h uintptr)    { cgo.Handle(h).Delete() }
