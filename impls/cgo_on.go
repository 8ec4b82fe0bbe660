//go:build cgo

package impls

import "github.com/rootbench/rootbench/impls/cgohandle"

func cgoHandleEntry() Entry {
	return bind("cgo-handle", []string{"cgo"},
		"runtime/cgo.Handle, the standard library's root handle", cgohandle.New)
}
