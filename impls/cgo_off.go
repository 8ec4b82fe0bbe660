//go:build !cgo

package impls

import "github.com/rootbench/rootbench/impls/cgohandle"

func cgoHandleEntry() Entry {
	return Entry{
		Name:        "cgo-handle",
		Aliases:     []string{"cgo"},
		Description: "runtime/cgo.Handle, the standard library's root handle",
		Unavailable: cgohandle.Unavailable,
	}
}
