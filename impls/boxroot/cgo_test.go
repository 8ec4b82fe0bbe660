//go:build cgo

package boxroot

import (
	"runtime/cgo"

	"github.com/rootbench/rootbench/cell"
)

func init() {
	handleAPIs = append(handleAPIs, handleAPI{
		name:   "cgo-handle",
		new:    func(v any) uintptr { return uintptr(cgo.NewHandle(v)) },
		value:  func(h uintptr) any { return cgo.Handle(h).Value() },
		delete: func(h uintptr) { cgo.Handle(h).Delete() },
	})
	mpCases = append(mpCases, mpCaseOf("cgo-handle", func() cell.Impl[cgo.Handle] { return cgoImpl{} }))
}

// cgoImpl is runtime/cgo.Handle as a cell.
type cgoImpl struct{}

func (cgoImpl) NewDomain() cell.Domain[cgo.Handle] { return cgoImpl{} }
func (cgoImpl) Create(v any) cgo.Handle            { return cgo.NewHandle(v) }
func (cgoImpl) Get(h cgo.Handle) any               { return h.Value() }
func (cgoImpl) Delete(h cgo.Handle)                { h.Delete() }
func (cgoImpl) Close()                             {}
