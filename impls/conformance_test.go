package impls_test

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/bxboxed"
	"github.com/rootbench/rootbench/impls/generational"
	"github.com/rootbench/rootbench/impls/ocaml"
	"github.com/rootbench/rootbench/impls/ref"
)

// conformanceCase is one built-in cell under cell/celltest's conformance
// suite: run calls celltest.Run with the cell's constructor and the misuse
// the cell declares it detects.
type conformanceCase struct {
	name string
	run  func(t *testing.T)
}

func conformanceOf[C any](name string, newImpl func() cell.Impl[C], opts ...celltest.Option) conformanceCase {
	return conformanceCase{name, func(t *testing.T) { celltest.Run(t, name, newImpl, opts...) }}
}

// conformanceCases lists the built-in cells but boxroot's, whose own
// TestConformance (impls/boxroot) runs boxroot, its variants and
// boxroot-handle; conformance_cgo_test.go adds cgo-handle.
var conformanceCases = []conformanceCase{
	// The control: the cell is the value itself, so no invalid use is
	// detectable.
	conformanceOf("ocaml", ocaml.New),
	conformanceOf("ref", ref.New, celltest.Detects(celltest.AllMisuse)),
	conformanceOf("generational", generational.New, celltest.Detects(celltest.AllMisuse)),
	conformanceOf("bxboxed", bxboxed.New, celltest.Detects(celltest.AllMisuse)),
}

// TestConformance runs the conformance suite on every cell of
// conformanceCases, each in a subtest named for the cell.
func TestConformance(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t)
		})
	}
}
