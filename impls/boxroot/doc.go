// Package boxroot is a root-handle allocator for Go, modelled on OCaml's
// boxroot library: it keeps Go values alive behind small integer handles
// that C code may hold, faster than runtime/cgo.Handle.
//
// # Handles and pools
//
// A Handle is a uintptr made of a pool index (from 1) and a slot index,
// so that 0 is never valid. A pool is a heap object holding a fixed array
// of 1024 slots of type any: the garbage collector scans it like any other
// object, and that is what roots a value. A free slot holds a free mark, a
// pointer of an unexported type into a global byte table: pointing at
// entry n means "free, and the next free slot of this list is n", and n is
// the pointer's offset in the table, so following a link costs a
// subtraction, not a load. So the domains' free lists are threaded through
// the slots themselves (a list's head is such a link too), and Get or
// Delete of a deleted handle finds a free
// mark and panics with "boxroot: invalid or deleted handle" instead of
// returning garbage (a slot reused by a later Create cannot be told apart,
// as with any non-generational handle).
//
// A pool's header (the fields every domain reads, the owner's fields, the
// delayed list, the drop-in API's bitmap, each group on its own cache
// lines) comes before its slots: after them, 16 KiB further on, the header
// would alias the first slots in the processor's store forwarding (4K
// aliasing), which a create/delete loop on one slot measurably paid.
//
// The pool directory is one flat array of 2^16 atomic pool pointers in the
// Impl (512 KiB, mostly nil; 2^26 handles live at once at most). Pools are
// stored fully built and an entry is cleared before its index is reused, so
// Get takes no lock: one atomic load (a plain load on amd64 and arm64) for
// the pool, the slot read and the free-mark check. Measured, the flat
// array beats the former two-level table (a fixed array of chunk
// pointers, then the chunk's pool pointer) by one dependent load per Get.
// Handles into released pools find a nil entry, or a pool whose slots
// are free marks, and panic.
//
// # Domains
//
// A Domain (a cell.Domain; Impl.NewLocalDomain returns the concrete
// *Domain, Impl.NewDomain the same behind the interface) is one worker's
// context and owns pools: a current
// pool that Create pops from, and a ring of the other pools it owns, in the
// order they were retired. Create pops the current pool's local free list
// and Delete of a handle in a pool the domain owns pushes onto it: no
// atomics, no locks. A domain without a current pool points at noPool, a
// shared pool whose list is empty and whose slots are all free, so the
// fast paths need no nil check. Delete's fast path frees a live slot of
// one pool, delPool, onto one list, delList, without reading the
// directory: the current pool and its list (local mode), or the pool and
// the chain of the remote deletes under way (remote mode, see below). The
// other deletes look up through a one-pool cache (a consumer takes
// handles from one pool after another). Get always reads the directory,
// inlined: measured, that beats testing the current pool first.
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
// CAS onto the pool's delayed free list when it deletes from another pool
// or at Close; the bound on a chain is its pool's 1024 slots. While a
// chain is open, Delete's fast path is in remote mode: the next deletes
// into that pool extend the chain inline, without a call (3.4 ns against
// 4.8 through the slow path). The delayed list is one
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
// deleter must not touch the pool again (it may be reused or released):
// so publish takes Delete's fast path out of remote mode before the CAS.
//
// Counting: the length in the delayed word only grows between Swaps, and a
// wholly free pool stays wholly free until its owner creates (nobody can
// free a free slot), so checks of the count by the owner are safe without a
// lock. A pool is recycled only when wholly free, so no pending chain can
// point into a released pool, nor can delPool be one in remote mode.
//
// Lookup cache: a domain trusts the pool it found last for a handle in its
// range only while the pool's released flag (an atomic, set under the
// mutex before the directory entry is cleared and the index can be reused)
// reads false. A pool with a live handle is never released, so a valid
// handle always finds its own pool; an invalid one finds free marks.
//
// Drop-in bitmap: a slot whose bit is clear belongs to the goroutine that
// cleared it (NewHandle's successful CAS) and then to the handle's holder,
// until Delete sets the bit. Delete writes the slot's free mark before its
// OR (a release); the next claimer's CAS (an acquire) observes the bit, so
// its write of the new value is ordered after the free mark, and the race
// detector sees it so. A stale CAS (the word changed since its load)
// fails and reloads. A stripe's current pool is replaced only under the
// stripe's mutex and published with an atomic Store after the pool's
// bitmap is set, so NewHandle's Load sees a finished pool. Drop-in pools are never released, so a pool loaded from a stripe
// or the directory stays valid.
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
// OCaml boxroot's BXR_FORCE_REMOTE; Delete's fast path stays in remote
// mode or off), no-reuse (a full pool is never
// refilled in place from its delayed list; a sweep every 32 pool switches
// takes the delayed lists back, as OCaml boxroot does when the GC scans its
// pools), eager-remote (one CAS per remote delete, no batching, so no
// remote mode) and locked-remote (every remote delete takes the pool's
// mutex, no remote mode either).
//
// # The drop-in API
//
// NewHandle, Handle.Value and Handle.Delete have the shape of
// runtime/cgo.Handle and need no domain. They use an allocator of their
// own over the same pools and directory: an array of stripes (a power of
// two, at least 64 and 32*GOMAXPROCS at start-up, two cache lines each),
// each a set of pools and a current pool. A drop-in pool keeps its free slots in
// a bitmap of 16 words instead of a free list. NewHandle hashes the address
// of a local variable (the calling goroutine's stack, so a goroutine keeps
// coming back to the same stripe and goroutines mostly use different ones),
// loads that stripe's current pool, and claims the lowest set bit of the
// first non-zero word with one CAS; Delete writes the slot's free mark and
// sets its bit with one atomic OR. So a handle's life costs two atomic
// read-modify-writes and no lock, against three for the former design
// (a try-lock's CAS and Store around a shard domain's Create, then a CAS
// to push the slot; a Store is an XCHG on amd64), and a lock-free free
// list would cost three too (its link must be written with an atomic
// Store, since a stale popper may read it). A bitmap word has no ABA
// problem: a CAS that succeeds clears a bit that is set, whatever happened
// in between. When the current pool has no free bit, refill (under the
// stripe's mutex, rare) looks at up to 8 of the stripe's pools, resuming
// where it stopped, for one with at least 64 free slots, and allocates a
// pool only if none has: so the pools looked at are at least 15/16 full
// when the stripe grows. Drop-in pools are never released (a pool's
// emptiness is not known without a count, which would cost an atomic per
// operation): the drop-in API's memory is its peak of live handles,
// in pools. Value is Impl.Get, inlined. HandleImpl exposes the API as cell
// "boxroot-handle".
//
// # Inlining and measured costs
//
// Impl.Get, Domain.Get, Handle.Value, Domain.Create and Domain.Delete all
// inline (go build -gcflags=-m; TestIntendedInlining checks it). Get is a
// directory load, a slot load and the free-mark check, with the panic
// built inline (a panic is nearly free to the inliner, a call is not).
// Create and Delete each keep a fast path (pop the current pool's local
// free list; push a live slot of it back) and call a slow path for the
// rest. Go's inliner charges 57 of its budget of 80 for a call to a
// function that does not inline, which would leave some 20 nodes for the
// fast path, but only 17 for a call through a function parameter. So the
// fast paths are written as create and delete, which take their slow path
// as a parameter, and Create and Delete pass it as a constant: create
// inlines into Create, Create into its caller, and the slow path is called
// through a func value (an indirect call, only on the slow path). More
// cuts fit them in the budget: the current pool is never nil (noPool);
// ForceRemote keeps delPool off the current pool rather than being tested
// on every Delete; Create does not update the list's length but counts in
// the domain (settle subtracts at the slow path); and Delete's free-mark
// check reads the interface's type word (markedFree) instead of a type
// assertion, which costs the inliner 9 nodes more. Create ends up at 80
// (the budget), Delete at 78.
//
// Inlined, a create and a delete of the same slot in turn are bound by
// store forwarding: each loads what the other just stored (the list
// head, the slot's link), at about 7 cycles a trip on this machine. The
// head was an index, which cost an address computation on each trip;
// it is now the link itself (a pointer to a free mark), passed from
// memory to memory without arithmetic. That took the pair from 5.3 to
// 4.4 ns; the remote mode's list pointer and length count then cost it
// 0.3-0.4 ns, which remote deletes repay several times over. The price
// is a pointer store (and its write-barrier check) where an index store
// was: in message passing, index heads measured up to 3% faster in some
// builds and no faster in others, within what code layout alone moves.
// A second local list for the owner's deletes (mimalloc's local_free),
// which breaks the create/delete chain, measured 4.9 ns for the pair and
// was not kept. Computing a free list's next index from the free mark's
// address, one load fewer per create, made no measurable difference on
// its own; moving the pool's header before the slots (see above) did.
// Benchmarks that loop with b.Loop keep the calls in the loop from being
// inlined (Get included), so the concrete benchmarks loop to b.N.
//
// Figures on the 2-core development machine (shared and noisy): CPU time
// per op, the range and the median of 5 runs of one side-by-side
// go test -run XXX -bench 'Local|Get|RemoteDelete|Floor|Handle|Calibrate|Concrete' -benchmem -count 5 ./impls/boxroot
// (remote delete is also given in wall time, which excludes the untimed
// creates' share of the thread's CPU):
//
//	concrete API (*Domain, *Impl)            range          median   target
//	local create+delete, 0 allocs            4.83-4.89 ns   4.86     5
//	Get (4096 handles, 4 pools), Impl        1.80-1.83 ns   1.82     2
//	Get, Domain                              1.80-1.85 ns   1.83
//	remote delete, amortised                 3.39-3.41 ns   3.40     6
//	  (wall)                                 2.85-2.88 ns   2.86
//	create + remote delete (one goroutine)   7.47-7.53 ns   7.50
//	floor: the Get loop over a []any         0.90-0.90 ns   0.90
//	floor: 2 out-of-line direct calls        4.19-4.23 ns   4.20 (create+delete with trivial bodies)
//
//	through cell.Domain (dynamic dispatch)   range          median
//	local create+delete                      5.18-5.24 ns   5.19
//	Get                                      2.40-2.44 ns   2.42
//	remote delete, amortised                 3.72-3.82 ns   3.73
//	  (wall)                                 3.19-3.26 ns   3.20
//	floor: 2 interface calls, create+delete  4.93-4.98 ns   4.94
//	floor: interface get                     2.58-2.60 ns   2.58
//
//	NewHandle+Value+Delete                   1 goroutine            b.RunParallel (CPU, all threads; wall)
//	boxroot-handle (stripes, bitmaps)        15.45-15.54, med 15.48 15.37-15.52, med 15.38; 7.71 wall
//	runtime/cgo.Handle                       155.3-157.4, med 155.3 287.9-297.3, med 290.8; 174.6 wall
//	ratio of medians                         10.0x (10.2x wall)     18.9x; 22.6x wall
//	calibration: load+CAS 6.61-6.63 ns, sync.Pool Get+Put 12.56-12.72 ns
//
// Every target holds in every run, local create+delete with the least
// room: the day before, the same command measured it at 4.71-4.78 ns with
// its floor (two out-of-line calls with trivial bodies) at 4.49-4.53, and
// run alone with its floor it measured 4.84-5.00 ns; the floor moving
// against it says that part of the difference is code placement and the
// machine, not the code. Through cell.Domain it sits 5% above the floor
// of two interface calls (whose bodies still update a counter and a
// slot). Before Create and Delete inlined it
// was 6.97-7.14 ns, and remote deletes 4.93-6.98 (through the slow path,
// before remote mode). Remote deletes first got under 6 ns when a delete
// into the pool of the pending chain stopped going through the lookup
// cache: such a pool cannot be released (the chain's slots are in neither
// of its free counts), so no check of the released flag is needed.
// Keeping two local free lists (mimalloc's free and local_free, so that
// creates and deletes do not chain through one head) was tried before the
// inlining and made no measurable difference: a create still chased the
// list through memory (a forwarded load of the head, then a load of the
// slot), about as long a chain as the one it removed.
//
// The drop-in API is about 10x cgo.Handle on one goroutine (10.0x by
// medians of CPU time here, 10.2x in wall time, 10.2x and 10.8x in earlier
// runs; cgo.Handle's own cost swings by a third between runs, so single
// runs range from 8x to 12x) and about 20x in parallel. Its two atomic read-modify-writes cost about 6.6 ns
// each here, which leaves about 2 ns for the rest: 10x is near what two
// atomics allow, and a thread-agnostic API needs both (a stripe is
// shared by whichever goroutines hash to it). The former design (shard domains behind a try-lock,
// three atomics per handle) measured 30.5-32.2 ns on one goroutine (6x),
// and the one before it (a sync.Pool of domains) 54.6-59.0 ns.
//
// The stripe hash first used the stack address in 1 KiB units over 8
// stripes, then in 4 KiB units over 64: either way the two goroutines of
// b.RunParallel, whose fresh 2 KiB stacks sit side by side, often shared
// a stripe and contended on its bitmap, at 110-135 ns per handle instead
// of 9. 2 KiB units keep goroutines running at once apart, and 64 or more
// stripes make the remaining collisions rare.
//
// # Stats
//
// Impl.Stats reports pools_allocated, peak_pools, pools_released, pools
// (in the directory now), pools_empty (kept for reuse), pools_orphaned,
// orphans_adopted, live, creates, local_deletes, remote_deletes,
// delayed_flushes (delayed lists taken back), remote_publishes (chains
// pushed), slow_creates (creates that took the slow path) and domains_open.
// Domains publish their counters on slow paths, so the figures lag while
// domains run and are exact once every domain is closed. StdStats, for the
// drop-in API, reports pools and refills (stripes' pool switches); the
// boxroot-handle cell adds its own exact creates, deletes and live.
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
// through, at the price of two atomic operations per handle.
// Keep cgo.Handle when handles are few and long-lived, or when detecting
// every use of a stale handle matters more than speed: boxroot reuses
// slots, so a stale handle may name a newer value.
package boxroot
