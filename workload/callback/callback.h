//go:build cgo

// C side of rootbench's callback workload (package callback).
//
// A run (rb_run, opaque) holds the parameters, one record per calling
// thread, the stop flag, the start gate and, for the spin variant, one
// shared-memory slot per thread. The Go side creates it with rb_new, fills
// in handles and file descriptors, runs it (rb_plain on Go-owned threads,
// rb_run_threads for the variants whose callers are C threads), reads the
// figures with rb_result and frees it with rb_free.

#ifndef ROOTBENCH_CALLBACK_H
#define ROOTBENCH_CALLBACK_H

#include <stdint.h>

// Variants; the order of package callback's Variants().
enum { RB_PLAIN = 0, RB_CTHREAD = 1, RB_PIPE = 2, RB_SPIN = 3, RB_CHANNEL = 4 };

// Handle modes: no handle, or a handle resolved through the run's
// RootHandle (whatever its kind).
enum { RB_HANDLE_NONE = 0, RB_HANDLE_ROOT = 1 };

// States of a spin slot.
//   IDLE -> REQ   the C thread published a request (x, h) (release)
//   REQ  -> REP   the Go server published the reply r (release)
//   REP  -> REQ   the C thread, having read r, published the next request
//   any  -> DONE  the C thread will not use the slot again (final)
// Only the C thread moves a slot out of IDLE and REP and into DONE; only
// the server moves it out of REQ. Whoever moves it owns x, h and r until the
// next move, so the plain fields are never accessed concurrently.
enum { RB_SLOT_IDLE = 0, RB_SLOT_REQ = 1, RB_SLOT_REP = 2, RB_SLOT_DONE = 3 };

// The C side sees the state word as a C11 atomic; Go sees a plain uint64_t
// that it accesses only through sync/atomic. Both have the same size and
// alignment (checked by _Static_assert in callback.c).
#ifdef RB_C_SIDE
#include <stdatomic.h>
typedef _Atomic uint64_t rb_state_word;
#else
typedef uint64_t rb_state_word;
#endif

// One spin slot: a cache line, so that slots of different threads do not
// share one.
typedef struct rb_slot {
	rb_state_word state;
	int64_t x;
	uintptr_t h;
	int64_t r;
	uint8_t pad[32];
} rb_slot;

// One pipe request, written whole (24 bytes < PIPE_BUF, so atomically) by a
// C thread to the shared request pipe.
typedef struct rb_req {
	int32_t tid;
	int32_t pad;
	int64_t x;
	uint64_t h;
} rb_req;

// Layout of rb_req that the Go server decodes.
enum { RB_REQ_SIZE = 24, RB_REQ_TID = 0, RB_REQ_X = 8, RB_REQ_H = 16 };

// Error codes reported by rb_result besides errno values.
enum { RB_ERR_EOF = -1 };

typedef struct rb_run rb_run;

// rb_new allocates a run; NULL if out of memory or the arguments are bad.
rb_run *rb_new(int variant, int handle, int threads, int64_t calls);
void rb_free(rb_run *r);

// rb_set_handle sets the handle thread tid passes with every call.
void rb_set_handle(rb_run *r, int tid, uintptr_t h);
// rb_set_pipes sets the request pipe's write end and thread tid's reply
// pipe's read end (pipe variant).
void rb_set_pipes(rb_run *r, int tid, int req_fd, int reply_fd);
// rb_slots returns the run's spin slots (one per thread; spin variant).
rb_slot *rb_slots(rb_run *r);

// rb_plain runs thread tid's calling loop on the calling thread (plain).
void rb_plain(rb_run *r, int tid);
// rb_run_threads creates one pthread per caller, releases them together
// once all are ready, and joins them. Returns 0 or the pthread_create error
// (the threads that were created are stopped and joined).
int rb_run_threads(rb_run *r);

// rb_stop asks every calling loop to stop at its next check; any thread.
void rb_stop(rb_run *r);
// rb_stopped reports whether rb_stop was called.
int rb_stopped(rb_run *r);

// rb_result returns the calls made, their sum (modulo 2^64), the wall time
// from the earliest loop start to the latest loop end, the process's CPU
// time (user, system) over that same interval, and the first error a
// thread met (0 if none). Call it after the loops have finished.
void rb_result(rb_run *r, int64_t *calls, uint64_t *sum, int64_t *wall_ns, int64_t *cpu_user_ns, int64_t *cpu_sys_ns, int *err);

#endif
