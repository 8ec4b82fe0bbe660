// Package cgohandle implements the `cgo-handle` cell: runtime/cgo.Handle,
// the standard library's root handle, the incumbent every other cell is
// compared with.
//
// A cell is a cgo.Handle, an integer C code may hold: Create is
// cgo.NewHandle(v), Get is h.Value(), Delete is h.Delete(). The standard
// library keeps the handles in one process-wide concurrent map and never
// reuses a handle number, so domains hold no state.
//
// Invalid use: the zero handle panics with a message starting with
// "cgo-handle: " (one comparison, free). A double delete and use after
// delete also panic, but with runtime/cgo's own message, "runtime/cgo:
// misuse of an invalid Handle": renaming that panic needs a deferred
// recover on every Get and Delete, a cost on every call of the cell that
// is the baseline (BenchmarkGetRenamingDefer against BenchmarkGet measures
// it). The conformance test (impls' TestConformance) declares only the
// zero handle; this package's TestMisuse checks the other two panics.
//
// The package needs cgo; built with CGO_ENABLED=0 it only exports
// Available (false) and Unavailable, the reason.
package cgohandle
