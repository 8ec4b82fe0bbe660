// Package boxroot is a root-handle allocator for Go, modelled on OCaml's
// boxroot library: it keeps Go values alive behind small integer handles
// that C code may hold, in place of runtime/cgo.Handle.
//
// It has two APIs over the same pools:
//
//   - domains (New, Impl.NewLocalDomain or Impl.NewDomain): each worker
//     goroutine owns a Domain and creates and deletes in it without atomic
//     operations; any domain may read or delete any handle (a delete by
//     another domain is batched back to the owner);
//   - the drop-in API (NewHandle, Handle.Value, Handle.Delete), shaped like
//     runtime/cgo.Handle, with no domain to thread through: any goroutine
//     may create, read and delete.
//
// # Handles and pools
//
// A pool is a heap object of 1024 slots; a slot holds an interface value
// (the rooted value, or a free mark) and the slot's current handle. The
// garbage collector scans pools like any other object: that is what roots
// a value. Every pool of an allocator is in its directory, a flat array of
// 2^16 atomic pool pointers (index 0 never used), so Get takes no lock:
// the directory load, the slot load and a compare.
//
// A Handle is a uintptr: bits 0-9 the slot, bits 10-25 the pool's
// directory index, and the bits above (TagBits: 38 where uintptr has 64
// bits, 6 where it has 32) the slot's generation tag. The zero Handle is
// never valid.
//
// # Guarantees
//
// Stale handles. A slot keeps its current handle, tag included. Delete
// advances the tag by one before the slot can be reused, so a deleted
// handle no longer matches its slot, and Get, Value and Delete of it
// panic with "<name>: invalid or deleted handle (0x...)" even after the
// slot holds a new value. The tag wraps after 2^TagBits reuses of one
// slot: a stale handle goes unnoticed only if its slot was reused a
// multiple of 2^38 times since (on 64-bit platforms; 2^6 on 32-bit ones),
// a chance of 2^-38 for a stale handle used at an arbitrary later time.
//
// Other allocators' handles. A new pool's tags start at a random value, so
// a handle of another allocator (another Impl, or the drop-in API), or of
// a released pool whose directory index was reused, matches a live slot
// only by a chance of 2^-TagBits, and panics otherwise. This costs nothing
// per operation.
//
// Capacity. One allocator holds at most MaxHandles = 2^26 - 1024 handles
// (65535 pools of 1024). A create beyond that panics with an error
// wrapping ErrFull ("boxroot: out of handle space: all 65535 pools of 1024
// slots (67107840 handles) are in use; ..."), with no lock held and the
// allocator consistent: once handles are deleted, creates succeed again.
// In the domain API a domain's free slots serve that domain (and, once it
// closes, any domain); in the drop-in API the free slots cached by other
// threads (at most 1024 per cache) are out of the creating goroutine's
// reach.
//
// Memory. Pools follow the peak of live handles. A domain takes a new pool
// only when its own have no room; wholly free pools go back to the
// allocator, which keeps 8 and releases the rest to the garbage collector.
// The drop-in API allocates a pool only when its depot has no free slot,
// so its pools number at most (live + cached) / 1024, rounded up, where
// cached is at most 1024 per cache in use: one per M (OS thread) that ran
// drop-in code where the fast paths run in assembly, one per P where they
// pin (a slot counts as live from the pop in NewHandle to the push in
// Delete). An idle thread's cache keeps its slots until the thread runs
// drop-in code again, and that of a thread that exited (a goroutine ended
// while locked to it) keeps them for good; ids from 1024 on have no
// cache. A pool whose every slot is back
// on its free list is kept for reuse; beyond 8 such pools, those unused
// for sixteen times the allocator's capacity in handle traffic are
// released (so a workload whose live handles swing between zero and a
// peak keeps its pools). TestDropInChurn
// checks this under goroutine churn: 150 waves of 64 goroutines stay
// within 1.25 times the pools that the peak of live handles needs, plus
// one per cache in use, and once everything is deleted no pool is kept
// but the empty ones and those holding a cached slot.
//
// # Domains
//
// A Domain owns pools: a current pool that Create pops from, and a ring of
// the others. Create pops the current pool's local free list; Delete of a
// handle of a pool the domain owns pushes onto it: no atomics, no locks.
// The free lists are threaded through the free slots: a free slot holds a
// pointer to marks[n], meaning "free, the next free slot is n", and no
// user value has that unexported type.
//
// A delete by a domain that does not own the pool is remote: the deleter
// links the slot into a private chain for that pool and publishes the
// whole chain with one CAS onto the pool's delayed list when it deletes
// from another pool or closes. The owner takes the delayed list back with
// one Swap when its local list is empty (reuse in place). While a chain is
// open, Delete's fast path extends it inline.
//
// When its current pool is full, a domain reuses it in place if others
// freed at least 64 of its slots; else it retires it and takes a pool
// with room among the few retired last and the few oldest; else an
// orphan, a kept empty pool, or a new pool. Every few dozen pool switches
// it hands back the wholly free pools it has not used for sixteen times
// its capacity in creates. At Close it publishes its chain and gives up
// its pools: wholly free ones are recycled, the others become orphans,
// adopted by domains that need room and recycled once wholly free. Once
// every handle is deleted and every domain closed, every pool is released
// or kept empty for reuse.
//
// # The drop-in API
//
// Free slots live in two tiers, as in a memory allocator's per-CPU caches:
// caches of up to 1024 free slots, kept as the handles their next creates
// return (a double-ended queue whose top is used as a stack, so that a
// goroutine that creates and deletes in turn reuses warm slots), and a
// depot under one mutex: magazines (batches of 512 handles passed on whole
// from the cache that gave them back to the next that takes one, without
// touching the slots) and the pools' local free lists. NewHandle finds
// its cache while no other goroutine can use it, pops a handle from it,
// and writes the value into the handle's slot. On linux/amd64 with Go
// 1.26 the cache is the M's (the OS thread's), and the middle is one
// assembly call, which the runtime cannot preempt (assembly is never an
// asynchronous safe point), so the goroutine cannot leave its M, nor the M
// run another goroutine, until it returns; it reads the M's id from the
// goroutine's M (g.m.id), and its offsets into the runtime's structures
// are checked against the running program at start
// (cache_asm_linux_amd64.go). Elsewhere, under -race, with the purego
// build tag, or if the check fails, the cache is the P's, and NewHandle
// pins the goroutine to its P (runtime.procPin and procUnpin, as sync.Pool
// does: two calls into the runtime, which the compiler cannot inline).
// Either way it finds the cache through a tree of compares on the id (a
// constant address per leaf, so that the processor loads the cache on
// predicted branches instead of waiting for the id). Delete checks the
// handle's tag, writes the free mark, advances the tag, and pushes the
// slot's next handle onto its own cache the same way: on top if this cache
// handed the slot out last, else at the bottom, so that two caches do not
// come to reuse two slots of one cache line (false sharing) after
// goroutines moved between threads: each cache's top stays among its own
// slots. Neither takes a lock or an atomic read-modify-write. An empty
// cache takes 512 slots from the depot, a full one gives its bottom 512
// back, copied between the cache and the depot under the depot's mutex
// while pinned (the slow paths always pin, and a pinned goroutine stays on
// its M as well as its P); the depot allocates a pool only when it has no
// free slot.
// Under the race detector each cache is guarded by a mutex instead of the
// pin (cache_race.go), so that the detector sees the ordering the pin
// provides.
//
// # The invariants the atomics rely on
//
// Ownership: a pool's owner field goes from nil to d only under the Impl's
// mutex, and from d to nil only by d itself: so when d reads owner == d,
// d owns the pool for the rest of its operation and uses its owner-only
// fields (local list, counts) without atomics; while owner is nil they
// belong to the mutex holder.
//
// Publication: a slot on a pending chain is private to its deleter until
// the chain's CAS onto the delayed list (a release) succeeds; the owner's
// Swap (an acquire) sees the slot writes. The push is a CAS of a push-only
// stack against a taker that takes the whole stack, so there is no ABA
// hazard. After the CAS the deleter must not touch the pool again.
//
// Counting: a delayed list's length only grows between Swaps, and a wholly
// free pool stays wholly free until its owner creates, so the owner checks
// counts without a lock. A pool is recycled only when wholly free, so no
// pending chain, cached slot or live handle points into a released pool.
//
// Tags: only the holder of a slot's live handle writes the slot's handle
// field (at Delete), and it does so before the slot reaches any free list;
// creators read it after taking the slot from a free list, ordered by the
// list's synchronisation (the owner's own list, the delayed list's
// CAS/Swap, the M's or P's exclusive use of its cache, or the depot's
// mutex).
//
// Drop-in caches: an M's cache is used only by a goroutine inside the
// assembly fast paths on that M or pinned on it, a P's only by a goroutine
// pinned to that P; in either state the goroutine stays on its M and P and
// no other goroutine runs on them until it ends, and successive users of
// an M or a P are ordered by the scheduler. A slot leaves the cache
// before its value is written, and Delete writes a slot before caching
// it.
//
// Reading: Get reads a slot with plain loads. The creator's write of the
// slot happens before the handle reached the reader; a Get racing with the
// Delete of the same handle is a use after free, which the race detector
// reports.
//
// # Costs
//
// Measured by
//
//	go test -run XXX -bench 'Handle|Local|Get|RemoteDelete' -count 5 ./impls/boxroot
//
// (cpu-ns/op is the thread's CPU time per operation, steadier than wall
// time on a shared machine). Create, Delete and Get inline into their
// callers (TestIntendedInlining checks it): a local create+delete is a
// free-list pop and push with no atomics, a Get is three loads and a
// compare, a remote delete is a link into a private chain, published with
// one CAS per chain. BenchmarkHandle compares the drop-in API with
// runtime/cgo.Handle (new, value, delete) on one goroutine and under
// b.RunParallel: cgo.Handle allocates twice per handle and shares one
// sync.Map, the drop-in API allocates nothing and shares nothing on its
// fast path. Where the fast paths pin (its boxroot-handle-pinned case
// shows them beside the assembly ones), their floor is the two pins
// (procPin and procUnpin, each a call and a read-modify-write of the M's
// lock count): BenchmarkCalibratePin
// measures them, beside BenchmarkCalibrateCAS, the two uncontended atomic
// operations (a CAS and an OR) that a bitmap-based table pays instead, and
// BenchmarkCalibrateCall, the same loop with empty calls in place of the
// pins, which reads alike: the pins cost their calls, which the compiler
// cannot inline (they are the runtime's, linked by name).
// BenchmarkHandleCrossThread runs the pattern the drop-in API exists for,
// handles created on one thread and deleted on another (the
// message-passing workload in process), beside the domain API: there every
// create and every delete finds its cache (with a pin, where the fast
// paths pin), and every cacheBatch of them visits the depot; the domain
// API pays neither. Its unpinned-floor case
// is the drop-in caches and depot with the pins taken out (a private cache
// per worker), its pinned-floor case the same with the pins put back: the
// drop-in API if finding its cache were free. Its dropin-indexed case is
// the pinned drop-in API with its cache at &caches[id], where every load
// of the cache waits for the id (the M's or the P's): what the tree
// saves. Its
// domain-pins-floor case is the domain API with the drop-in API's pins
// around each create and delete: the least any drop-in design that pins
// per operation can cost, since the domain API is the reference.
//
// # Ablations
//
// Variants lists four experiments, each changing one thing, registered as
// cells boxroot:<name>: force-remote (every delete takes the remote path,
// OCaml boxroot's BXR_FORCE_REMOTE), no-reuse (a full pool is never
// refilled in place from its delayed list; a sweep every 32 pool switches
// takes the delayed lists back, as OCaml boxroot does when the GC scans
// its pools), eager-remote (one CAS per remote delete) and locked-remote
// (every remote delete takes the pool's mutex).
//
// # Stats
//
// Impl.Stats reports pools_allocated, peak_pools, pools_released, pools
// (in the directory now), pools_empty (kept for reuse), pools_orphaned,
// orphans_adopted, live, creates, local_deletes, remote_deletes,
// delayed_flushes (delayed lists taken back), remote_publishes (chains
// pushed), slow_creates and domains_open; domains publish their counters
// on slow paths, so the figures are exact once every domain is closed.
// StdStats reports the drop-in API's pools, peak_pools, pools_allocated,
// pools_released, pools_empty, refills and flushes (batches its caches
// took from and gave back to the depot) and magazines (batches the depot
// holds whole).
//
// # When to choose boxroot over runtime/cgo.Handle
//
// Choose boxroot when handles are created and deleted often (per call,
// per message), from several goroutines, or when allocation and GC work
// matter: no allocation per handle, no shared state on the fast path.
// Choose domains when each worker can own one: no atomics at all on its
// own handles. Keep cgo.Handle when handles are few and long-lived, or
// when a stale handle must always be caught: boxroot catches one but for
// a 2^-38 chance (64-bit), cgo.Handle never reuses an id.
package boxroot
