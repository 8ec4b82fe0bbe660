// Package bxboxed is boxroot with one extra heap allocation per cell, the
// Go counterpart of OCaml boxroot's bx-boxed benchmark variant: Create
// allocates a small box holding the value and roots the box through
// boxroot; Get reads the value back through the box.
//
// It measures what a heap allocation per cell costs on top of boxroot's own
// work (allocation, and the garbage collector's marking and sweeping of the
// boxes). Its panics for invalid handles name "bxboxed".
package bxboxed

import (
	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/impls/boxroot"
)

// box is the per-cell heap allocation.
type box struct{ v any }

// New returns a bx-boxed implementation: its cells are boxroot handles
// rooting a fresh box each. It implements cell.Stater and cell.Liver.
func New() cell.Impl[boxroot.Handle] {
	return &impl{inner: boxroot.New(boxroot.Options{Name: "bxboxed"})}
}

type impl struct{ inner *boxroot.Impl }

func (m *impl) NewDomain() cell.Domain[boxroot.Handle] {
	return domain{m.inner.NewDomain()}
}

// Live implements cell.Liver.
func (m *impl) Live() int64 { return m.inner.Live() }

// Stats implements cell.Stater.
func (m *impl) Stats() map[string]int64 { return m.inner.Stats() }

type domain struct{ inner cell.Domain[boxroot.Handle] }

func (d domain) Create(v any) boxroot.Handle { return d.inner.Create(&box{v}) }

func (d domain) Get(h boxroot.Handle) any { return d.inner.Get(h).(*box).v }

func (d domain) Delete(h boxroot.Handle) { d.inner.Delete(h) }

func (d domain) Close() { d.inner.Close() }
