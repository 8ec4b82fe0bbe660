package msgpass

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rootbench/rootbench/cputime"
	"github.com/rootbench/rootbench/parse"
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

// String returns the scheduler's name, as ParseScheduler accepts it.
func (s Scheduler) String() string { return enumName("Scheduler", int(s), schedulerNames) }

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

// String returns the payload's name, as ParsePayload accepts it.
func (p Payload) String() string { return enumName("Payload", int(p), payloadNames) }

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

// String returns the queue's name, as ParseQueue accepts it.
func (q Queue) String() string { return enumName("Queue", int(q), queueNames) }

// ParseQueue parses a queue name, case-insensitively.
func ParseQueue(s string) (Queue, error) {
	i, err := parseEnum("queue", s, queueNames)
	return Queue(i), err
}

// enumName is names[v], or "typ(v)" for a value out of range.
func enumName(typ string, v int, names []string) string {
	if v < 0 || v >= len(names) {
		return fmt.Sprintf("%s(%d)", typ, v)
	}
	return names[v]
}

// parseEnum is the index of the name s in names, case-insensitively and
// ignoring surrounding spaces, or an error naming what s should have been.
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
	// Producers is the number of producer workers, each with its own domain.
	Producers int
	// Consumers is the number of consumer workers, each with its own domain.
	Consumers int
	// Payload says what the rooted values are.
	Payload Payload
	// Queue says how batches travel from producers to consumers.
	Queue Queue
	// MaxOutstanding, when > 0, bounds the cells in flight (created and not
	// yet deleted) across all producers: back-pressure as an alternative to
	// MaxDelay.
	MaxOutstanding int
	// Passes is the number of measured passes of a measured run: the
	// harness's worker runs one unmeasured warm-up pass, then Passes
	// passes, each a whole workload (NIters batches per producer) on a fresh
	// implementation, and reports their sum. Run itself always runs one
	// pass and ignores Passes.
	Passes int
}

// Result is what one workload run measured and verified.
type Result struct {
	// Wall is the workload's wall time, excluding setup (payload tables,
	// domain creation) and teardown.
	Wall time.Duration
	// CPU is the process's CPU time (every thread's) over the same
	// interval as Wall, read where Wall's clock starts and stops.
	CPU cputime.Times
	// Cells is the number of cells created, checked and deleted.
	Cells int64
	// Stats are the implementation's counters after the run, if it has any.
	Stats map[string]int64
}

// MaxBatchSize bounds BatchSize: a batch is one allocation of BatchSize
// cells, and beyond this size it stops being a batch and becomes the heap.
const MaxBatchSize = 1 << 24

// DefaultNIters is DefaultParams' NIters. The OCaml benchmark's full size is
// NITERS=100_000; callers that want it say so.
const DefaultNIters = 10_000

// DefaultPasses is DefaultParams' Passes: enough measured passes per run
// that a pass's fixed costs (its GC cycle, its thread hand-offs) average out
// across them. See the package doc, "Passes".
const DefaultPasses = 3

// MaxPasses bounds Passes.
const MaxPasses = 1000

// DefaultParams returns the OCaml benchmark's configuration
// (SCHEDULER=Parallel MAX_DELAY=128 BATCH_SIZE=1024, one producer, one
// consumer, static payload, shared queue, no outstanding bound) with
// DefaultNIters batches per producer, and DefaultPasses measured passes
// per run.
func DefaultParams() Params {
	return Params{
		Scheduler:      Parallel,
		MaxDelay:       128,
		NIters:         DefaultNIters,
		BatchSize:      1024,
		Producers:      1,
		Consumers:      1,
		Payload:        Static,
		Queue:          Shared,
		MaxOutstanding: 0,
		Passes:         DefaultPasses,
	}
}

// Canonical parameter names, as used by Map, Set and the CLI flags.
const (
	nameScheduler      = "scheduler"
	nameMaxDelay       = "max-delay"
	nameNIters         = "niters"
	nameBatchSize      = "batch-size"
	nameProducers      = "producers"
	nameConsumers      = "consumers"
	namePayload        = "payload"
	nameQueue          = "queue"
	nameMaxOutstanding = "max-outstanding"
	namePasses         = "passes"
)

var paramNames = []string{
	nameScheduler, nameMaxDelay, nameNIters, nameBatchSize, nameProducers,
	nameConsumers, namePayload, nameQueue, nameMaxOutstanding, namePasses,
}

// ParamNames returns the canonical parameter names, in a stable order. Set
// also accepts each one in its environment-variable spelling (BATCH_SIZE).
func ParamNames() []string {
	return append([]string(nil), paramNames...)
}

// Validate checks every parameter. Each error names the parameter, the value
// and what is accepted.
func (p Params) Validate() error {
	if _, err := ParseScheduler(p.Scheduler.String()); err != nil {
		return fmt.Errorf("%s %s: accepted: %s", nameScheduler, p.Scheduler, strings.Join(schedulerNames, ", "))
	}
	if _, err := ParsePayload(p.Payload.String()); err != nil {
		return fmt.Errorf("%s %s: accepted: %s", namePayload, p.Payload, strings.Join(payloadNames, ", "))
	}
	if _, err := ParseQueue(p.Queue.String()); err != nil {
		return fmt.Errorf("%s %s: accepted: %s", nameQueue, p.Queue, strings.Join(queueNames, ", "))
	}
	if p.NIters < 1 {
		return fmt.Errorf("%s %d: must be at least 1", nameNIters, p.NIters)
	}
	if p.BatchSize < 1 || p.BatchSize > MaxBatchSize {
		return fmt.Errorf("%s %d: must be from 1 to %d", nameBatchSize, p.BatchSize, MaxBatchSize)
	}
	if p.Producers < 1 || p.Producers > MaxWorkers {
		return fmt.Errorf("%s %d: must be from 1 to %d", nameProducers, p.Producers, MaxWorkers)
	}
	if p.Consumers < 1 || p.Consumers > MaxWorkers {
		return fmt.Errorf("%s %d: must be from 1 to %d", nameConsumers, p.Consumers, MaxWorkers)
	}
	if p.MaxOutstanding < 0 || (p.MaxOutstanding > 0 && p.MaxOutstanding < p.BatchSize) {
		return fmt.Errorf("%s %d: must be 0 (no bound) or at least %s (%d), so that one batch fits",
			nameMaxOutstanding, p.MaxOutstanding, nameBatchSize, p.BatchSize)
	}
	if p.Passes < 1 || p.Passes > MaxPasses {
		return fmt.Errorf("%s %d: must be from 1 to %d", namePasses, p.Passes, MaxPasses)
	}
	// All three are >= 1 here, so the divisions are safe and exact bounds.
	if int64(p.NIters) > math.MaxInt64/int64(p.BatchSize)/int64(p.Producers) {
		return fmt.Errorf("%s %d × %s %d × %s %d cells overflow int64: lower one of them",
			nameNIters, p.NIters, nameBatchSize, p.BatchSize, nameProducers, p.Producers)
	}
	return nil
}

// TotalCells is the number of cells one pass with p creates (and checks,
// and deletes): NIters × BatchSize × Producers. A measured run of Passes
// passes handles Passes times as many. Valid only if p.Validate() is nil.
func (p Params) TotalCells() int64 {
	return int64(p.NIters) * int64(p.BatchSize) * int64(p.Producers)
}

// Map returns every parameter under its canonical name (see ParamNames),
// formatted so that Set reads it back.
func (p Params) Map() map[string]string {
	return map[string]string{
		nameScheduler:      p.Scheduler.String(),
		nameMaxDelay:       strconv.Itoa(p.MaxDelay),
		nameNIters:         strconv.Itoa(p.NIters),
		nameBatchSize:      strconv.Itoa(p.BatchSize),
		nameProducers:      strconv.Itoa(p.Producers),
		nameConsumers:      strconv.Itoa(p.Consumers),
		namePayload:        p.Payload.String(),
		nameQueue:          p.Queue.String(),
		nameMaxOutstanding: strconv.Itoa(p.MaxOutstanding),
		namePasses:         strconv.Itoa(p.Passes),
	}
}

// CanonicalName returns the canonical name of a parameter given as its
// canonical name or its environment-variable spelling, case-insensitively
// (batch-size, BATCH_SIZE); the error lists the accepted names.
func CanonicalName(name string) (string, error) {
	n := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
	for _, c := range paramNames {
		if n == c {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown parameter %q (accepted: %s; or their environment spellings such as BATCH_SIZE)",
		name, strings.Join(paramNames, ", "))
}

// Set sets one parameter from text. name is a canonical name or its
// environment-variable spelling, case-insensitively (batch-size, BATCH_SIZE).
// Numbers go through internal/parse and accept '_' separators (100_000).
// Set checks what it can about the value alone; Validate checks the whole.
func (p *Params) Set(name, value string) error {
	canon, err := CanonicalName(name)
	if err != nil {
		return err
	}
	q := *p // p changes only if the value is accepted
	switch canon {
	case nameScheduler:
		q.Scheduler, err = ParseScheduler(value)
	case namePayload:
		q.Payload, err = ParsePayload(value)
	case nameQueue:
		q.Queue, err = ParseQueue(value)
	case nameMaxDelay:
		q.MaxDelay, err = setInt(canon, value, math.MinInt, math.MaxInt, "any integer; <= 0 disables")
	case nameNIters:
		q.NIters, err = parse.Count(canon, value)
	case nameBatchSize:
		q.BatchSize, err = setInt(canon, value, 1, MaxBatchSize, fmt.Sprintf("1 to %d", MaxBatchSize))
	case nameProducers:
		q.Producers, err = setInt(canon, value, 1, MaxWorkers, fmt.Sprintf("1 to %d", MaxWorkers))
	case nameConsumers:
		q.Consumers, err = setInt(canon, value, 1, MaxWorkers, fmt.Sprintf("1 to %d", MaxWorkers))
	case nameMaxOutstanding:
		q.MaxOutstanding, err = setInt(canon, value, 0, math.MaxInt, "0 (no bound) or at least batch-size")
	case namePasses:
		q.Passes, err = setInt(canon, value, 1, MaxPasses, fmt.Sprintf("1 to %d", MaxPasses))
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), canon) {
			err = fmt.Errorf("%s: %w", canon, err)
		}
		return err
	}
	*p = q
	return nil
}

// setInt parses an integer parameter and checks it is within [lo, hi].
func setInt(name, value string, lo, hi int64, accepted string) (int, error) {
	v, err := parse.Int(value)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%s %s: out of range: accepted: %s", name, value, accepted)
	}
	return int(v), nil
}
