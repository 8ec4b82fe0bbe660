//go:build !race && !purego && go1.26 && !go1.27

package boxroot

import (
	"runtime"
	"runtime/debug"
)

// The drop-in API's fast paths without a pin, on linux/amd64 with Go 1.26.
//
// A pin costs the fast paths two calls into the runtime (procPin and
// procUnpin), which the compiler cannot inline. asmPop and asmPushFreed
// (cache_asm_linux_amd64.s, written by gen_cache.go) do in one call what
// the pinned fast path does between the two, on a cache per M rather than
// per P: they read the id of the M (the OS thread) that runs the goroutine
// (g.m.id), find that M's cache by the same kind of tree of compares, and
// pop or push it. An M's cache has one user at a time without a pin:
//
//   - an M runs one goroutine at a time;
//   - the goroutine cannot leave the M, and the M cannot run another
//     goroutine, until the call returns: the runtime stops a running
//     goroutine only at a call into it or at a function's stack check
//     (synchronous preemption), or at an asynchronous safe point (a
//     signal); these functions are NOSPLIT (no stack check), call
//     nothing, and are assembly, which the runtime never treats as an
//     asynchronous safe point (isAsyncSafePoint in runtime/preempt.go:
//     "This is assembly code");
//   - the slow paths (pinCache) take the M's cache pinned, and a pinned
//     goroutine does not leave its M either.
//
// The slot writes around the calls are ordered by the M: the goroutine
// that wrote a slot before a push and the one that writes it after the pop
// that follows ran on this M, one after the other, and the scheduler's
// hand-over of the M orders them.
//
// Why the M and not the P: the M's id is one dependent load from the M
// (g.m, m.id), the P's two (g.m, m.p, p.id), and the message-passing
// workload, whose every create and delete finds its cache, runs faster for
// it. BenchmarkHandleCrossThread measures it: its boxroot-handle case runs
// these fast paths, its boxroot-handle-pinned case the pinned ones on the
// P's cache, in the same invocation.
// The cost is in memory: a cache belongs to every M that ran drop-in code
// (and whose id is below maxCaches), not to every P; a program's Ms are
// its Ps' plus those blocked in system calls or cgo calls, locked to a
// goroutine (runtime.LockOSThread), or idle. The slots an idle M's cache
// holds wait for it to run drop-in code again; those of an M that exited
// (a goroutine that ended locked to it) stay cached for good.
//
// The offsets of g.m and m.id are the runtime's own, which it does not
// export: they are go1.26's on linux/amd64 (this file's build constraint),
// from the runtime's go_asm.h:
//
//	go build -work -a runtime   # then grep the work directory's go_asm.h
//	                            # for g_m, m_curg and m_id
//
// asmCaches holds only if layoutHolds confirms them on the running
// program's own structures, at package initialization; otherwise the fast
// paths pin, per P, as on every other platform. TestAsmCachesOn checks that
// asmCaches holds with the toolchain that runs the tests, TestAsmMid that
// the assembly reads a distinct, stable id on every M of many, and
// TestLayoutHoldsRefusesWrongOffsets that wrong offsets are refused without
// a crash.
const (
	runtimeGM    = 48  // runtime.g.m
	runtimeMCurg = 184 // runtime.m.curg, for layoutHolds only
	runtimeMID   = 232 // runtime.m.id, an int64
)

// runtimeLayout is where the runtime keeps, as byte offsets in its
// structures, what the assembly reads (gM, mID) and the back pointer
// layoutHolds checks gM with (mCurg).
type runtimeLayout struct{ gM, mCurg, mID uintptr }

// go126Layout is the layout the assembly is assembled with.
var go126Layout = runtimeLayout{runtimeGM, runtimeMCurg, runtimeMID}

// asmCaches reports whether the fast paths use asmPop and asmPushFreed
// rather than pinning: whether the runtime's layout is go126Layout. It is
// decided during package initialization, which the runtime runs on the
// main goroutine locked to m0, the first M, whose id is 0 (runtime.main:
// "Lock the main goroutine onto this, the main OS thread, during
// initialization"): so m.id must read 0 here, besides what layoutHolds
// checks. A program that initializes this package elsewhere (a plugin)
// reads another id and gets the pinned fast paths, which are correct
// everywhere.
var asmCaches = func() bool {
	id, ok := layoutHolds(go126Layout)
	return ok && id == 0
}()

// maxMID bounds the M ids layoutHolds accepts: the runtime numbers its Ms
// from 0, one per thread it ever made, so a word above this is not an id
// (a heap pointer is above 2^38).
const maxMID = 1 << 32

// layoutHolds reports whether l is the running runtime's layout, and the M
// id it reads for the calling goroutine. It follows l from the calling
// goroutine to its M and back (m.curg is the goroutine), and reads m.id
// there and, at the same time, on a second goroutine locked to another
// thread: each must read a number below maxMID, the same before and after
// the goroutine yields, and the two must differ. A wrong offset reads
// some other word: a back pointer that matches by chance is not a
// practical risk, nor is another per-thread number that passes these
// checks and reads 0 on m0 too (see asmCaches); a read of an address that
// is not mapped panics (debug.SetPanicOnFault) and is recovered as false.
// Both goroutines are locked to their threads throughout, and not pinned
// (a fault while pinned could not be recovered).
func layoutHolds(l runtimeLayout) (id int64, ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	id, ok = readMID(l)
	if !ok {
		return 0, false
	}
	type reading struct {
		id int64
		ok bool
	}
	other := make(chan reading)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		id, ok := readMID(l)
		other <- reading{id, ok}
	}()
	// This goroutine stays locked to its thread while the other reads:
	// the two run on different Ms.
	r := <-other
	if again, okAgain := readMID(l); !okAgain || again != id {
		return 0, false
	}
	return id, r.ok && r.id != id
}

// readMID returns the calling goroutine's M id as l places it, twice read
// with a yield between (the caller is locked to its thread, so the M is
// the same), and whether l's g.m and m.curg hold and the id is a number
// below maxMID that stayed the same.
func readMID(l runtimeLayout) (id int64, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			id, ok = 0, false
		}
	}()
	g := asmG()
	m := peek(g + l.gM)
	if m == 0 || peek(m+l.mCurg) != g {
		return 0, false
	}
	first := peek(m + l.mID)
	runtime.Gosched()
	if peek(m+l.mID) != first || first >= maxMID {
		return 0, false
	}
	return int64(first), true
}

// asmPop is pcache.pop on the calling M's cache; 0 if it is empty or the M
// has none.
func asmPop() Handle

// asmPushFreed is pcache.pushFreed on the calling M's cache; false if it
// is full or the M has none.
func asmPushFreed(h Handle) bool

// asmPopFrom and asmPushFreedTo are asmPop's and asmPushFreed's bodies on
// the cache c, for TestAsmCacheModel.
func asmPopFrom(c *pcache) Handle
func asmPushFreedTo(c *pcache, h Handle) bool

// asmTreeCache returns the cache that asmPop's and asmPushFreed's tree
// finds for id, or nil, for TestAsmTree.
func asmTreeCache(id uint) *pcache

// asmMid returns the M id as asmPop and asmPushFreed read it.
func asmMid() int

// asmG returns the address of the calling goroutine's g.
func asmG() uintptr

// peek returns the word at addr.
func peek(addr uintptr) uintptr
