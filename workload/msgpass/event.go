package msgpass

import (
	"sync"
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// event lets goroutines block until some condition, changed by other
// goroutines through atomics, may have become true (an "eventcount"). The
// notifying side costs one atomic load when nobody waits, so it can sit on a
// hot path; the mutex is only taken when somebody sleeps.
//
// Waiter protocol:
//
//	key := e.prepare()             // announce: waiters++, read epoch
//	if condition() { e.cancel(); … }
//	e.wait(key, stop)              // sleeps while epoch == key and !stop
//
// Notifier protocol: make the condition true (an atomic write), then
// e.notify(). notify skips everything when it sees no waiter.
//
// Why no wake-up is lost (Go's sync/atomic operations are sequentially
// consistent, and the proof relies on it): the waiter does waiters++ then
// reads epoch then re-checks the condition; the notifier changes the
// condition then reads waiters.
//   - If notify reads waiters == 0, the waiter's increment comes after that
//     read in the total order, hence after the condition changed, so the
//     waiter's re-check sees the change and it does not wait.
//   - Otherwise notify bumps epoch (under mu) and wakes sleepers. If the
//     waiter read epoch before the bump, wait sees epoch != key and returns
//     (or is in cond.Wait under mu and is woken by the bump's Signal or
//     Broadcast). If it read epoch after the bump, that read comes after the
//     condition changed, so its re-check saw the change.
//
// Signal wakes one sleeper; that is enough when each notification makes room
// for one waiter to progress and every woken waiter re-checks before sleeping
// again (a consumer pops until the queue is empty). Broadcast is for
// conditions that let every waiter go (stop, end of the run).
type event struct {
	_       cpu.CacheLinePad
	waiters atomic.Int32
	epoch   atomic.Uint64
	mu      sync.Mutex
	cond    sync.Cond
	_       cpu.CacheLinePad
}

func (e *event) init() { e.cond.L = &e.mu }

// prepare announces a waiter and returns the key to pass to wait. The caller
// must re-check its condition after prepare, then call cancel or wait.
func (e *event) prepare() uint64 {
	e.waiters.Add(1)
	return e.epoch.Load()
}

// cancel withdraws a prepare whose re-check found the condition true.
func (e *event) cancel() { e.waiters.Add(-1) }

// wait blocks until a notify after prepare, or until stop is set.
func (e *event) wait(key uint64, stop *atomic.Bool) {
	e.mu.Lock()
	for e.epoch.Load() == key && !stop.Load() {
		e.cond.Wait()
	}
	e.mu.Unlock()
	e.waiters.Add(-1)
}

// notify wakes one waiter (all of them if all is set). Call it after the
// atomic write that may have made a waiter's condition true.
func (e *event) notify(all bool) {
	if e.waiters.Load() == 0 {
		return
	}
	e.wake(all)
}

// wake bumps the epoch and wakes sleepers unconditionally (used by stop,
// which sets its flag and then must reach every sleeper).
func (e *event) wake(all bool) {
	e.mu.Lock()
	e.epoch.Add(1)
	if all {
		e.cond.Broadcast()
	} else {
		e.cond.Signal()
	}
	e.mu.Unlock()
}
