//go:build cgo

// C side of rootbench's callback workload; see callback.h.

#define _GNU_SOURCE
#define RB_C_SIDE 1

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "callback.h"
#include "_cgo_export.h"

_Static_assert(sizeof(rb_state_word) == sizeof(uint64_t), "atomic state word size");
_Static_assert(alignof(rb_state_word) == alignof(uint64_t), "atomic state word alignment");
_Static_assert(sizeof(rb_slot) == 64, "rb_slot is one cache line");
_Static_assert(sizeof(rb_req) == RB_REQ_SIZE, "rb_req size");
_Static_assert(offsetof(rb_req, tid) == RB_REQ_TID, "rb_req.tid offset");
_Static_assert(offsetof(rb_req, x) == RB_REQ_X, "rb_req.x offset");
_Static_assert(offsetof(rb_req, h) == RB_REQ_H, "rb_req.h offset");

// The calling loops check the stop flag once every RB_STOP_EVERY calls.
#define RB_STOP_EVERY 256
// A spinning C thread yields its CPU after this many empty polls, so that
// more callers than cores still make progress (slow path only).
#define RB_SPIN_LIMIT 256

// A function the C side calls into Go: foo(x) for thread tid with handle h.
typedef int64_t (*rb_fn)(int32_t tid, uintptr_t h, int64_t x);

// One calling thread. Written by its own thread during the run, read by
// rb_result after the join (or after rb_plain returned): no sharing while
// the loop runs, and one cache line or more apart from its neighbours.
// The process's CPU time (getrusage RUSAGE_SELF: every thread), in ns.
typedef struct rb_cpu {
	int64_t user, sys;
} rb_cpu;

typedef struct rb_thread {
	alignas(64) struct rb_run *run;
	int32_t tid;
	int64_t start;    // first x
	int64_t n;        // calls to make
	uintptr_t h;      // handle passed with every call
	int reply_fd;     // pipe: read end of this thread's reply pipe
	pthread_t th;
	// Results.
	int64_t done;     // calls made
	uint64_t sum;     // sum of the replies, modulo 2^64
	int64_t t0, t1;   // CLOCK_MONOTONIC ns around the loop
	rb_cpu cpu0, cpu1; // the process's CPU time at t0 and at t1
	int err;          // first error met, 0 if none
} rb_thread;

struct rb_run {
	int variant;
	int handle;
	int threads;
	int64_t calls;
	rb_fn fn;         // plain, cthread, channel
	int req_fd;       // pipe: write end of the request pipe
	_Atomic int stop;
	// Start gate: callers count themselves ready, then wait for go.
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int ready;
	int go;
	rb_thread *th;    // threads records
	rb_slot *slots;   // spin: one per thread
};

static int64_t rb_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static rb_cpu rb_cpu_now(void) {
	struct rusage ru;
	rb_cpu c = {0, 0};
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		c.user = (int64_t)ru.ru_utime.tv_sec * 1000000000 + (int64_t)ru.ru_utime.tv_usec * 1000;
		c.sys = (int64_t)ru.ru_stime.tv_sec * 1000000000 + (int64_t)ru.ru_stime.tv_usec * 1000;
	}
	return c;
}

// rb_start and rb_stop_clock stamp a calling loop's start and end: the
// wall clock and, around it, the process's CPU time, so that the run's CPU
// time covers the same interval as its wall time.
static void rb_start(rb_thread *t) {
	t->cpu0 = rb_cpu_now();
	t->t0 = rb_now();
}

static void rb_stop_clock(rb_thread *t) {
	t->t1 = rb_now();
	t->cpu1 = rb_cpu_now();
}

static inline void rb_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static rb_fn rb_pick(int variant, int handle) {
	if (variant == RB_CHANNEL) {
		return rbChanCall;
	}
	switch (handle) {
	case RB_HANDLE_ROOT:
		return rbFooHandle;
	default:
		return rbFooNone;
	}
}

rb_run *rb_new(int variant, int handle, int threads, int64_t calls) {
	if (variant < RB_PLAIN || variant > RB_CHANNEL || handle < RB_HANDLE_NONE ||
	    handle > RB_HANDLE_ROOT || threads < 1 || calls < 0) {
		return NULL;
	}
	rb_run *r = calloc(1, sizeof *r);
	if (r == NULL) {
		return NULL;
	}
	r->variant = variant;
	r->handle = handle;
	r->threads = threads;
	r->calls = calls;
	r->fn = rb_pick(variant, handle);
	r->req_fd = -1;
	atomic_init(&r->stop, 0);
	if (posix_memalign((void **)&r->th, 64, sizeof(rb_thread) * (size_t)threads) != 0) {
		free(r);
		return NULL;
	}
	if (posix_memalign((void **)&r->slots, 64, sizeof(rb_slot) * (size_t)threads) != 0) {
		free(r->th);
		free(r);
		return NULL;
	}
	memset(r->th, 0, sizeof(rb_thread) * (size_t)threads);
	memset(r->slots, 0, sizeof(rb_slot) * (size_t)threads);
	int64_t q = calls / threads, rem = calls % threads;
	for (int t = 0; t < threads; t++) {
		rb_thread *th = &r->th[t];
		th->run = r;
		th->tid = t;
		th->n = q + (t < rem ? 1 : 0);
		th->start = (int64_t)t * q + (t < rem ? t : rem);
		th->reply_fd = -1;
		atomic_init(&r->slots[t].state, RB_SLOT_IDLE);
	}
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	return r;
}

void rb_free(rb_run *r) {
	if (r == NULL) {
		return;
	}
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r->slots);
	free(r->th);
	free(r);
}

void rb_set_handle(rb_run *r, int tid, uintptr_t h) { r->th[tid].h = h; }

void rb_set_pipes(rb_run *r, int tid, int req_fd, int reply_fd) {
	r->req_fd = req_fd;
	r->th[tid].reply_fd = reply_fd;
}

rb_slot *rb_slots(rb_run *r) { return r->slots; }

void rb_stop(rb_run *r) { atomic_store_explicit(&r->stop, 1, memory_order_relaxed); }

int rb_stopped(rb_run *r) { return atomic_load_explicit(&r->stop, memory_order_relaxed); }

static inline int rb_should_stop(rb_run *r, int64_t i) {
	return (i % RB_STOP_EVERY) == 0 && atomic_load_explicit(&r->stop, memory_order_relaxed);
}

// Calling loops. Each records t0/t1 around the loop only.

static void rb_loop_call(rb_thread *t) {
	rb_run *r = t->run;
	rb_fn fn = r->fn;
	int32_t tid = t->tid;
	uintptr_t h = t->h;
	int64_t x = t->start, n = t->n, i = 0;
	uint64_t sum = 0;
	rb_start(t);
	for (; i < n; i++) {
		if (rb_should_stop(r, i)) {
			break;
		}
		sum += (uint64_t)fn(tid, h, x + i);
	}
	rb_stop_clock(t);
	t->done = i;
	t->sum = sum;
}

static int rb_write_full(int fd, const void *buf, size_t len) {
	const char *p = buf;
	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k < 0) {
			if (errno == EINTR) {
				continue;
			}
			return errno;
		}
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

static int rb_read_full(int fd, void *buf, size_t len) {
	char *p = buf;
	while (len > 0) {
		ssize_t k = read(fd, p, len);
		if (k < 0) {
			if (errno == EINTR) {
				continue;
			}
			return errno;
		}
		if (k == 0) {
			return RB_ERR_EOF;
		}
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

static void rb_loop_pipe(rb_thread *t) {
	rb_run *r = t->run;
	int64_t x = t->start, n = t->n, i = 0;
	uint64_t sum = 0;
	rb_req q;
	memset(&q, 0, sizeof q);
	q.tid = t->tid;
	q.h = (uint64_t)t->h;
	rb_start(t);
	for (; i < n; i++) {
		if (rb_should_stop(r, i)) {
			break;
		}
		q.x = x + i;
		int64_t reply;
		int err = rb_write_full(r->req_fd, &q, sizeof q);
		if (err == 0) {
			err = rb_read_full(t->reply_fd, &reply, sizeof reply);
		}
		if (err != 0) {
			t->err = err;
			break;
		}
		sum += (uint64_t)reply;
	}
	rb_stop_clock(t);
	t->done = i;
	t->sum = sum;
}

static void rb_loop_spin(rb_thread *t) {
	rb_run *r = t->run;
	rb_slot *s = &r->slots[t->tid];
	int64_t x = t->start, n = t->n, i = 0;
	uint64_t sum = 0;
	uintptr_t h = t->h;
	rb_start(t);
	for (; i < n; i++) {
		if (rb_should_stop(r, i)) {
			break;
		}
		// The slot is IDLE or REP: this thread owns x, h and r.
		s->x = x + i;
		s->h = h;
		atomic_store_explicit(&s->state, RB_SLOT_REQ, memory_order_release);
		unsigned spins = 0;
		while (atomic_load_explicit(&s->state, memory_order_acquire) != RB_SLOT_REP) {
			rb_cpu_relax();
			if (++spins == RB_SPIN_LIMIT) {
				spins = 0;
				sched_yield();
			}
		}
		// REP, acquired: the server's write of r is visible and it no longer
		// touches the slot.
		sum += (uint64_t)s->r;
	}
	rb_stop_clock(t);
	t->done = i;
	t->sum = sum;
}

// Start gate. Every caller counts itself ready and waits for go; the
// creating thread waits until all are ready, then opens the gate, so that
// thread creation stays outside the timed loops.
static void rb_gate_wait(rb_run *r) {
	pthread_mutex_lock(&r->mu);
	r->ready++;
	pthread_cond_broadcast(&r->cv);
	while (!r->go) {
		pthread_cond_wait(&r->cv, &r->mu);
	}
	pthread_mutex_unlock(&r->mu);
}

static void rb_gate_open(rb_run *r, int callers) {
	pthread_mutex_lock(&r->mu);
	while (r->ready < callers) {
		pthread_cond_wait(&r->cv, &r->mu);
	}
	r->go = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

static void *rb_thread_main(void *arg) {
	rb_thread *t = arg;
	rb_run *r = t->run;
	if (r->variant == RB_CTHREAD || r->variant == RB_CHANNEL) {
		// The first call from a C thread binds it to a Go M; keep that
		// one-time cost out of the timed loop.
		rbWarm();
	}
	rb_gate_wait(r);
	switch (r->variant) {
	case RB_PIPE:
		rb_loop_pipe(t);
		break;
	case RB_SPIN:
		rb_loop_spin(t);
		// Final: the server stops once every slot is DONE.
		atomic_store_explicit(&r->slots[t->tid].state, RB_SLOT_DONE, memory_order_release);
		break;
	default:
		rb_loop_call(t);
		break;
	}
	return NULL;
}

void rb_plain(rb_run *r, int tid) { rb_loop_call(&r->th[tid]); }

int rb_run_threads(rb_run *r) {
	int created = 0, err = 0;
	for (; created < r->threads; created++) {
		err = pthread_create(&r->th[created].th, NULL, rb_thread_main, &r->th[created]);
		if (err != 0) {
			break;
		}
	}
	if (err != 0) {
		rb_stop(r);
		// Threads that never ran must not keep the spin server waiting.
		for (int t = created; t < r->threads; t++) {
			atomic_store_explicit(&r->slots[t].state, RB_SLOT_DONE, memory_order_release);
		}
	}
	rb_gate_open(r, created);
	for (int t = 0; t < created; t++) {
		pthread_join(r->th[t].th, NULL);
	}
	return err;
}

void rb_result(rb_run *r, int64_t *calls, uint64_t *sum, int64_t *wall_ns, int64_t *cpu_user_ns, int64_t *cpu_sys_ns, int *err) {
	int64_t c = 0, t0 = 0, t1 = 0;
	rb_cpu cpu0 = {0, 0}, cpu1 = {0, 0};
	uint64_t s = 0;
	int e = 0;
	for (int t = 0; t < r->threads; t++) {
		rb_thread *th = &r->th[t];
		c += th->done;
		s += th->sum;
		if (e == 0) {
			e = th->err;
		}
		if (th->t0 == 0 && th->t1 == 0) {
			continue; // never ran
		}
		if (t0 == 0 || th->t0 < t0) {
			t0 = th->t0;
			cpu0 = th->cpu0;
		}
		if (th->t1 > t1) {
			t1 = th->t1;
			cpu1 = th->cpu1;
		}
	}
	*calls = c;
	*sum = s;
	*wall_ns = t1 > t0 ? t1 - t0 : 0;
	*cpu_user_ns = cpu1.user > cpu0.user ? cpu1.user - cpu0.user : 0;
	*cpu_sys_ns = cpu1.sys > cpu0.sys ? cpu1.sys - cpu0.sys : 0;
	*err = e;
}
