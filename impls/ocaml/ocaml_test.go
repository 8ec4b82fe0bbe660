package ocaml_test

import (
	"testing"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
	"github.com/rootbench/rootbench/impls/ocaml"
)

func TestNoBookkeeping(t *testing.T) {
	t.Parallel()
	impl := ocaml.New()
	if _, ok := impl.(cell.Liver); ok {
		t.Error("the control implements cell.Liver; it must do no bookkeeping")
	}
	if _, ok := impl.(cell.Stater); ok {
		t.Error("the control implements cell.Stater; it must do no bookkeeping")
	}
}

// BenchmarkCreateGetDelete is one cell's whole life in one domain.
func BenchmarkCreateGetDelete(b *testing.B) { celltest.BenchCreateGetDelete(b, ocaml.New()) }

// BenchmarkBatch creates 1024 cells, then gets and deletes them.
func BenchmarkBatch(b *testing.B) { celltest.BenchBatch(b, ocaml.New()) }
