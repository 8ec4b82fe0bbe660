// Package cell defines the contract every root-handle implementation in
// rootbench satisfies.
//
// A root handle keeps a Go value alive and reachable behind a small copyable
// token C: the value itself, a pointer to a heap box, or an integer handle that
// C code may hold. An Impl hands out Domains; a Domain is one worker's context
// (OCaml's domain) and is used by one goroutine at a time. Any domain may Get
// or Delete any cell: a delete by a domain other than the creator is "remote".
//
// Invalid use (the zero handle, a double delete, use after delete) panics with
// a message that starts with the implementation's name, as runtime/cgo.Handle
// does. The conformance kit in cell/celltest checks all of this.
package cell

// Impl is one root-handle implementation; C is its cell representation.
// An Impl is safe for concurrent use.
type Impl[C any] interface {
	// NewDomain returns a fresh domain, to be used by one goroutine at a time.
	NewDomain() Domain[C]
}

// Domain is one worker's context. Its methods are called by one goroutine at
// a time; cells it creates may be read and deleted by any other domain.
type Domain[C any] interface {
	// Create roots v until Delete and returns its cell.
	Create(v any) C
	// Get returns the value rooted by c. Any domain may call it.
	Get(c C) any
	// Delete releases c. Any domain may delete any cell.
	Delete(c C)
	// Close publishes any pending remote work; the domain is not used afterwards.
	Close()
}

// Stater is implemented by implementations (or their domains) that report
// internal counters: pools, peak pools, remote frees, flushes, slow paths...
type Stater interface {
	Stats() map[string]int64
}

// Liver is implemented by implementations that count live cells (created and
// not yet deleted), for leak checks. The count is exact once every domain
// has been closed.
type Liver interface {
	Live() int64
}
