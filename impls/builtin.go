package impls

import (
	"fmt"

	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/boxroot"
	"github.com/rootbench/rootbench/impls/bxboxed"
	"github.com/rootbench/rootbench/impls/generational"
	"github.com/rootbench/rootbench/impls/ocaml"
	"github.com/rootbench/rootbench/impls/ref"
)

// The built-in cells and handles register when the package initialises,
// through Register, RegisterHandle and their common core register, in the
// order `rootbench list` shows them. A failure is a bug in this package:
// it panics.
func init() {
	reg.builtin = true
	defer func() { reg.builtin = false }()

	must(Register("ocaml", "control: the cell is the value itself, no rooting work", ocaml.New, "direct"))
	must(Register("boxroot",
		"Go boxroot: domain-owned pools of slots, integer handles, lock-free batched remote frees",
		func() cell.Impl[boxroot.Handle] { return boxroot.New(boxroot.Options{}) }))
	must(Register("ref", "a fresh heap box holding the value; delete clears it, the GC frees it", ref.New, "ocaml-ref"))
	must(Register("generational",
		"a heap box registered in one global registry under one mutex (OCaml's global roots)", generational.New))
	must(Register("bxboxed", "one extra heap allocation per cell (a box), the box rooted through boxroot",
		bxboxed.New, "bx-boxed", "boxroot-boxed"))
	registerCgoHandle()
	must(Register("boxroot-handle",
		"boxroot behind a drop-in runtime/cgo.Handle-shaped API (no explicit domains)", boxroot.HandleImpl))
	must(RegisterHandle("boxroot-handle", "boxroot.NewHandle, boxroot's drop-in runtime/cgo.Handle API", boxrootHandle{}))
	for _, v := range boxroot.Variants() {
		opts := v.Options
		e := bind("boxroot:"+v.Name, "ablation: "+v.Description,
			func() cell.Impl[boxroot.Handle] { return boxroot.New(opts) }, nil)
		e.Ablation = true
		must(register(e))
	}
	registerTestOnly()
}

func must(err error) {
	if err != nil {
		panic(fmt.Sprintf("impls: built-in catalog: %v", err))
	}
}

// boxrootHandle is boxroot's drop-in API (boxroot.NewHandle) as a
// RootHandle.
type boxrootHandle struct{}

func (boxrootHandle) New(v any) uintptr   { return uintptr(boxroot.NewHandle(v)) }
func (boxrootHandle) Value(h uintptr) any { return boxroot.Handle(h).Value() }
func (boxrootHandle) Delete(h uintptr)    { boxroot.Handle(h).Delete() }
