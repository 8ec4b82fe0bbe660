// Package boxroot is a root-handle allocator for Go, modelled on OCaml's
// boxroot library: it keeps Go values alive behind small integer handles
// that C code may hold, faster than runtime/cgo.Handle.
//
// # Handles and pools
//
// A Handle is a uintptr made of a pool index and a slot index, plus one so
// that 0 is never valid. A pool is a heap object holding a fixed array of
// 1024 slots of type any: the garbage collector scans it like any other
// object, and that is what roots a value. A free slot holds a free mark, a
// pointer of an unexported type into a global table whose entry n means
// "free, and the next free slot of this list is n". So the free lists are
// threaded through the slots themselves (no side arrays), and Get or
// Delete of a deleted handle finds a free mark and panics with "boxroot:
// invalid or deleted handle" instead of returning garbage (a slot reused by
// a later Create cannot be told apart, as with any non-generational
// handle).
//
// The pool directory maps a pool index to its pool in two levels: a fixed
// array of chunk pointers in the Impl, each chunk a fixed array of pool
// pointers. Chunks are never replaced and pools are stored fully built, so
// the directory grows without blocking or moving, and Get takes no lock:
// two atomic loads (plain loads on amd64 and arm64) and the slot read.
// Pools that are released leave a nil entry, so handles into them panic;
// their indexes are reused.
//
// # Domains
//
// A domain (cell.Domain) is one worker's context and owns pools: a current
// pool that Create pops from, and a ring of the other pools it owns, in the
// order they were retired. Create pops the current pool's local free list
// and Delete of a handle in a pool the domain owns pushes onto it: no
// atomics, no locks. The common local cases (the handle is in the current
// pool) do not even read the directory, and other lookups go through a
// one-pool cache (a consumer takes handles from one pool after another).
// When the current pool is full, the slow path, in order: reuses it in
// place if other domains have freed enough of it (see below); else retires
// it to the ring and takes a pool with room among the few retired last and
// the few oldest (see Pool lifecycle); else an orphan with room, an empty
// pool kept by the Impl, or a freshly allocated pool.
//
// # Remote deletes
//
// A delete by a domain that does not own the pool is remote. The deleting
// domain links the slot into a private chain for that pool (the slot is
// live, so nobody else may touch it) and publishes the whole chain with one
// CAS onto the pool's delayed free list when it deletes from another pool,
// at Close, or when the chain reaches 256 slots. The delayed list is one
// 64-bit word: the head slot index and the chain length. The owner takes
// the whole list back with one atomic Swap when it needs room and its local
// list is empty, so the chain becomes the free list as is, without being
// walked: reuse in place, as OCaml boxroot's flush_delayed_fl. In a
// message-passing workload (one domain creates, another deletes) almost
// every pool switch is such a reuse and no pool is allocated after warm-up.
//
// # Pool lifecycle
//
// A pool whose every slot is free (local plus delayed count) is wholly
// free. Every few dozen pool switches (at least twice the pools it owns) a
// domain hands back the wholly free pools it has not used for a long while:
// sixteen times its capacity in creates, so that a workload whose demand
// swings (a consumer now close behind, now far behind) keeps its pools
// rather than releasing and reallocating them. When picking a pool, a
// domain first looks at the pools it retired last (a domain that frees its
// own handles keeps reusing a few warm pools, and the others go idle), then
// at its oldest (the likeliest to have been drained by other domains).
// The Impl keeps 8 wholly free pools for reuse and releases the rest to the
// garbage collector. At Close a domain publishes its pending chain and
// gives up its pools: wholly free ones are recycled, the others become
// orphans, which a domain needing room adopts, and which are recycled once
// wholly free (looked for at acquire and Close, a few at a time; all at
// the Close of the last open domain). So pools are never leaked: once
// every handle is deleted and every domain closed, every pool is released
// or kept empty for reuse.
//
// # The invariants the atomics rely on
//
// Ownership: a pool's owner field is set from nil to d only under the
// Impl's mutex (acquire, adoption), and from d to nil only by d itself (at
// Close, or when handing back a wholly free pool). So when d reads owner ==
// d, d stays the owner for the rest of its operation and may use the
// pool's owner-only fields (local free list, count) without atomics; while
// owner is nil those fields belong to the mutex holder. Changing hands
// under the mutex orders the accesses of successive owners.
//
// Publication: a slot on a pending chain is private to the deleting domain
// until its CAS onto the delayed list succeeds. The CAS (a release) and
// the owner's Swap (an acquire) order the deleter's writes of the free
// marks before the owner's reads of them. The push is a CAS of a push-only
// stack against a consumer that takes the whole stack with Swap, so it has
// no ABA hazard: success only requires the head to be the one the chain's
// tail now links to, whatever happened in between. After its CAS the
// deleter must not touch the pool again (it may be reused or released).
//
// Counting: the length in the delayed word only grows between Swaps, and a
// wholly free pool stays wholly free until its owner creates (nobody can
// free a free slot), so checks of the count by the owner are safe without a
// lock. A pool is recycled only when wholly free, so no pending chain can
// point into a released pool.
//
// Lookup cache: a domain trusts the pool it found last for a handle in its
// range only while the pool's released flag (an atomic, set under the
// mutex before the directory entry is cleared and the index can be reused)
// reads false. A pool with a live handle is never released, so a valid
// handle always finds its own pool; an invalid one finds free marks.
//
// Reading: Get reads a slot with a plain load. The creator's write of the
// slot happens before the handle reached the reader (through whatever
// channel or lock passed it), and nobody writes a live slot; a Get racing
// with the Delete of the same handle is a use after free, which the race
// detector reports.
//
// # Ablations
//
// Variants lists four experiments, each changing one thing, registered as
// cells boxroot:<name>: force-remote (every delete takes the remote path,
// OCaml boxroot's BXR_FORCE_REMOTE), no-reuse (a full pool is never
// refilled in place from its delayed list; a sweep every 32 pool switches
// takes the delayed lists back, as OCaml boxroot does when the GC scans its
// pools), eager-remote (one CAS per remote delete, no batching) and
// locked-remote (every remote delete takes the pool's mutex).
//
// # The drop-in API
//
// NewHandle, Handle.Value and Handle.Delete have the shape of
// runtime/cgo.Handle and need no domain: NewHandle borrows a domain from a
// sync.Pool (whose per-P caches make it usually the caller's last one),
// Value reads through the directory, and Delete pushes the slot onto its
// pool's delayed list with one CAS. A domain the sync.Pool drops is closed
// by a runtime cleanup, so its pools are orphaned and adopted, not leaked.
// HandleImpl exposes it as cell "boxroot-handle".
//
// # Stats
//
// Impl.Stats reports pools_allocated, peak_pools, pools_released, pools
// (in the directory now), pools_empty (kept for reuse), pools_orphaned,
// orphans_adopted, live, creates, local_deletes, remote_deletes,
// delayed_flushes (delayed lists taken back), remote_publishes (chains
// pushed), slow_creates (creates that took the slow path) and domains_open.
// Domains publish their counters on slow paths, so the figures lag while
// domains run and are exact once every domain is closed.
//
// # When to choose boxroot over runtime/cgo.Handle
//
// cgo.Handle is one global sync.Map plus an atomic counter: every
// NewHandle allocates, and every call contends on shared state; its
// handles are never reused, so a stale handle always panics. Choose
// boxroot when handles are created and deleted often (per call, per
// message), from several goroutines, or when allocation and GC work
// matter: a goroutine that owns a domain creates and deletes without
// atomics or allocation, and handles passed to other goroutines are freed
// in batches. Choose the drop-in API when you cannot thread a domain
// through, at the price of a sync.Pool round trip and a CAS per handle.
// Keep cgo.Handle when handles are few and long-lived, or when detecting
// every use of a stale handle matters more than speed: boxroot reuses
// slots, so a stale handle may name a newer value.
package boxroot
