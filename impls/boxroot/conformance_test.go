package boxroot

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
)

func TestConformance(t *testing.T) {
	celltest.Run(t, "boxroot", func() cell.Impl[Handle] { return New(Options{}) },
		celltest.Detects(celltest.AllMisuse))
	for _, v := range Variants() {
		opts := v.Options
		t.Run(v.Name, func(t *testing.T) {
			celltest.Run(t, "boxroot", func() cell.Impl[Handle] { return New(opts) },
				celltest.Detects(celltest.AllMisuse))
		})
	}
	t.Run("handle", func(t *testing.T) {
		celltest.Run(t, "boxroot", HandleImpl, celltest.Detects(celltest.AllMisuse))
	})
}
