// Package rootbench runs the rootbench command line with cells and handles
// of your own beside the built-in ones (ocaml, boxroot, cgo-handle, ...).
//
// A program of five lines gets every command (run, compare, ab, bisect,
// report, list, callback, version) on its own cell:
//
//	package main
//
//	import (
//		"example.com/mytable"
//		"github.com/rootbench/rootbench"
//	)
//
//	func main() {
//		rootbench.Main(rootbench.WithCell("mytable", "a mutex and a slice with a free list", mytable.New))
//	}
//
// `go run . run --cell mytable,boxroot,cgo-handle` then measures it in the
// usual way: every measured run is a worker process re-executing this
// program, which registers the same cells before it runs. Check the cell
// first with the conformance kit, cell/celltest.Run.
//
// WithCell and WithHandle register through impls.Register and
// impls.RegisterHandle, the same functions the built-in catalog uses.
package rootbench

import (
	"fmt"
	"os"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/cli"
)

// RootHandle is a drop-in handle API with runtime/cgo.Handle's shape, as the
// callback workload uses it (see WithHandle). Every method must be safe for
// concurrent use.
type RootHandle = impls.RootHandle

// Option adds something to the command line Main runs.
type Option struct {
	register func() error
}

// WithCell adds a cell: name selects it (`run --cell name`), description is
// the line `rootbench list` shows, and newImpl makes a fresh implementation
// for every measured pass. The cell joins the default set. A name taken by a
// registered cell (built-in names and aliases included, case-insensitively)
// or reserved ("all", "none") makes Main print one line naming its holder
// and exit 2.
func WithCell[C any](name, description string, newImpl func() cell.Impl[C]) Option {
	return Option{register: func() error { return impls.Register(name, description, newImpl) }}
}

// WithHandle adds a handle kind for the callback workload (`callback
// --handle name`): every call carries a handle of h that the Go side
// resolves. Name it after your cell to pair the two. A taken or reserved
// name makes Main print one line naming its holder and exit 2.
func WithHandle(name, description string, h RootHandle) Option {
	return Option{register: func() error { return impls.RegisterHandle(name, description, h) }}
}

// Main registers the options' cells and handles, then runs the rootbench
// command line with os.Args and exits with one of the statuses of package
// exitstatus. It returns only when the command succeeded.
func Main(opts ...Option) {
	for _, o := range opts {
		if o.register == nil {
			continue
		}
		if err := o.register(); err != nil {
			fmt.Fprintf(os.Stderr, "rootbench: %v\n", err)
			os.Exit(exitstatus.Usage)
		}
	}
	cli.Main()
}
