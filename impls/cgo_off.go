//go:build !cgo

package impls

import "github.com/rootbench/rootbench/impls/cgohandle"

// registerCgoHandle registers the cgo-handle cell as unavailable, so that
// it is listed and its name says why it cannot run; there is no handle.
func registerCgoHandle() {
	must(register(Entry{
		Name:        "cgo-handle",
		Aliases:     []string{"cgo"},
		Description: "runtime/cgo.Handle, the standard library's root handle",
		Unavailable: cgohandle.Unavailable,
	}))
}
