package msgpass

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// stack is a lock-free Treiber stack: any number of goroutines push and pop
// concurrently. It is how batches travel from producers to consumers.
//
// ABA safety. A Treiber pop reads head (node A) and A.next (node B), then
// CASes head from A to B. The classic ABA failure is: between the read and
// the CAS, A is popped, B is popped, and A is pushed again, so the CAS
// succeeds and installs B, which is no longer on the stack. Here A can never
// be pushed again: push allocates a fresh node every time and no node is
// ever recycled, and Go's garbage collector does not reuse A's memory while
// any goroutine (the stale popper included) still holds a pointer to it. So
// "head == A" at the CAS means A has not left the stack, and A.next, written
// once before A was published and never again, is still B.
//
// For the same reason a node's next field is never written after the CAS
// that publishes it: a stale popper may still be reading it. That is also
// what keeps the stack clean under the race detector.
//
// The fresh node costs one small allocation per push, i.e. per batch, as in
// the OCaml benchmark; the batch's cells are recycled separately (freeList),
// where the single-consumer discipline makes recycling safe.
type stack[T any] struct {
	_    cpu.CacheLinePad
	head atomic.Pointer[node[T]]
	_    cpu.CacheLinePad
}

type node[T any] struct {
	next *node[T] // written once, before the node is published
	val  T
}

// push adds v on top of the stack.
func (s *stack[T]) push(v T) {
	n := &node[T]{val: v}
	for {
		old := s.head.Load()
		n.next = old // n is not yet published: nobody else can see this write
		if s.head.CompareAndSwap(old, n) {
			return
		}
	}
}

// pop removes and returns the top of the stack; ok is false when the stack
// is empty.
func (s *stack[T]) pop() (v T, ok bool) {
	for {
		old := s.head.Load()
		if old == nil {
			return v, false
		}
		// old stays allocated while we hold it, and its next never changes
		// after publication (see the type comment): if the CAS succeeds,
		// next is what follows old on the stack right now.
		if s.head.CompareAndSwap(old, old.next) {
			return old.val, true
		}
	}
}

// empty reports whether the stack was empty at the moment of the load: a
// cheap check for spinning, without the CAS of pop.
func (s *stack[T]) empty() bool { return s.head.Load() == nil }

// freeList returns a producer's used batches to it for reuse: many consumers
// push, only the owning producer takes. It is intrusive (the batch holds the
// link) and allocates nothing.
//
// Recycling is ABA-safe here because nothing ever reads a link and then
// CASes on the strength of it. The taker takes everything at once with one
// Swap. A pusher CASes head from the value old it read to its own batch b,
// having set b.nextFree = old while it owned b exclusively; that is right
// whenever head == old at the CAS, whatever happened in between, since the
// only thing it relies on is that b now sits on top of old. A batch is pushed
// only by the consumer that finished it, and it is in the list at most once
// at a time (the producer re-publishes it only after taking it out).
type freeList[C any] struct {
	_    cpu.CacheLinePad
	head atomic.Pointer[batch[C]]
	_    cpu.CacheLinePad
}

func (l *freeList[C]) push(b *batch[C]) {
	for {
		old := l.head.Load()
		b.nextFree = old // b is owned by this goroutine until the CAS succeeds
		if l.head.CompareAndSwap(old, b) {
			return
		}
	}
}

// takeAll empties the list and returns its former contents, linked through
// nextFree. Only the owning producer calls it.
func (l *freeList[C]) takeAll() *batch[C] {
	if l.head.Load() == nil {
		return nil
	}
	return l.head.Swap(nil)
}
