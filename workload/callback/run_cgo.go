//go:build cgo

package callback

/*
#cgo CFLAGS: -O2 -Wall
#cgo LDFLAGS: -pthread
#include <stdlib.h>
#include "callback.h"
*/
import "C"

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rootbench/rootbench/cputime"
)

// Available reports whether this build can run the workload (it needs cgo).
const Available = true

// Unavailable says why the workload cannot run in this build; "" with cgo.
const Unavailable = ""

// runMu serializes runs: a run owns the machine's cores for its timing, and
// the channel variant's exported entry point finds its server through the
// package-level activeChan.
var runMu sync.Mutex

// Run runs the workload once with p, verifies that the C side's sum over
// every call of every thread equals ExpectedSum(p.Calls), and returns what
// it measured. h implements p.Handle (the catalog supplies it, see
// RootHandle); it is ignored, and may be nil, for handle none. Runs are
// serialized.
//
// Cancelling ctx stops every calling loop at its next check (every 256
// calls); Run then returns the partial Result and an error wrapping
// ctx.Err(). Every goroutine and thread Run starts has ended when it
// returns.
func Run(ctx context.Context, p Params, h RootHandle) (Result, error) {
	vi, withHandle, err := p.parse()
	if err != nil {
		return Result{}, err
	}
	variant := variantNames[vi]
	hi := C.RB_HANDLE_NONE
	if withHandle {
		if h == nil {
			return Result{}, fmt.Errorf("callback %s: handle %s: no implementation given", variant, strings.TrimSpace(p.Handle))
		}
		hi = C.RB_HANDLE_ROOT
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("callback %s: not started: %w", variant, err)
	}
	runMu.Lock()
	defer runMu.Unlock()
	activeHandle.Store(&handleRef{h})
	defer activeHandle.Store(nil)

	r := C.rb_new(C.int(vi), C.int(hi), C.int(p.Threads), C.int64_t(p.Calls))
	if r == nil {
		return Result{}, fmt.Errorf("callback %s: cannot allocate the run (%d threads)", variant, p.Threads)
	}
	defer C.rb_free(r)

	release, err := setHandles(r, hi, h, p.Threads)
	if err != nil {
		return Result{}, fmt.Errorf("callback %s: %w", variant, err)
	}
	defer release()

	// The watcher turns cancellation into the C stop flag. It is joined
	// before r is freed (deferred calls run in reverse order).
	finished := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		select {
		case <-ctx.Done():
			C.rb_stop(r)
		case <-finished:
		}
	})
	runErr := runVariant(r, vi, hi, p.Threads)
	close(finished)
	watch.Wait()

	var calls, wallNs, cpuUserNs, cpuSysNs C.int64_t
	var sum C.uint64_t
	var cerr C.int
	C.rb_result(r, &calls, &sum, &wallNs, &cpuUserNs, &cpuSysNs, &cerr)
	res := Result{Wall: time.Duration(wallNs), Calls: int64(calls), Sum: int64(sum),
		CPU: cputime.Times{User: time.Duration(cpuUserNs), Sys: time.Duration(cpuSysNs)}}
	if runErr != nil {
		return res, fmt.Errorf("callback %s: %w", variant, runErr)
	}
	if cerr != 0 {
		return res, fmt.Errorf("callback %s: a calling thread failed: %w", variant, cError(cerr))
	}
	if res.Calls < p.Calls && C.rb_stopped(r) != 0 {
		cause := ctx.Err()
		if cause == nil {
			cause = errors.New("stopped")
		}
		return res, fmt.Errorf("callback %s: stopped after %d of %d calls: %w", variant, res.Calls, p.Calls, cause)
	}
	return res, verify(variant, p, res.Calls, res.Sum)
}

// cError turns an error code of the C side into an error.
func cError(code C.int) error {
	if code == C.RB_ERR_EOF {
		return errors.New("unexpected end of file on a reply pipe")
	}
	return syscall.Errno(code)
}

// setHandles gives each thread, unless handle is none, a handle from rh
// rooting its own target. release deletes the handles.
func setHandles(r *C.rb_run, handle int, rh RootHandle, threads int) (release func(), err error) {
	var made []uintptr
	release = func() {
		for _, h := range made {
			rh.Delete(h)
		}
	}
	if handle == C.RB_HANDLE_NONE {
		return release, nil
	}
	if handle != C.RB_HANDLE_ROOT {
		return nil, fmt.Errorf("unknown handle mode %d", handle)
	}
	for t := range threads {
		h := rh.New(&target{add: Addend})
		made = append(made, h)
		C.rb_set_handle(r, C.int(t), C.uintptr_t(h))
	}
	return release, nil
}

// runVariant runs the calling loops of variant vi and returns once every
// caller and server it started has finished.
func runVariant(r *C.rb_run, vi, handle, threads int) error {
	switch vi {
	case C.RB_PLAIN:
		runPlain(r, threads)
		return nil
	case C.RB_CTHREAD:
		return threadsErr(C.rb_run_threads(r))
	case C.RB_PIPE:
		return runPipe(r, handle, threads)
	case C.RB_SPIN:
		return runSpin(r, handle, threads)
	case C.RB_CHANNEL:
		return runChannel(r, handle, threads)
	}
	return fmt.Errorf("unknown variant %d", vi)
}

func threadsErr(code C.int) error {
	if code != 0 {
		return fmt.Errorf("creating the C threads: %w", syscall.Errno(code))
	}
	return nil
}

// runPlain runs one goroutine per caller, each locked to its OS thread and
// calling C once; C then calls back into Go on that Go-owned thread. The
// goroutines are released together once all are locked and ready.
func runPlain(r *C.rb_run, threads int) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for t := range threads {
		ready.Add(1)
		done.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			ready.Done()
			<-start
			C.rb_plain(r, C.int(t))
		})
	}
	ready.Wait()
	close(start)
	done.Wait()
}

// runPipe runs the dispatcher design: C threads write requests to one pipe,
// one goroutine (servePipe) answers each on the caller's reply pipe.
//
// File descriptors: Go creates every pipe. The C threads use the request
// pipe's write end and their reply pipe's read end; servePipe uses the
// request pipe's read end and the reply pipes' write ends, which it closes
// when it returns, so that a caller waiting for a reply from a failed server
// reads end-of-file instead of blocking. The request write end is closed
// once every C thread has been joined, which ends servePipe with EOF.
func runPipe(r *C.rb_run, handle, threads int) (err error) {
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return fmt.Errorf("creating the request pipe: %w", err)
	}
	reqR, reqW := p[0], p[1]
	fds = append(fds, reqR)
	replyW := make([]int, 0, threads)
	closeW := func() {
		unix.Close(reqW)
		for _, fd := range replyW {
			unix.Close(fd)
		}
	}
	for t := range threads {
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			closeW()
			return fmt.Errorf("creating reply pipe %d of %d: %w", t+1, threads, err)
		}
		fds = append(fds, p[0])
		replyW = append(replyW, p[1])
		C.rb_set_pipes(r, C.int(t), C.int(reqW), C.int(p[0]))
	}
	var srv sync.WaitGroup
	var srvErr error
	srv.Go(func() { srvErr = servePipe(r, handle, reqR, replyW) })
	cerr := C.rb_run_threads(r)
	unix.Close(reqW)
	srv.Wait()
	return errors.Join(threadsErr(cerr), srvErr)
}

// servePipe is the dispatcher: a goroutine locked to its thread that reads
// requests with blocking read(2) and answers each on the caller's reply
// pipe. It returns at end-of-file on the request pipe; on an error it stops
// the run. It closes the reply pipes' write ends when it returns.
func servePipe(r *C.rb_run, handle, reqR int, replyW []int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer func() {
		for _, fd := range replyW {
			unix.Close(fd)
		}
	}()
	fail := func(err error) error {
		C.rb_stop(r)
		return fmt.Errorf("pipe server: %w", err)
	}
	const size = C.RB_REQ_SIZE
	buf := make([]byte, 128*size)
	var out [8]byte
	have := 0
	for {
		n, err := unix.Read(reqR, buf[have:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fail(fmt.Errorf("reading the request pipe: %w", err))
		}
		if n == 0 {
			if have != 0 {
				return fail(fmt.Errorf("request pipe ended inside a request (%d of %d bytes)", have, size))
			}
			return nil
		}
		have += n
		off := 0
		// Writes of one request are atomic (size < PIPE_BUF), but a read may
		// still end inside one: keep the tail for the next read.
		for ; off+size <= have; off += size {
			q := buf[off : off+size]
			tid := int32(binary.NativeEndian.Uint32(q[C.RB_REQ_TID:]))
			x := int64(binary.NativeEndian.Uint64(q[C.RB_REQ_X:]))
			h := uintptr(binary.NativeEndian.Uint64(q[C.RB_REQ_H:]))
			if tid < 0 || int(tid) >= len(replyW) {
				return fail(fmt.Errorf("request from unknown thread %d (have %d)", tid, len(replyW)))
			}
			binary.NativeEndian.PutUint64(out[:], uint64(resolve(handle, h, x)))
			if err := writeFull(replyW[tid], out[:]); err != nil {
				return fail(fmt.Errorf("writing to reply pipe %d: %w", tid, err))
			}
		}
		have = copy(buf, buf[off:have])
	}
}

func writeFull(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// spinYieldAfter is the number of empty passes over the slots after which
// the spin server yields its CPU (sched_yield), so that more spinners than
// cores still make progress. Slow path only: a busy server never yields.
const spinYieldAfter = 1024

// runSpin runs the lock-free handoff: C threads publish requests in their
// shared-memory slot and spin for the reply; serveSpin polls the slots.
//
// serveSpin returns once every slot is DONE; rb_run_threads guarantees that
// every slot ends DONE (a thread marks its own after its loop, the creator
// marks those of threads it failed to create), so the server cannot outlive
// the run and no core keeps spinning after it.
func runSpin(r *C.rb_run, handle, threads int) error {
	slots := unsafe.Slice(C.rb_slots(r), threads)
	var srv sync.WaitGroup
	srv.Go(func() { serveSpin(slots, handle) })
	cerr := C.rb_run_threads(r)
	srv.Wait()
	return threadsErr(cerr)
}

// serveSpin is the spin server: a goroutine locked to its OS thread that
// polls every slot, answers each REQ with REP, and returns when every slot
// is DONE. See the slot protocol in callback.h: after its atomic load sees
// REQ the server owns x, h and r until its atomic store of REP.
func serveSpin(slots []C.rb_slot, handle int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	finished := make([]bool, len(slots))
	left, idle := len(slots), 0
	for left > 0 {
		busy := false
		for i := range slots {
			if finished[i] {
				continue
			}
			s := &slots[i]
			state := (*uint64)(unsafe.Pointer(&s.state))
			switch atomic.LoadUint64(state) {
			case C.RB_SLOT_REQ:
				s.r = C.int64_t(resolve(handle, uintptr(s.h), int64(s.x)))
				atomic.StoreUint64(state, C.RB_SLOT_REP)
				busy = true
			case C.RB_SLOT_DONE:
				// DONE is final: count each slot once.
				finished[i] = true
				left--
			}
		}
		if busy {
			idle = 0
		} else if idle++; idle == spinYieldAfter {
			idle = 0
			unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
		}
	}
}

// runChannel runs the channel variant: C threads call rbChanCall, which
// forwards each request to one server goroutine over a channel and waits for
// the reply on the thread's own channel.
func runChannel(r *C.rb_run, handle, threads int) error {
	s := &chanServer{
		handle:  handle,
		reqs:    make(chan chanReq, threads),
		replies: make([]chan int64, threads),
	}
	for i := range s.replies {
		s.replies[i] = make(chan int64, 1)
	}
	var srv sync.WaitGroup
	srv.Go(s.serve)
	activeChan.Store(s)
	cerr := C.rb_run_threads(r)
	// Every C thread has been joined: nobody calls rbChanCall any more.
	activeChan.Store(nil)
	close(s.reqs)
	srv.Wait()
	return threadsErr(cerr)
}
