package boxroot

import (
	"math/bits"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"unsafe"
)

const (
	// poolLog is log2 of a pool's capacity.
	poolLog = 10
	// poolSize is the number of slots in a pool.
	poolSize = 1 << poolLog
	// slotMask extracts a slot index from a handle.
	slotMask = poolSize - 1
	// endOfList terminates a free list: it is no slot index.
	endOfList = poolSize

	// dirLog is log2 of the directory's length, which bounds the pools of
	// one Impl. Directory index 0 is never used, so the zero Handle names
	// no pool: 2^16-1 pools of 1024 slots, 2^26-1024 handles live at once.
	dirLog = 16
	// maxPools is the directory's length.
	maxPools = 1 << dirLog
	// dirMask extracts a directory index from a handle shifted right by
	// poolLog.
	dirMask = maxPools - 1
	// MaxHandles is the most handles one allocator (an Impl, or the
	// drop-in API) holds live at once: 2^26 - 1024.
	MaxHandles = (maxPools - 1) * poolSize

	// indexBits is the width of a handle's index part (directory index
	// and slot index); the bits above it are the generation tag.
	indexBits = dirLog + poolLog
	// indexMask extracts a handle's index part.
	indexMask = 1<<indexBits - 1
	// TagBits is the width of a handle's generation tag: 38 bits where
	// uintptr has 64, 6 where it has 32.
	TagBits = bits.UintSize - indexBits
	// tagOne is one step of the generation tag.
	tagOne = Handle(1) << indexBits

	// reuseMin is the number of free slots (local plus delayed) that makes
	// an owned pool worth switching to: below it a domain would come back to
	// the slow path too soon. The drop-in API's stripes use it likewise.
	reuseMin = poolSize / 16
	// scanLimit bounds how many ring pools a domain inspects per slow path.
	scanLimit = 4
	// orphanScan bounds the orphans looked at by one acquire or Close.
	orphanScan = 8
	// maxEmpty bounds the wholly free pools an Impl keeps for reuse; beyond
	// it they are released to the garbage collector.
	maxEmpty = 8
	// trimMin is the shortest period, in pool switches, of a domain's
	// sweep for idle wholly free pools.
	trimMin = 64
	// idleFactor sets how long a wholly free pool must stay unused before
	// its domain hands it back: idleFactor times the domain's capacity
	// (pools owned times poolSize) in creates. Long, so that a workload
	// whose demand swings (a consumer now close behind, now far behind)
	// keeps its pools instead of releasing and reallocating them.
	idleFactor = 16
	// noReuseFlushEvery is the period, in pool switches, of the no-reuse
	// variant's sweep that takes delayed lists back (the analogue of OCaml
	// boxroot flushing delayed lists when the GC scans the pools).
	noReuseFlushEvery = 32
)

// freeMark is what a free slot holds: a pointer to marks[n] says "free; the
// next free slot of this list is n" (n == endOfList ends the list). A
// pointer into a global array is stored in an interface without allocating,
// and no user value can have the unexported type *freeMark, so a slot is free
// exactly when it holds a *freeMark. n is the pointer's offset in marks
// (the elements are one byte), so following a link is a subtraction, not
// one more load on the free list's chain of dependent loads.
type freeMark byte

var marks [poolSize + 1]freeMark

// link is the content of a free slot whose successor in its list is next.
func link(next int32) any { return &marks[next] }

// linkNext is the successor that a free mark names.
func linkNext(m *freeMark) int32 {
	return int32(uintptr(unsafe.Pointer(m)) - uintptr(unsafe.Pointer(&marks)))
}

// slot is one cell of a pool: the rooted value (or a free mark) and the
// slot's current handle, generation tag included.
//
// Invariant: while the slot is live, h is the handle its creator returned,
// and only that handle's holder changes it; Delete advances h's tag by one
// (h + tagOne) before the slot goes back on any free list. So a free slot's
// h is the handle its next create will return, a handle nobody holds yet,
// and a stale handle (deleted, its slot since reused or not) differs from
// h in its tag until the tag wraps around after 2^TagBits reuses of the
// slot. Checking h == handle is the whole validity check: it also rejects
// a free slot, whatever its v.
//
// The h word makes a slot 24 bytes rather than 16. In message passing,
// every slot moves between the cores, so the extra word costs there, while
// the check itself costs nothing: the message-passing workload measures it
// (BenchmarkMsgPass's boxroot case, or `rootbench run --cell boxroot`).
type slot struct {
	v any
	h Handle
}

// Delayed-list word: the head slot index in the low 32 bits, the chain
// length in the high 32 bits. The empty list is head endOfList, length 0.
const (
	emptyDelayed = uint64(endOfList)
	headMask     = 1<<32 - 1
)

func unpackDelayed(w uint64) (head, n int32) { return int32(w & headMask), int32(w >> 32) }

// pool is a fixed array of slots, owned by at most one domain at a time.
//
// The slots hold ordinary interface values in a heap object, so the
// garbage collector scans them: a value stored in a slot is rooted. A slot
// holds either a live value or a free mark (see freeMark), and its handle
// (see slot).
//
// The header comes first and the slots last, so that the header fields a
// create/delete loop writes are not a multiple of 4 KiB away from the
// first slots, the ones such a loop keeps reusing (4K aliasing in the
// processor's store forwarding).
type pool struct {
	// Read-mostly fields, on a cache line of their own: every Get and
	// Delete reads them, from any domain.

	// base is the handle of slot 0; idx the directory index. Immutable.
	base Handle
	idx  int32
	// released is set (under Impl.mu) when the pool leaves the directory
	// for good; domains' lookup caches check it.
	released atomic.Bool
	// owner is the owning domain, nil while orphaned or empty. It goes
	// from nil to d only under Impl.mu (acquire, adoption) and from d to
	// nil only by d itself (Close, trim): so "owner == d" read by d stays
	// true while d works, which is what makes d's local delete safe.
	owner atomic.Pointer[Domain]

	_ [64 - 8 - 4 - 4 - 8]byte

	// Owner-only fields, written on every create: read and written only by
	// the pool's owner, i.e. the domain d with owner == d, or, while owner
	// is nil (an orphan, or a pool in the Impl's empty list), whoever holds
	// Impl.mu. Ownership changes hands only under Impl.mu, which orders
	// these accesses.
	// local is the local free list. While the pool is a domain's current
	// pool, its length is off by the creates since the domain's last
	// settle.
	local freeList
	// Ring links in the owning domain's ring of non-current pools.
	next, prev *pool
	// lastUsed is the owning domain's create count when the pool last
	// became its current pool.
	lastUsed int64

	_ [64 - unsafe.Sizeof(freeList{}) - 8 - 8 - 8]byte

	// delayed is the chain of slots freed by other domains, pushed with CAS
	// (a batch at a time) and taken back whole by the owner with one Swap.
	// Invariants: every slot on the chain holds a free mark linking to the
	// next one; the chain's length is the high half of the word.
	delayed atomic.Uint64
	// mu serialises remote frees in the locked-remote variant only.
	mu sync.Mutex

	_ [64 - 8 - 8]byte

	slots [poolSize]slot
}

// noPool is a domain's current pool while it has none (see Domain.cur):
// its local free list is empty and no slot matches a handle (slot i's h
// names slot i+1, modulo poolSize, while a handle h is compared with slot
// h&slotMask), so both fast paths fail on it. It is shared by every
// domain and never written.
var noPool = func() *pool {
	p := &pool{local: freeList{head: &marks[endOfList]}}
	for i := range p.slots {
		p.slots[i] = slot{link(endOfList), Handle(i+1) & slotMask}
	}
	return p
}()

// freeList is a list of free slots of one pool, threaded through them:
// head is the link to its first slot, as a free slot holds it
// (&marks[endOfList]: the list is empty), n its length. The head is kept
// as the link rather than its index so that a create and a delete in turn
// pass it from memory to memory without arithmetic.
type freeList struct {
	head *freeMark
	n    int32
}

// empty reports whether the list is empty.
func (l *freeList) empty() bool { return l.head == &marks[endOfList] }

// newPool returns a pool with every slot on its local free list. Its
// slots' tags start from one random value, so that a handle of an earlier
// pool at the same directory index, or of another allocator, matches a
// slot's tag only by a chance of 2^-TagBits.
func newPool(idx int32) *pool {
	p := &pool{idx: idx, base: Handle(uintptr(idx) << poolLog)}
	tag := Handle(rand.Uint64()) * tagOne
	for i := range p.slots {
		p.slots[i].h = tag | p.base | Handle(i)
	}
	p.reset()
	return p
}

// reset puts every slot on the local free list; the slots keep their tags.
// The pool must be wholly free (no live slot, no slot in anyone's pending
// chain or cache) and owned by the caller.
func (p *pool) reset() {
	for i := range p.slots {
		p.slots[i].v = link(int32(i + 1))
	}
	p.local = freeList{&marks[0], poolSize}
	p.delayed.Store(emptyDelayed)
}

// delayedLen is the length of the delayed list, as of now. Racy by nature
// (others may push meanwhile) but never more than the true length later.
func (p *pool) delayedLen() int32 {
	_, n := unpackDelayed(p.delayed.Load())
	return n
}

// whollyFree reports whether every slot is free: on the local free list or
// the delayed list. Called by the owner. Once true it stays true until the
// owner creates, since nobody else can free a slot that is already free.
func (p *pool) whollyFree() bool { return p.local.n+p.delayedLen() == poolSize }

// takeDelayed makes the delayed list the local free list. Called by the
// owner, only when the local free list is empty: so the chain becomes the
// free list as it is, without being walked.
func (p *pool) takeDelayed(locked bool) {
	var w uint64
	if locked {
		p.mu.Lock()
		w = p.delayed.Swap(emptyDelayed)
		p.mu.Unlock()
	} else {
		// The Swap pairs with the deleters' CAS: it sees every chain
		// published before it, and the slot writes each deleter made
		// before its CAS.
		w = p.delayed.Swap(emptyDelayed)
	}
	head, n := unpackDelayed(w)
	p.local = freeList{&marks[head], n}
}

// push publishes a chain of n freed slots, head ... tail, onto the delayed
// list. The chain is private to the caller until the CAS succeeds: every
// slot on it holds a free mark linking to the next, and tail is rewritten
// here to link to the list's current head.
func (p *pool) push(tail *any, head, n int32) {
	add := uint64(n) << 32
	for {
		old := p.delayed.Load()
		*tail = link(int32(old & headMask))
		// Push-only CAS against an owner that takes the whole list with
		// Swap: no ABA hazard, since success only requires the head to be
		// the one the tail now links to, whatever happened in between.
		// The CAS publishes the slot writes above to the owner's Swap.
		// After it the chain belongs to the owner: p must not be touched
		// again (it may even be reused or released).
		if p.delayed.CompareAndSwap(old, ((old&^headMask)+add)|uint64(head)) {
			return
		}
	}
}

// room is the number of free slots the owner may count on: the local free
// list, plus the delayed list unless the no-reuse variant forbids taking it
// back on demand.
func (p *pool) room(noReuse bool) int32 {
	if noReuse {
		return p.local.n
	}
	return p.local.n + p.delayedLen()
}
