package mytable_test

import (
	"testing"

	"example.com/owncell/mytable"
	"github.com/rootbench/rootbench/cell/celltest"
)

// TestConformance runs rootbench's conformance kit: values stay rooted
// until Delete and are released after it, cross-domain deletes, a
// concurrent stress, random sequences against a model, the invalid uses the
// table detects, and an exact leak check through Live.
func TestConformance(t *testing.T) {
	celltest.Run(t, "mytable", mytable.New, celltest.Detects(celltest.AllMisuse))
}
