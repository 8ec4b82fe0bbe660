package msgpass

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/rootbench/rootbench/cputime"
)

// runSequential runs the sequential scheduler on one goroutine locked to an
// OS thread: for each batch number, each producer in turn creates a batch
// and pushes it, then a consumer pops it and deletes it (the consumer owning
// the queue it went to, or the next consumer in turn for the shared queue).
// Producer domains only create, consumer domains only delete. At most one
// batch is in flight, so MaxDelay and MaxOutstanding never have to wait.
// It returns what runWorkers returns: the loop's wall time, the process's
// CPU time over it, and whether it finished.
func (r *run[C]) runSequential() (time.Duration, cputime.Times, bool) {
	var wall time.Duration
	var cpu cputime.Times
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		role, id := "setup", 0 // what the goroutine is doing, for a panic
		defer func() {
			if v := recover(); v != nil {
				r.fail(panicError(fmt.Sprintf("sequential worker (%s %d)", role, id), v))
			}
		}()
		for i := range r.prods {
			role, id = "producer", i
			r.prods[i].d = r.impl.NewDomain()
		}
		for i := range r.cons {
			role, id = "consumer", i
			r.cons[i].d = r.impl.NewDomain()
		}
		startCPU := cputime.Self()
		start := time.Now()
		next := 0 // next consumer, for the shared queue
		for b := int64(0); b < int64(r.p.NIters); b++ {
			for i := range r.prods {
				if r.stop.Load() {
					return
				}
				pr := &r.prods[i]
				role, id = "producer", i
				if r.p.MaxOutstanding > 0 {
					r.reserve() // never waits: nothing is in flight here
				}
				bt := r.produce(pr, b)
				qi := r.pick(pr)
				q := &r.queues[qi]
				q.stack.push(bt)
				c := &r.cons[qi]
				if len(r.queues) == 1 {
					c = &r.cons[next]
					if next++; next == len(r.cons) {
						next = 0
					}
				}
				role, id = "consumer", c.id
				got, _ := q.stack.pop()
				if err := r.consume(c, got); err != nil {
					r.fail(err)
					return
				}
				r.release(got)
			}
		}
		wall = time.Since(start)
		cpu = cputime.Self().Sub(startCPU)
	}()
	if !r.await(&wg) {
		return 0, cputime.Times{}, false
	}
	return wall, cpu, true
}
