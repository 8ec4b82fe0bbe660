package boxroot

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// Handle is a boxroot cell: an integer naming a slot of a pool, which C code
// may hold. Its low 26 bits are the pool's directory index and the slot's
// index; the bits above are the slot's generation tag (TagBits wide). The
// zero Handle is never valid.
type Handle uintptr

// ErrFull is what a create at the capacity limit panics with (wrapped, so
// test a recovered value with errors.Is): every one of the allocator's
// 65535 pools is in use, MaxHandles handles. The panic leaves the
// allocator consistent and unlocked; once handles are deleted, creates
// succeed again.
var ErrFull = errors.New("out of handle space")

// fullError is the panic value at the capacity limit.
type fullError struct {
	name  string
	pools int
}

func (e fullError) Error() string {
	return fmt.Sprintf("%s: %v: all %d pools of %d slots (%d handles) are in use; delete handles to create more",
		e.name, ErrFull, e.pools, poolSize, e.pools*poolSize)
}

func (e fullError) Unwrap() error { return ErrFull }

// Options select one of boxroot's ablation experiments; the zero value is
// boxroot itself. Each field changes one thing.
type Options struct {
	// ForceRemote sends every delete down the remote path, even a delete
	// by the pool's owner (OCaml boxroot's BXR_FORCE_REMOTE).
	ForceRemote bool
	// NoReuse never refills a full pool in place from its delayed list
	// when a domain needs room; delayed lists are taken back only by a
	// periodic sweep, the analogue of OCaml boxroot flushing them when the
	// GC scans its pools (experiment 3 of OCaml boxroot's message-passing
	// merge request).
	NoReuse bool
	// EagerRemote publishes every remote delete at once with its own CAS,
	// instead of batching a chain per pool.
	EagerRemote bool
	// LockedRemote makes every remote delete take the pool's mutex
	// (experiment 2 of the same merge request). It takes precedence over
	// EagerRemote.
	LockedRemote bool
	// Name is the implementation's name in panic messages; "" means
	// "boxroot".
	Name string
}

// Variant is one ablation experiment, registered as cell "boxroot:<Name>".
type Variant struct {
	Name        string
	Description string
	Options     Options
}

// Variants returns boxroot's ablation experiments, each changing one thing.
func Variants() []Variant {
	return []Variant{
		{Name: "force-remote",
			Description: "every delete takes the remote path, even the owner's (OCaml's BXR_FORCE_REMOTE)",
			Options:     Options{ForceRemote: true}},
		{Name: "no-reuse",
			Description: "full pools are never refilled in place from their delayed list; a periodic sweep takes the lists back",
			Options:     Options{NoReuse: true}},
		{Name: "eager-remote",
			Description: "one CAS per remote delete, no batching",
			Options:     Options{EagerRemote: true}},
		{Name: "locked-remote",
			Description: "every remote delete takes the pool's mutex",
			Options:     Options{LockedRemote: true}},
	}
}

// Impl is a boxroot allocator: a directory of pools and the domains that
// own them. It implements cell.Impl[Handle], cell.Stater and cell.Liver, and
// is safe for concurrent use.
type Impl struct {
	// dir maps a pool index to its pool (nil: no pool). It is one flat
	// array, so that a lookup is one load (the handle's pool) before the
	// slot's: 512 KiB per Impl, mostly nil, for 2^26 handles. Readers
	// (Get, Delete) use atomic loads only; writers hold mu. It is the
	// first field, so that its entries are addressed from the Impl
	// pointer without an offset.
	dir [maxPools]atomic.Pointer[pool]

	opts Options
	name string
	// msg is the panic message for an invalid or deleted handle.
	msg string
	// trimMin, flushEvery and idleFactor tune the domains' sweeps (the
	// constants of the same names; tests shorten them to exercise them).
	trimMin, flushEvery, idleFactor int
	// poolLimit is one more than the highest directory index allocPool
	// may use: maxPools, lowered by tests of the capacity limit.
	poolLimit int32

	mu       sync.Mutex
	nextIdx  int32   // next never-used directory index
	freeIdx  []int32 // directory indexes of released pools
	empty    []*pool // wholly free pools kept for reuse (owner nil)
	orphans  []*pool // pools of closed domains (owner nil)
	domains  map[*Domain]struct{}
	pools    int64 // pools in the directory
	closed   counters
	allocs   int64 // pools allocated
	peak     int64
	released int64
	adopted  int64
}

// New returns a boxroot allocator with the given ablation options.
func New(opts Options) *Impl {
	im := new(Impl)
	im.init(opts)
	return im
}

// init sets up a zero Impl (New's, or the drop-in API's static one).
func (im *Impl) init(opts Options) {
	name := opts.Name
	if name == "" {
		name = "boxroot"
	}
	*im = Impl{
		opts:       opts,
		name:       name,
		msg:        name + ": invalid or deleted handle",
		trimMin:    trimMin,
		idleFactor: idleFactor,
		flushEvery: noReuseFlushEvery,
		domains:    map[*Domain]struct{}{},
		nextIdx:    1, // index 0 stays unused: the zero Handle is invalid
		poolLimit:  maxPools,
	}
}

// NewDomain returns a fresh domain, to be used by one goroutine at a time.
// It is NewLocalDomain behind the cell.Domain interface.
func (im *Impl) NewDomain() cell.Domain[Handle] { return im.newDomain() }

// NewLocalDomain returns a fresh domain, to be used by one goroutine at a
// time, as its concrete type: calls through it are direct (Get is inlined)
// rather than dispatched through cell.Domain.
func (im *Impl) NewLocalDomain() *Domain { return im.newDomain() }

func (im *Impl) newDomain() *Domain {
	d := &Domain{im: im, opts: im.opts}
	d.setCur(noPool)
	d.trimAt = im.trimMin
	im.mu.Lock()
	im.domains[d] = struct{}{}
	im.mu.Unlock()
	return d
}

// invalid panics for a handle that names no live slot.
//
//go:noinline
func (im *Impl) invalid(h Handle) {
	panic(invalidHandle{im, h})
}

// invalidHandle is the panic value for a handle that names no live slot:
// zero, deleted (stale, even once its slot is reused), or another
// allocator's. The fast paths panic with it directly rather than calling
// invalid: for the inliner a panic is nearly free and a call is not.
type invalidHandle struct {
	im *Impl
	h  Handle
}

// Error is the panic message: "<name>: invalid or deleted handle (0x...)".
func (e invalidHandle) Error() string { return fmt.Sprintf("%s (%#x)", e.im.msg, uintptr(e.h)) }

// lookup returns the pool and the live slot h names, or nil, nil. It takes
// no lock: a pool is stored in the directory fully initialised.
func (im *Impl) lookup(h Handle) (*pool, *slot) {
	if p := im.dir[uintptr(h)>>poolLog&dirMask].Load(); p != nil {
		if s := &p.slots[uintptr(h)&slotMask]; s.h == h {
			return p, s
		}
	}
	return nil, nil
}

// Get returns the value rooted by h, from any goroutine, without a domain:
// the directory load, the slot load and the tag check (see slot), small
// enough to inline. It repeats lookup's steps instead of calling it, so
// that Domain.Get and Handle.Value, which wrap it, inline too. The
// creator's write of the slot happens before the handle reached the caller
// (however it was passed on), and nobody writes a live slot but its
// deleter.
func (im *Impl) Get(h Handle) any {
	if p := im.dir[uintptr(h)>>poolLog&dirMask].Load(); p != nil {
		if s := &p.slots[uintptr(h)&slotMask]; s.h == h {
			return s.v
		}
	}
	panic(invalidHandle{im, h})
}

// allocPool returns a fresh pool registered in the directory, or nil if
// every directory index is in use. Called with mu held; the caller panics
// with fullError once it has released mu.
func (im *Impl) allocPool() *pool {
	var idx int32
	if n := len(im.freeIdx); n > 0 {
		idx = im.freeIdx[n-1]
		im.freeIdx = im.freeIdx[:n-1]
	} else {
		if im.nextIdx >= im.poolLimit {
			return nil
		}
		idx = im.nextIdx
		im.nextIdx++
	}
	p := newPool(idx)
	// The pool is fully initialised before this Store publishes it.
	im.dir[idx].Store(p)
	im.allocs++
	im.pools++
	im.peak = max(im.peak, im.pools)
	return p
}

// emptyPool returns a wholly free pool with no owner: the one kept last on
// the empty list, else a fresh one, else nil at the capacity limit. Called
// with mu held.
func (im *Impl) emptyPool() *pool {
	if p := popLast(&im.empty); p != nil {
		return p
	}
	return im.allocPool()
}

// popLast removes and returns the last element of *s, or nil when *s is
// empty. It clears the vacated entry, so that the backing array keeps
// nothing reachable.
func popLast[T any](s *[]*T) *T {
	n := len(*s)
	if n == 0 {
		return nil
	}
	x := (*s)[n-1]
	(*s)[n-1] = nil
	*s = (*s)[:n-1]
	return x
}

// full is the panic value at the capacity limit.
func (im *Impl) full() fullError { return fullError{im.name, int(im.poolLimit - 1)} }

// recycle takes a wholly free, unowned pool (mu held): it is kept on the
// empty list up to maxEmpty, and released beyond. The pool's delayed list
// may hold slots; they are free all the same.
func (im *Impl) recycle(p *pool) {
	if len(im.empty) < maxEmpty {
		p.reset()
		im.empty = append(im.empty, p)
		return
	}
	im.release(p)
}

// release takes the unowned, wholly free pool p out of the directory,
// for the garbage collector (mu held).
func (im *Impl) release(p *pool) {
	p.released.Store(true) // before its index can name another pool
	im.dir[p.idx].Store(nil)
	im.freeIdx = append(im.freeIdx, p.idx)
	im.pools--
	im.released++
}

// acquire finds d a pool with room, from the empty list, the orphans, or a
// fresh allocation, and makes d its owner. At the capacity limit it panics
// with fullError, mu released.
func (im *Impl) acquire(d *Domain) *pool {
	p := im.tryAcquire(d)
	if p == nil {
		panic(im.full())
	}
	return p
}

// tryAcquire is acquire, returning nil at the capacity limit.
func (im *Impl) tryAcquire(d *Domain) *pool {
	im.mu.Lock()
	defer im.mu.Unlock()
	var found *pool
	// Adopt an orphan with room, recycling the wholly free ones on the way;
	// look at a bounded number, oldest first, so that a long orphan list
	// does not make every acquire slow.
	for k := 0; k < orphanScan && len(im.orphans) > 0 && found == nil; k++ {
		p := im.orphans[0]
		im.orphans[0] = nil
		im.orphans = im.orphans[1:]
		switch {
		case p.whollyFree():
			im.recycle(p)
		case p.room(d.opts.NoReuse) >= reuseMin:
			found = p
			im.adopted++
		default:
			im.orphans = append(im.orphans, p)
		}
	}
	if found == nil {
		if found = im.emptyPool(); found == nil {
			return nil
		}
	}
	// The pool passes from mu's hands to d's: d's accesses to its owner-only
	// fields happen after this Store, which happens after mu was acquired.
	found.owner.Store(d)
	return found
}
