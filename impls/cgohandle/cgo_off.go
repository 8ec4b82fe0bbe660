//go:build !cgo

package cgohandle

// Available reports whether this build can run the cell (it needs cgo).
const Available = false

// Unavailable says why this build cannot run the cell.
const Unavailable = "cgo-handle needs cgo (built with CGO_ENABLED=0)"
