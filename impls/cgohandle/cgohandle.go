//go:build cgo

package cgohandle

import (
	"runtime/cgo"

	"github.com/rootbench/rootbench/cell"
)

// Available reports whether this build can run the cell (it needs cgo).
const Available = true

// Unavailable says why this build cannot run the cell: empty, it can.
const Unavailable = ""

// New returns the cgo-handle implementation. Its cells are cgo.Handle.
func New() cell.Impl[cgo.Handle] { return impl{} }

type impl struct{}

func (impl) NewDomain() cell.Domain[cgo.Handle] { return domain{} }

// domain holds no state: runtime/cgo keeps every handle in one global map.
type domain struct{}

func (domain) Create(v any) cgo.Handle { return cgo.NewHandle(v) }

func (domain) Get(h cgo.Handle) any {
	if h == 0 {
		panic("cgo-handle: Get of the zero handle")
	}
	return h.Value() // panics "runtime/cgo: misuse of an invalid Handle" after Delete
}

func (domain) Delete(h cgo.Handle) {
	if h == 0 {
		panic("cgo-handle: Delete of the zero handle")
	}
	h.Delete() // panics "runtime/cgo: misuse of an invalid Handle" the second time
}

func (domain) Close() {}
