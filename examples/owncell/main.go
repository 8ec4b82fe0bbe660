// Command owncell is rootbench with one more cell, mytable:
// `go run . run --cell mytable,boxroot,cgo-handle`.
package main

import (
	"example.com/owncell/mytable"
	"github.com/rootbench/rootbench"
)

func main() {
	rootbench.Main(rootbench.WithCell("mytable", "a handle table: one mutex, a slice of slots and a free list", mytable.New))
}
