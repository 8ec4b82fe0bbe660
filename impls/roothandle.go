package impls

import (
	"fmt"
	"strings"

	"github.com/rootbench/rootbench/impls/boxroot"
)

// RootHandle is a cell implementation's drop-in handle API, the shape of
// runtime/cgo.Handle with uintptr tokens: what the callback workload carries
// through C and resolves on every call (callback.RootHandle has the same
// methods, so a RootHandle is one). Safe for concurrent use.
type RootHandle interface {
	New(v any) uintptr
	Value(h uintptr) any
	Delete(h uintptr)
}

// RootHandleFor returns the drop-in handle API of the named cell (a name or
// alias, as Lookup takes it): boxroot-handle, and cgo-handle in a cgo build.
// The error lists the cells that have one.
func RootHandleFor(name string) (RootHandle, error) {
	e, err := lookup(name)
	if err == nil && e.rootHandle == nil {
		err = fmt.Errorf("cell %s has no drop-in handle API", e.Name)
	}
	if err != nil {
		var have []string
		for _, e := range All() {
			if e.rootHandle != nil {
				have = append(have, e.Name)
			}
		}
		return nil, fmt.Errorf("root handle %q: %w (accepted: %s)", name, err, strings.Join(have, ", "))
	}
	return e.rootHandle, nil
}

// boxrootHandle is boxroot's drop-in API (boxroot.NewHandle) as a
// RootHandle.
type boxrootHandle struct{}

func (boxrootHandle) New(v any) uintptr   { return uintptr(boxroot.NewHandle(v)) }
func (boxrootHandle) Value(h uintptr) any { return boxroot.Handle(h).Value() }
func (boxrootHandle) Delete(h uintptr)    { boxroot.Handle(h).Delete() }
