// Package callback is rootbench's native callback workload: the cost of
// calling Go from C, directly or through a dispatcher, with and without a
// root handle resolved on every call.
//
// It is the Go counterpart of a measurement made for another managed runtime
// (one native thread calling foo(x) = x + 100 ten million times: plain call,
// pipe dispatcher, stack switches). Every variant computes foo(x) = x + 100
// for x = 0 .. Calls-1, split across Threads callers in contiguous ranges;
// the C side sums the replies and Run checks the sum against the closed form
// sum_{x<Calls} (x + 100), computed modulo 2^64 on both sides.
//
// The variants (see Variants):
//
//   - plain: Go calls into C once per thread; C loops calling an exported Go
//     function on that Go-owned thread (the baseline).
//   - cthread: threads created in C (pthread_create) call the exported Go
//     function; C joins them.
//   - pipe: C threads write each request to one pipe; one goroutine locked
//     to its thread serves it and writes the reply to a pipe per C thread
//     (the dispatcher design).
//   - spin: C threads hand each request through a shared-memory slot (C11
//     atomics on the C side, sync/atomic on the Go side) to one goroutine
//     locked to its thread that polls the slots; no syscalls on the fast
//     path (the lock-free handoff).
//   - channel: C threads call an exported Go function that forwards each
//     request to a server goroutine over a channel and waits for the reply.
//
// With a handle (Params.Handle other than "none") each call carries a
// uintptr handle that the Go side resolves, on every call, to a Go object
// holding the addend 100: in the exported function for plain and cthread, in
// the serving goroutine for pipe, spin and channel. Handles are created once
// per thread before the timed loop and deleted after it. The handle kind's
// implementation is given to Run as a RootHandle: the workload imports no
// implementation and knows no handle kind by name (the catalog, package
// impls, maps names to RootHandles).
//
// Everything that needs cgo sits behind the cgo build constraint; without
// cgo, Available is false and Run returns an error carrying Unavailable.
package callback

import (
	"fmt"
	"strings"
	"time"

	"github.com/rootbench/rootbench/cputime"
	"github.com/rootbench/rootbench/parse"
)

// Variant names, in the order Variants returns them.
const (
	VariantPlain   = "plain"
	VariantCThread = "cthread"
	VariantPipe    = "pipe"
	VariantSpin    = "spin"
	VariantChannel = "channel"
)

// HandleNone is the handle name of calls that carry no handle.
const HandleNone = "none"

// MaxThreads bounds Params.Threads.
const MaxThreads = 64

// Addend is what foo adds: foo(x) = x + Addend.
const Addend = 100

var variantNames = []string{VariantPlain, VariantCThread, VariantPipe, VariantSpin, VariantChannel}

// Variants returns the variant names: "plain", "cthread", "pipe", "spin",
// "channel".
func Variants() []string { return append([]string(nil), variantNames...) }

// RootHandle is a root-handle kind as this workload uses it: a Go value kept
// alive behind a uintptr token that C carries and Go resolves on every call,
// with runtime/cgo.Handle's shape. The workload knows handle kinds only
// through this interface; the catalog supplies them by name
// (impls.RootHandle). Every method must be safe for concurrent use; Value is
// on the measured path.
type RootHandle interface {
	// New roots v and returns its handle.
	New(v any) uintptr
	// Value returns the value h roots.
	Value(h uintptr) any
	// Delete unroots h; h is not used afterwards.
	Delete(h uintptr)
}

// Params are the workload's parameters. Names are matched case-insensitively
// (surrounding spaces ignored); start from DefaultParams.
type Params struct {
	// Variant is one of Variants.
	Variant string
	// Handle is HandleNone, or the name of the handle kind whose RootHandle
	// Run is given: any name without spaces or commas.
	Handle string
	// Threads is the number of callers running at once, in 1..MaxThreads.
	Threads int
	// Calls is the total number of calls, split across the threads (the
	// first Calls%Threads threads make one call more); at least 1.
	Calls int64
}

// DefaultParams returns plain, no handle, 1 thread, 1_000_000 calls.
func DefaultParams() Params {
	return Params{Variant: VariantPlain, Handle: HandleNone, Threads: 1, Calls: 1_000_000}
}

// Validate reports the first invalid parameter, naming what is accepted.
func (p Params) Validate() error {
	_, _, err := p.parse()
	return err
}

// ParamNames are the parameters Set accepts.
var ParamNames = []string{"variant", "handle", "threads", "calls"}

// Set sets one parameter from text, as users type it: variant, handle,
// threads or calls (numbers accept '_' separators: 10_000_000). Validate
// checks the values; Set checks that numbers are counts.
func (p *Params) Set(name, value string) error {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "variant":
		p.Variant = value
	case "handle":
		p.Handle = value
	case "threads":
		n, err := parse.Count("threads", value)
		if err != nil {
			return err
		}
		p.Threads = n
	case "calls":
		n, err := parse.Count("calls", value)
		if err != nil {
			return err
		}
		p.Calls = int64(n)
	default:
		return fmt.Errorf("unknown callback parameter %q (accepted: %s)", name, strings.Join(ParamNames, ", "))
	}
	return nil
}

// parse validates p and returns the index of its variant and whether its
// calls carry a handle.
func (p Params) parse() (variant int, withHandle bool, err error) {
	if variant, err = parseName("variant", p.Variant, variantNames); err != nil {
		return 0, false, err
	}
	h := strings.TrimSpace(p.Handle)
	if h == "" || strings.ContainsAny(h, " \t,") {
		return 0, false, fmt.Errorf("callback: bad handle %q (accepted: %s, or the name of a handle kind)", p.Handle, HandleNone)
	}
	if p.Threads < 1 || p.Threads > MaxThreads {
		return 0, false, fmt.Errorf("callback: threads %d out of range (accepted: 1..%d)", p.Threads, MaxThreads)
	}
	if p.Calls < 1 {
		return 0, false, fmt.Errorf("callback: calls %d out of range (accepted: at least 1)", p.Calls)
	}
	return variant, !strings.EqualFold(h, HandleNone), nil
}

func parseName(what, s string, names []string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("callback: unknown %s %q (accepted: %s)", what, s, strings.Join(names, ", "))
}

// Result is what one run measured and verified.
type Result struct {
	// Wall is the time from the first caller entering its calling loop to
	// the last caller leaving it (C's CLOCK_MONOTONIC). Thread creation, the
	// start gate, handle creation and thread joins are outside it.
	Wall time.Duration
	// CPU is the process's CPU time (every thread's, getrusage
	// RUSAGE_SELF) over the same interval as Wall, read by the C side
	// where it reads Wall's clock.
	CPU cputime.Times
	// Calls is the number of calls made (Params.Calls unless the run was
	// stopped).
	Calls int64
	// Sum is the sum of every reply, as computed by the C side (modulo 2^64).
	Sum int64
}

// NsPerCall returns Wall divided by Calls (0 when no call was made).
func (r Result) NsPerCall() float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(r.Wall.Nanoseconds()) / float64(r.Calls)
}

// CallsPerSecond returns the throughput, Calls over Wall (0 when Wall is 0).
func (r Result) CallsPerSecond() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return float64(r.Calls) / r.Wall.Seconds()
}

// ExpectedSum returns sum_{x=0}^{calls-1} (x + Addend) modulo 2^64, as an
// int64: the sum a complete run of calls calls must report.
func ExpectedSum(calls int64) int64 {
	n := uint64(calls)
	// n(n-1)/2 without losing the halving to wrap-around: halve the even
	// factor first.
	var tri uint64
	if n%2 == 0 {
		tri = (n / 2) * (n - 1)
	} else {
		tri = n * ((n - 1) / 2)
	}
	return int64(tri + n*Addend)
}

// verify checks a complete run's figures against the closed form.
func verify(variant string, p Params, calls, sum int64) error {
	if calls != p.Calls {
		return fmt.Errorf("callback %s: %d calls made, want %d", variant, calls, p.Calls)
	}
	if want := ExpectedSum(p.Calls); sum != want {
		return fmt.Errorf("callback %s: wrong sum %d for %d calls on %d threads, want %d",
			variant, sum, p.Calls, p.Threads, want)
	}
	return nil
}
