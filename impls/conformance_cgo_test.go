//go:build cgo

package impls_test

import (
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/cgohandle"
)

func init() {
	// Double delete and use after delete panic with runtime/cgo's message,
	// which does not name the cell: see impls/cgohandle's package doc and
	// its TestMisuse.
	conformanceCases = append(conformanceCases,
		conformanceOf("cgo-handle", cgohandle.New, celltest.Detects(celltest.ZeroHandle)))
}
