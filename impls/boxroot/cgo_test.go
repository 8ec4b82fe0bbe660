//go:build cgo

package boxroot

import (
	"runtime/cgo"
	"testing"

	"github.com/rootbench/rootbench/cell"
)

func init() {
	handleAPIs = append(handleAPIs, handleAPI{
		name: "cgo-handle",
		loop: func(n int, v any) (bad int) {
			for range n {
				h := cgo.NewHandle(v)
				if h.Value() != v {
					bad++
				}
				h.Delete()
			}
			return bad
		},
		parallel: func(pb *testing.PB, v any) (bad int) {
			for pb.Next() {
				h := cgo.NewHandle(v)
				if h.Value() != v {
					bad++
				}
				h.Delete()
			}
			return bad
		},
	})
	mpCases = append(mpCases, mpCaseOf("cgo-handle", func() cell.Impl[cgo.Handle] { return cgoImpl{} }))
	crossCases = append(crossCases, crossCaseOf("cgo-handle", func() cell.Impl[cgo.Handle] { return cgoImpl{} }))
}

// cgoImpl is runtime/cgo.Handle as a cell.
type cgoImpl struct{}

func (cgoImpl) NewDomain() cell.Domain[cgo.Handle] { return cgoImpl{} }
func (cgoImpl) Create(v any) cgo.Handle            { return cgo.NewHandle(v) }
func (cgoImpl) Get(h cgo.Handle) any               { return h.Value() }
func (cgoImpl) Delete(h cgo.Handle)                { h.Delete() }
func (cgoImpl) Close()                             {}
