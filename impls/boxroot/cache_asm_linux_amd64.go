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
// the pinned fast path does between the two: they read the P id from the
// running goroutine (g.m.p.id), find the P's cache by the same kind of
// tree of compares, and pop or push it. They run without a pin because
// the runtime cannot take the P from them or run another goroutine on it
// until they return, for the same reasons it cannot while a goroutine is
// pinned:
//
//   - the runtime stops a running goroutine only at a call into it or at
//     a function's stack check (synchronous preemption), or at an
//     asynchronous safe point (a signal); these functions are NOSPLIT
//     (no stack check), call nothing, and are assembly, which the
//     runtime never treats as an asynchronous safe point (isAsyncSafePoint
//     in runtime/preempt.go: "This is assembly code");
//   - a P leaves a running M only when the M enters a system call, and
//     these functions make none.
//
// So, as under a pin, the P's cache is the caller's alone for the length
// of the call, and a slow path, which pins (pinCache), never runs on the P
// at the same time. The slot writes around the calls are ordered by the P
// as they are around a pin: the goroutine that wrote a slot before a push
// and the one that writes it after the pop that follows ran on this P, one
// after the other.
//
// The offsets of g.m, m.p and p.id are the runtime's own, which it does
// not export: they are go1.26's on linux/amd64 (this file's build
// constraint), from the runtime's go_asm.h:
//
//	go build -work -a runtime   # then grep the work directory's go_asm.h
//	                            # for g_m, m_curg, m_p, p_id and p_m
//
// asmCaches holds only if layoutHolds confirms them on the running
// program's own structures; otherwise the fast paths pin as on every other
// platform. After that, every slow path (pinCache) checks the P id the
// assembly reads against procPin's. TestAsmCachesOn checks that asmCaches
// holds with the toolchain that runs the tests, TestAsmPid that the
// assembly finds the P that procPin reports on every P,
// TestLayoutHoldsRefusesWrongOffsets that wrong offsets are refused without
// a crash, and TestAsmPidAgrees the slow paths' check.
const (
	runtimeGM    = 48  // runtime.g.m
	runtimeMCurg = 184 // runtime.m.curg, for layoutHolds only
	runtimeMP    = 208 // runtime.m.p
	runtimePID   = 0   // runtime.p.id, an int32
	runtimePM    = 48  // runtime.p.m, for layoutHolds only
)

// runtimeLayout is where the runtime keeps, as byte offsets in its
// structures, what the assembly reads (gM, mP, pID) and the two back
// pointers layoutHolds checks them with (mCurg, pM).
type runtimeLayout struct{ gM, mCurg, mP, pID, pM uintptr }

// go126Layout is the layout the assembly is assembled with.
var go126Layout = runtimeLayout{runtimeGM, runtimeMCurg, runtimeMP, runtimePID, runtimePM}

// asmCaches reports whether the fast paths use asmPop and asmPushFreed
// rather than pinning: whether the runtime's layout is go126Layout.
var asmCaches = layoutHolds(go126Layout)

// layoutHolds reports whether l is the running runtime's layout. It
// follows l from the calling goroutine to its M and back (m.curg is the
// goroutine), and from the M to its P and back (p.m is the M), and checks
// the P's id against procPin's. A wrong offset reads some other word: a
// back pointer that matches by chance is not a practical risk, and a read
// of an address that is not mapped panics (debug.SetPanicOnFault) and is
// recovered as false. A wrong p.id offset can hold this one P's id by
// chance (p.status is 1 on a running P): pinCache's check covers it on
// every P that reaches a slow path. The goroutine is locked to its M
// throughout, and not pinned (a fault while pinned could not be
// recovered).
func layoutHolds(l runtimeLayout) (ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	g := asmG()
	m := peek(g + l.gM)
	if m == 0 || peek(m+l.mCurg) != g {
		return false
	}
	// The P may change between the reads (the goroutine is not pinned):
	// a few tries, each bracketed by procPin's id.
	for range 8 {
		before := pid()
		p := peek(m + l.mP)
		if p == 0 {
			return false // a running goroutine's M has a P
		}
		id, pm := int32(peek(p+l.pID)), peek(p+l.pM)
		if after := pid(); before == after {
			return id == int32(before) && pm == m
		}
	}
	return false
}

// asmPidAgrees reports whether the assembly reads id, the pinned caller's
// P id from procPin. pinCache asks it at every slow path: a check, after
// layoutHolds, of p.id's offset, which layoutHolds can confirm only against
// the one P it runs on (a wrong offset can hold the same small number
// there, as p.status, 1 on a running P, does on P 1).
func asmPidAgrees(id int) bool { return asmPid() == id }

// pid returns the id of the P the caller ran on.
func pid() int {
	id := procPin()
	procUnpin()
	return id
}

// asmPop is pcache.pop on the calling P's cache; 0 if it is empty or the P
// has none.
func asmPop() Handle

// asmPushFreed is pcache.pushFreed on the calling P's cache; false if it
// is full or the P has none.
func asmPushFreed(h Handle) bool

// asmPopFrom and asmPushFreedTo are asmPop's and asmPushFreed's bodies on
// the cache c, for TestAsmCacheModel.
func asmPopFrom(c *pcache) Handle
func asmPushFreedTo(c *pcache, h Handle) bool

// asmTreeCache returns the cache that asmPop's and asmPushFreed's tree
// finds for P id, or nil, for TestAsmTree.
func asmTreeCache(id uint) *pcache

// asmPid returns the P id as asmPop and asmPushFreed read it.
func asmPid() int

// asmG returns the address of the calling goroutine's g.
func asmG() uintptr

// peek returns the word at addr.
func peek(addr uintptr) uintptr
