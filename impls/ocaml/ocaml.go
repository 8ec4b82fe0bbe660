// Package ocaml is the control implementation: a cell is the rooted value
// itself, held in an interface.
//
// It is the counterpart of the `ocaml` cell of OCaml's boxroot benchmark:
// no rooting work at all, so its time is the cost of the workload's own
// machinery (allocation, queues, synchronisation) that every other cell pays
// too. Delete does nothing and the garbage collector sees the value through
// whatever holds the cell. Misuse (a zero cell, double delete, use after
// delete) cannot be detected: there is nothing to check against. It keeps no
// counts, so it implements neither cell.Stater nor cell.Liver.
package ocaml

import "github.com/rootbench/rootbench/cell"

// New returns the control implementation. Its cells are the values
// themselves.
func New() cell.Impl[any] { return impl{} }

type impl struct{}

func (impl) NewDomain() cell.Domain[any] { return domain{} }

// domain is stateless; the zero-size value makes NewDomain allocation-free.
type domain struct{}

func (domain) Create(v any) any { return v }
func (domain) Get(c any) any    { return c }
func (domain) Delete(any)       {}
func (domain) Close()           {}
