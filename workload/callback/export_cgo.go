//go:build cgo

package callback

// This file holds the Go functions that C calls. A file with //export may
// only declare C functions in its preamble; the definitions are in
// callback.c.

/*
#include "callback.h"
*/
import "C"

import (
	"sync/atomic"
)

// target is the Go object a handle roots: foo adds its add field.
type target struct{ add int64 }

// activeHandle is the root handle of the run in progress (nil inside for
// handle none). Runs are serialized (runMu), and it is set before any caller
// starts and cleared after every caller has been joined, so every resolve
// sees its own run's handle. It is atomic because callers include threads
// created in C, whose start the race detector cannot see.
var activeHandle atomic.Pointer[handleRef]

// handleRef boxes a RootHandle for activeHandle.
type handleRef struct{ h RootHandle }

// resolve returns foo(x) for a call carrying handle h in mode handle
// (RB_HANDLE_NONE or RB_HANDLE_ROOT): x + Addend without a handle, x + the addend of
// the object h roots otherwise, resolved through the run's RootHandle. A
// handle that roots something other than a *target yields x, which the sum
// check then reports.
func resolve(handle int, h uintptr, x int64) int64 {
	if handle == C.RB_HANDLE_NONE {
		return x + Addend
	}
	if t, ok := activeHandle.Load().h.Value(h).(*target); ok {
		return x + t.add
	}
	return x
}

//export rbWarm
func rbWarm() {}

//export rbFooNone
func rbFooNone(tid C.int32_t, h C.uintptr_t, x C.int64_t) C.int64_t {
	return x + Addend
}

//export rbFooHandle
func rbFooHandle(tid C.int32_t, h C.uintptr_t, x C.int64_t) C.int64_t {
	return C.int64_t(resolve(C.RB_HANDLE_ROOT, uintptr(h), int64(x)))
}

// chanReq is one request of the channel variant.
type chanReq struct {
	tid int32
	h   uintptr
	x   int64
}

// chanServer is the state of a running channel variant: requests go to one
// server goroutine over reqs; the reply to thread tid comes back on
// replies[tid].
type chanServer struct {
	handle  int
	reqs    chan chanReq
	replies []chan int64
}

// activeChan is the channel server of the run in progress. Runs are
// serialized (runMu), and it is set before any C thread starts and cleared
// after every C thread has been joined, so rbChanCall always finds it.
var activeChan atomic.Pointer[chanServer]

//export rbChanCall
func rbChanCall(tid C.int32_t, h C.uintptr_t, x C.int64_t) C.int64_t {
	s := activeChan.Load()
	s.reqs <- chanReq{tid: int32(tid), h: uintptr(h), x: int64(x)}
	return C.int64_t(<-s.replies[tid])
}

// serve answers requests until reqs is closed.
func (s *chanServer) serve() {
	for q := range s.reqs {
		s.replies[q.tid] <- resolve(s.handle, q.h, q.x)
	}
}
