// Package msgpass is the message-passing workload of OCaml boxroot's
// benchmark, generic over cell.Impl: producers create batches of cells and
// push them onto a lock-free Treiber stack; consumers pop them, check every
// value and delete the cells (a remote delete: another domain created them).
//
// Run is the measuring loop. Its own cost per batch is a few atomic
// operations and one small allocation (the stack node; batch buffers are
// recycled through a per-producer free list); per cell it is the three calls
// of the contract (Create, Get, Delete), a pointer comparison and a store.
// BenchmarkMsgPass measures it with the control cell.
//
// # Parameters
//
// Params holds them; Set reads them as users type them (flag spelling
// batch-size or environment spelling BATCH_SIZE, numbers with '_'
// separators), Validate checks them, Map writes them back. See DESIGN.md for
// their meaning; in short: MaxDelay makes each producer wait, every MaxDelay
// batches, until all its batches have been consumed; MaxOutstanding bounds
// the cells in flight across all producers; Queue chooses one shared stack
// or one stack per consumer (a producer picks one at random per batch).
//
// # Schedulers
//
// Parallel runs every worker on its own goroutine locked to its own OS thread
// (runtime.LockOSThread), with GOMAXPROCS raised to at least the number of
// workers. Concurrent runs the same locked goroutines with GOMAXPROCS=1, so
// every switch between workers is an OS thread hand-off, as with OCaml
// systhreads. Sequential runs one goroutine that, for each batch number and
// each producer, creates a batch in the producer's domain, pushes it, pops it
// and deletes its cells in a consumer's domain: one batch in flight at a
// time. GOMAXPROCS is restored before Run returns.
//
// # Waiting
//
// Nobody spins for long. A consumer that finds its queue empty polls it a few
// thousand times (only when the parallel scheduler gives every worker a core
// of its own: with one P, or more workers than cores, polling would only
// delay the producer it waits for), then sleeps on the queue's event (an
// eventcount: a mutex and condition variable touched only when someone
// sleeps; a producer pays one atomic load per push when nobody does). A
// producer waiting for MaxDelay sleeps on a channel; one waiting for
// MaxOutstanding sleeps on an event. So any number of workers (64 producers
// and 64 consumers on 2 cores) makes progress under every scheduler.
//
// # Verification and timing
//
// A static value is checked by address against the producer's preallocated
// table entry; a fresh value by address and by the producer id and sequence
// number it carries (the workload keeps no pointer to it, so a value the
// implementation failed to keep alive is caught too). A wrong value, cells
// not all checked and deleted, cells still live after every domain is closed
// (cell.Liver), a panic in the implementation (recovered on the worker that
// hit it) and ctx cancellation each fail the run with an error, and stop
// every worker promptly.
//
// Result.Wall runs from releasing the workers (domains created, tables and
// queues allocated) to the last consumer finishing; closing the domains and
// the checks after it are not timed.
//
// # Passes
//
// Run is one pass: NIters batches per producer, the seed benchmark's unit,
// whose parameters keep their meaning. A measured run of rootbench (one
// worker process, harness.MeasurePasses) is one unmeasured warm-up pass,
// then Params.Passes measured passes, each after a garbage collection, each
// a Run on a fresh implementation with fresh domains, each verified; the
// run reports the sum of the passes' Wall and Cells (and each pass's wall
// time as pass_ns). Every cell of a comparison gets the same Passes, so its runs do
// equal work, and the results record passes among the parameters.
//
// Why: a pass of a few million cells is short for the fast cells (a run's
// pass_ns gives each pass's time), and a fresh process's first pass
// pays fixed costs that do not scale with the cells: first-touch page
// faults of the heap and the batch buffers, cold caches and branch
// predictors, thread start-up, and the pass's one GC cycle (about 2 MiB of
// batch buffers and stack nodes per pass, against the 4 MiB initial heap
// goal, so one cycle more or less per pass, landing on the measured path
// or not). The warm-up pass absorbs the first-time costs; the collection
// before each measured pass makes where that cycle lands depend on the pass
// alone; summing several passes averages the per-pass costs.
package msgpass
