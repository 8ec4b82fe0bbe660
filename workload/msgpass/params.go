package msgpass

import (
	"fmt"
	"strings"
	"time"
)

// Scheduler says how producers and consumers are mapped onto OS threads.
type Scheduler int

const (
	// Parallel runs every worker on its own goroutine locked to its own OS
	// thread, with GOMAXPROCS at least the number of workers.
	Parallel Scheduler = iota
	// Concurrent runs the same goroutines on one P (GOMAXPROCS=1), like
	// OCaml systhreads.
	Concurrent
	// Sequential runs one goroutine that alternates producing and consuming,
	// still with separate domains.
	Sequential
)

var schedulerNames = []string{"parallel", "concurrent", "sequential"}

func (s Scheduler) String() string {
	if s < 0 || int(s) >= len(schedulerNames) {
		return fmt.Sprintf("Scheduler(%d)", int(s))
	}
	return schedulerNames[s]
}

// ParseScheduler parses a scheduler name, case-insensitively.
func ParseScheduler(s string) (Scheduler, error) {
	i, err := parseEnum("scheduler", s, schedulerNames)
	return Scheduler(i), err
}

// Payload says what the rooted values are.
type Payload int

const (
	// Static values are pointers into a preallocated table: no GC pressure
	// (OCaml's `()`).
	Static Payload = iota
	// Fresh values are a new small heap object per cell: GC work mixed in.
	Fresh
)

var payloadNames = []string{"static", "fresh"}

func (p Payload) String() string {
	if p < 0 || int(p) >= len(payloadNames) {
		return fmt.Sprintf("Payload(%d)", int(p))
	}
	return payloadNames[p]
}

// ParsePayload parses a payload name, case-insensitively.
func ParsePayload(s string) (Payload, error) {
	i, err := parseEnum("payload", s, payloadNames)
	return Payload(i), err
}

// Queue says how batches travel from producers to consumers.
type Queue int

const (
	// Shared is one lock-free Treiber stack shared by every worker.
	Shared Queue = iota
	// PerConsumer gives each consumer its own multi-producer queue; a
	// producer pushes each batch to a consumer picked at random (as
	// snmalloc's message-passing test does).
	PerConsumer
)

var queueNames = []string{"shared", "per-consumer"}

func (q Queue) String() string {
	if q < 0 || int(q) >= len(queueNames) {
		return fmt.Sprintf("Queue(%d)", int(q))
	}
	return queueNames[q]
}

// ParseQueue parses a queue name, case-insensitively.
func ParseQueue(s string) (Queue, error) {
	i, err := parseEnum("queue", s, queueNames)
	return Queue(i), err
}

func parseEnum(what, s string, names []string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (accepted: %s)", what, s, strings.Join(names, ", "))
}

// MaxWorkers bounds Producers and Consumers.
const MaxWorkers = 64

// Params are the workload's parameters. The zero value is not valid; start
// from DefaultParams.
type Params struct {
	Scheduler Scheduler
	// MaxDelay: every MaxDelay batches a producer blocks until every batch it
	// pushed has been consumed; <= 0 disables the synchronisation.
	MaxDelay int
	// NIters is the number of batches each producer creates.
	NIters int
	// BatchSize is the number of cells in a batch.
	BatchSize int
	Producers int
	Consumers int
	Payload   Payload
	Queue     Queue
	// MaxOutstanding, when > 0, bounds the cells in flight (created and not
	// yet deleted) across all producers: back-pressure as an alternative to
	// MaxDelay.
	MaxOutstanding int
}

// Result is what one workload run measured and verified.
type Result struct {
	// Wall is the workload's wall time, excluding setup (payload tables,
	// domain creation) and teardown.
	Wall time.Duration
	// Cells is the number of cells created, checked and deleted.
	Cells int64
	// Stats are the implementation's counters after the run, if it has any.
	Stats map[string]int64
}
