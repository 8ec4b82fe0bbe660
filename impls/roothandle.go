package impls

import (
	"fmt"
	"strings"
)

// RootHandle is a drop-in handle API, the shape of runtime/cgo.Handle with
// uintptr tokens: what the callback workload carries through C and resolves
// on every call (callback.RootHandle has the same methods, so a RootHandle
// is one). Every method must be safe for concurrent use; Value is on the
// measured path.
type RootHandle interface {
	// New roots v and returns its handle (never 0).
	New(v any) uintptr
	// Value returns the value h roots.
	Value(h uintptr) any
	// Delete unroots h; h is not used afterwards.
	Delete(h uintptr)
}

// Handle is one registered handle kind of the callback workload
// (`rootbench callback --handle NAME`).
type Handle struct {
	// Name is the handle's name; a handle that is a cell's drop-in API is
	// named after the cell (cgo-handle, boxroot-handle).
	Name string
	// Description is one line saying what a handle is.
	Description string
	// Builtin marks the handles of this repository.
	Builtin bool
	// Root is the implementation.
	Root RootHandle
}

// kind names the handle for collision messages.
func (h Handle) kind() string {
	if h.Builtin {
		return "the built-in handle"
	}
	return "handle"
}

// RegisterHandle adds a handle kind for the callback workload: name then
// selects h in `rootbench callback --handle NAME` (and in ab and the
// worker). A handle named after a cell is that cell's drop-in API, and
// answers to the cell's aliases too (--handle cgo is cgo-handle).
//
// Names are matched case-insensitively. A name held by another handle, by a
// cell's alias, or one of the reserved words "all" and "none" is refused
// with an error of one line naming its holder, as is a name Register would
// refuse for its characters or a nil h. Safe for concurrent use.
func RegisterHandle(name, description string, h RootHandle) error {
	if !validName(name) {
		return fmt.Errorf("cannot register handle %q: %s", name, nameRule)
	}
	if err := checkDescription("handle", name, description); err != nil {
		return err
	}
	if h == nil {
		return fmt.Errorf("cannot register handle %q: the RootHandle is nil", name)
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if holder := reg.holder(name, false, true); holder != "" {
		return fmt.Errorf("cannot register handle %q: the name is taken by %s", name, holder)
	}
	reg.handles = append(reg.handles, Handle{Name: name, Description: description, Builtin: reg.builtin, Root: h})
	return nil
}

// Handles returns every registered handle kind, in registration order.
func Handles() []Handle {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	return append([]Handle(nil), reg.handles...)
}

// HandleNames returns the registered handles' names, in registration order.
func HandleNames() []string {
	var names []string
	for _, h := range Handles() {
		names = append(names, h.Name)
	}
	return names
}

// RootHandleFor returns the registered handle called name
// (case-insensitively), or the one named after the cell that name is an
// alias of (cgo for cgo-handle). The error lists the registered handles.
func RootHandleFor(name string) (RootHandle, error) {
	find := func(n string) (RootHandle, bool) {
		for _, h := range Handles() {
			if key(h.Name) == key(n) {
				return h.Root, true
			}
		}
		return nil, false
	}
	if h, ok := find(name); ok {
		return h, nil
	}
	e, err := lookup(name)
	if err == nil {
		if h, ok := find(e.Name); ok {
			return h, nil
		}
		err = fmt.Errorf("cell %s has no drop-in handle API", e.Name)
	} else {
		err = fmt.Errorf("unknown handle")
	}
	return nil, fmt.Errorf("root handle %q: %w (accepted: %s)", name, err, strings.Join(HandleNames(), ", "))
}
